package dev.ruminate.providers.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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

    /** Byte sequences that are not UTF-8, put where a generator wrote {@link #MALFORMED}. */
    private static final byte[][] NOT_UTF8 = {
            {(byte) 0xc0, (byte) 0x80}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xf5, (byte) 0x80, (byte) 0x80, (byte) 0x80},
            {(byte) 0x80}, {(byte) 0xe2, (byte) 0x82}, {(byte) 0xf0, (byte) 0x9f, (byte) 0x98}, {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            {(byte) 0xe0, (byte) 0x80, (byte) 0x80}, {(byte) 0xc2}, {(byte) 0xff}};

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
            case 0 -> out.append(NoisyJsonWriter.pick(random, "\\n", "\\t", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r"));
            case 1 -> out.append(String.format(random.nextBoolean() ? "\\u%04x" : "\\u%04X", random.nextInt(0x10000)));
            case 2 -> out.append("\\ud83d\\ude00");
            case 3 -> out.append(NoisyJsonWriter.pick(random, "\\ud83d", "\\ude00", "\\ud83dx"));
            case 4 -> out.append(NoisyJsonWriter.pick(random, "é", "中文", "😀", "𝄞", "ß€→"));
            case 5 -> out.append(NoisyJsonWriter.pick(random, "\\x", "\\u12", "\\u12g4", "\u0001", "\t", "\\"));
            case 6 -> out.append((char) 0xd83d);
            case 7 -> out.append(MALFORMED);
            default -> out.append((char) ('a' + random.nextInt(26))).append(random.nextInt(5) == 0 ? " " : "");
        }
    }

    /**
     * Encodes a generated text as UTF-8 with each {@link #MALFORMED} replaced by a byte sequence that is not UTF-8
     * (overlong, surrogate, past U+10FFFF, a lone continuation, cut short, 0xff), chosen by its position, so that a
     * text always becomes the same bytes.
     *
     * @param text the text, {@link #MALFORMED} where the bytes must not be UTF-8
     * @return its bytes
     */
    public static byte[] utf8(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        byte[] marker = String.valueOf(MALFORMED).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length);
        for (int i = 0; i < bytes.length; i++) {
            if (i + marker.length <= bytes.length && Arrays.equals(bytes, i, i + marker.length, marker, 0, marker.length)) {
                out.writeBytes(NOT_UTF8[Math.floorMod(i * 31 + bytes.length, NOT_UTF8.length)]);
                i += marker.length - 1;
            } else {
                out.write(bytes[i]);
            }
        }
        return out.toByteArray();
    }
}
