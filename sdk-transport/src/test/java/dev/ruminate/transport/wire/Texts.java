package dev.ruminate.transport.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random inputs for the framing properties: multi-byte UTF-8 of every length, look-alikes of line
 * ends, and buffer sizes to split bodies with. Every method draws from the given {@link Random}
 * only, so a seed fixes the input.
 */
final class Texts {

    private static final int[] PUNCTUATION = {':', ' ', '{', '"', '\t'};

    /** Characters that must not count as line ends or byte order marks inside text: NEL, LINE SEPARATOR, BOM, NUL. */
    private static final int[] LOOK_ALIKES = {0x85, 0x2028, 0xFEFF, 0};

    private Texts() {
    }

    /**
     * Returns text of 0 to {@code maxLength} code points (uniformly many) mixing ASCII, field
     * punctuation, and 2-, 3- and 4-byte UTF-8 characters (emoji included), plus the look-alikes.
     *
     * @param maxLength the most code points
     * @param extra further code points to mix in, one draw in 13, such as {@code \r} for NDJSON
     */
    static String text(Random random, int maxLength, int... extra) {
        int length = random.nextInt(maxLength + 1);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            if (extra.length > 0 && random.nextInt(13) == 0) {
                text.appendCodePoint(extra[random.nextInt(extra.length)]);
            } else {
                text.appendCodePoint(codePoint(random));
            }
        }
        return text.toString();
    }

    /** Draws one code point; the weights are 8 ASCII, 3 punctuation, 2 two-byte, 2 three-byte, 3 four-byte, 1 look-alike. */
    private static int codePoint(Random random) {
        int pick = random.nextInt(19);
        if (pick < 8) {
            return between(random, 0x20, 0x7E);
        }
        if (pick < 11) {
            return PUNCTUATION[random.nextInt(PUNCTUATION.length)];
        }
        if (pick < 13) {
            return between(random, 0x80, 0x7FF);
        }
        if (pick < 15) {
            int c;
            do {
                c = between(random, 0x800, 0xFFFF);
            } while (c >= 0xD800 && c <= 0xDFFF);
            return c;
        }
        if (pick < 18) {
            // Half from the emoji blocks providers actually send, half from all of the supplementary planes.
            return random.nextBoolean() ? between(random, 0x1F300, 0x1FAFF) : between(random, 0x10000, 0x10FFFF);
        }
        return LOOK_ALIKES[random.nextInt(LOOK_ALIKES.length)];
    }

    /**
     * Returns 1 to 8 buffer sizes for {@link Bodies#split}: weights 6 for 1 to 7 bytes, 2 for 8 to 64
     * bytes, 1 for an empty buffer.
     */
    static List<Integer> bufferSizes(Random random) {
        int count = 1 + random.nextInt(8);
        List<Integer> sizes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int pick = random.nextInt(9);
            sizes.add(pick < 6 ? between(random, 1, 7) : pick < 8 ? between(random, 8, 64) : 0);
        }
        return sizes;
    }

    /**
     * Returns an int from {@code min} to {@code max}, both included; each bound comes up one draw in
     * 20, because off-by-one faults live there and a uniform draw from a wide range would rarely hit it.
     */
    static int between(Random random, int min, int max) {
        int edge = random.nextInt(20);
        if (edge == 0) {
            return min;
        }
        if (edge == 1) {
            return max;
        }
        return min + random.nextInt(max - min + 1);
    }

    /** Returns one of the options, each equally likely. */
    static String oneOf(Random random, String... options) {
        return options[random.nextInt(options.length)];
    }
}
