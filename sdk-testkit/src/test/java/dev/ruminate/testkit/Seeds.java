package dev.ruminate.testkit;

import java.util.Random;
import java.util.stream.LongStream;

/**
 * Seeds and generators for randomized property tests run as JUnit parameterized tests:
 * deterministic by default, widened with {@code -Druminate.property.tries=N} and
 * {@code -Druminate.property.seed=S}. A failing case names its seed.
 */
final class Seeds {

    private Seeds() {
    }

    static LongStream of(int defaultTries) {
        long base = Long.getLong("ruminate.property.seed", 20261122L);
        int tries = Integer.getInteger("ruminate.property.tries", defaultTries);
        return LongStream.range(base, base + tries);
    }

    /** A text of up to {@code max} code points: ASCII, control characters, BMP and astral (emoji) ranges. */
    static String text(Random random, int max) {
        int count = random.nextInt(max + 1);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            sb.appendCodePoint(switch (random.nextInt(4)) {
                case 0 -> 0x20 + random.nextInt(0x7F - 0x20);
                case 1 -> random.nextInt(0x20);
                case 2 -> 0xA0 + random.nextInt(0xD800 - 0xA0);
                default -> 0x1F300 + random.nextInt(0x1FB00 - 0x1F300);
            });
        }
        return sb.toString();
    }

    static byte[] bytes(Random random, int max) {
        byte[] bytes = new byte[random.nextInt(max + 1)];
        random.nextBytes(bytes);
        return bytes;
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
