package dev.ruminate.providers.testing;

import java.util.Random;

/**
 * The pieces a fast path's differential test writes inside a JSON string: what a byte scanner must read exactly as
 * Jackson does, or leave to it. One place for the six families' generators, which differ in the shapes around
 * their strings and in how often each piece comes, not in the pieces.
 */
public final class JsonNoise {

    /**
     * A private-use character that a generator writes where the bytes must not be UTF-8; the test replaces its
     * encoding with malformed sequences after encoding the text.
     */
    public static final char MALFORMED = '\ue000';

    private JsonNoise() {
    }

    /**
     * Appends one piece of a JSON string's content.
     *
     * @param random the generator's random source
     * @param out the text being written, inside a string's quotes
     * @param kind 0 a short escape, 1 a {@code \}{@code u} escape of any unit, 2 an escaped surrogate pair, 3 an
     *     escaped lone surrogate, 4 multi-byte UTF-8, 5 a malformed escape or a raw control character, 6 a lone
     *     surrogate character (written as {@code ?} by the encoder), 7 {@link #MALFORMED}, anything else a letter
     *     and now and then a space
     */
    public static void stringPiece(Random random, StringBuilder out, int kind) {
        switch (kind) {
            case 0 -> out.append(pick(random, "\\n", "\\t", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r"));
            case 1 -> out.append(String.format(random.nextBoolean() ? "\\u%04x" : "\\u%04X", random.nextInt(0x10000)));
            case 2 -> out.append("\\ud83d\\ude00");
            case 3 -> out.append(pick(random, "\\ud83d", "\\ude00", "\\ud83dx"));
            case 4 -> out.append(pick(random, "é", "中文", "😀", "𝄞", "ß€→"));
            case 5 -> out.append(pick(random, "\\x", "\\u12", "\\u12g4", "\u0001", "\t", "\\"));
            case 6 -> out.append((char) 0xd83d);
            case 7 -> out.append(MALFORMED);
            default -> out.append((char) ('a' + random.nextInt(26))).append(random.nextInt(5) == 0 ? " " : "");
        }
    }

    private static String pick(Random random, String... options) {
        return options[random.nextInt(options.length)];
    }
}
