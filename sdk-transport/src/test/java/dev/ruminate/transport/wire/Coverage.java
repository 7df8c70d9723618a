package dev.ruminate.transport.wire;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.function.LongPredicate;
import java.util.stream.LongStream;

/**
 * Measures how often the cases of a seeded property have a feature, so that a test can check the
 * generator still produces the inputs the property is meant to explore.
 */
final class Coverage {

    /** Fewer cases than this, as when one failing seed is rerun, make a share meaningless. */
    private static final int MIN_CASES = 100;

    private Coverage() {
    }

    /**
     * Returns the share, from 0 to 1, of the seeds whose case has the feature; skips the calling
     * test when too few seeds are given for a share to mean anything.
     */
    static double share(LongStream seeds, LongPredicate feature) {
        long[] all = seeds.toArray();
        assumeTrue(all.length >= MIN_CASES, () -> "coverage needs at least " + MIN_CASES + " cases, got " + all.length);
        long hits = LongStream.of(all).filter(feature).count();
        return (double) hits / all.length;
    }
}
