package dev.ruminate.gateway.testing;

import java.util.stream.LongStream;

/**
 * Seeds for randomized property tests run as JUnit parameterized tests: deterministic by default
 * (the same seeds on every run, so CI is never flaky), widened on demand with
 * {@code -Druminate.property.tries=N} and {@code -Druminate.property.seed=S} to explore new inputs.
 * A failing case names its seed; rerun it with that seed and {@code tries=1}.
 */
public final class Seeds {

    private Seeds() {
    }

    /**
     * Returns the seeds of one property.
     *
     * @param defaultTries how many cases to run when no override is given
     * @return the seeds
     */
    public static LongStream of(int defaultTries) {
        long base = Long.getLong("ruminate.property.seed", 20261122L);
        int tries = Integer.getInteger("ruminate.property.tries", defaultTries);
        return LongStream.range(base, base + tries);
    }

    /**
     * Returns the random source of one seed. {@code new Random(seed)} draws nearly the same first
     * values for consecutive seeds, which {@link #of} gives, so every case would make the same first
     * choices; mixing the seed first (SplitMix64, through {@link java.util.SplittableRandom}) makes
     * neighbouring seeds differ from their first draw, while the seed stays the one to rerun a case with.
     *
     * @param seed a seed from {@link #of}
     * @return a random source for that case
     */
    public static java.util.Random random(long seed) {
        return new java.util.Random(new java.util.SplittableRandom(seed).nextLong());
    }
}
