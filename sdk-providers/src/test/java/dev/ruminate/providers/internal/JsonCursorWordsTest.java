package dev.ruminate.providers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.providers.testing.Seeds;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link JsonCursor}'s loops that read 8 bytes at a time (strings, names, name compares, whitespace) answer exactly
 * as the byte-at-a-time cursor did ({@link BytewiseJsonCursor}), call for call: with the byte that ends a plain run
 * (a quote, a backslash, a control byte, a non-ASCII byte 0x80-0xFF) at every position 0..16 within and across the
 * 8-byte words, in documents at unaligned offsets of larger arrays whose range ends before the array does, and
 * never taking a byte past the range as a match.
 */
class JsonCursorWordsTest {

    /** Bytes that stop a plain run, and their neighbours that must not. */
    private static final int[] EDGES = {'"', '\\', 0x00, 0x01, 0x1f, 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xa2,
            0xdc, 0xbf, 0xc0, 0xc1, 0xc2, 0xe0, 0xed, 0xf0, 0xf4, 0xf5, 0xff, '\t', '\n', 'u', '/'};
    /** Pieces a string's content is built from: plain text, escapes good and bad, UTF-8 good and bad. */
    private static final String[] PIECES = {"a", "plain text", "0123456789abcdef", " ", "\\n", "\\\"", "\\\\", "\\/",
            "\\u00e9", "\\uD83D\\uDE00", "\\udc00", "\\u12G4", "\\x", "\\", "é", "€", "😀", "\u0001", "\t", "\u007f"};

    static LongStream seeds() {
        return Seeds.of(300);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void stringsStopAtEveryPositionOfTheWords(long seed) {
        Random random = Seeds.random(seed);
        for (int position = 0; position <= 16; position++) {
            for (int edge : EDGES) {
                ByteArrayOutputStream content = new ByteArrayOutputStream();
                content.writeBytes(plain(random, position));
                content.write(edge);
                content.writeBytes(tail(random));
                byte[] document = concat(bytes("\""), content.toByteArray(), bytes(random.nextBoolean() ? "\"" : "\",1"));
                assertSameAnswers(random, document);
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomBytesReadAsByteAtATime(long seed) {
        Random random = Seeds.random(seed);
        for (int round = 0; round < 40; round++) {
            byte[] content = new byte[random.nextInt(40)];
            for (int i = 0; i < content.length; i++) {
                content[i] = random.nextInt(4) == 0 ? (byte) EDGES[random.nextInt(EDGES.length)]
                        : random.nextInt(3) == 0 ? (byte) random.nextInt(256) : (byte) (0x20 + random.nextInt(0x5f));
            }
            assertSameAnswers(random, concat(bytes("\""), content, bytes("\"")));
            assertSameAnswers(random, concat(bytes("\""), content, bytes("\":null")));
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void generatedStringsAndNamesReadAsByteAtATime(long seed) {
        Random random = Seeds.random(seed);
        for (int round = 0; round < 40; round++) {
            StringBuilder s = new StringBuilder();
            int n = random.nextInt(8);
            for (int i = 0; i < n; i++) {
                s.append(PIECES[random.nextInt(PIECES.length)]);
            }
            String ws = random.nextInt(3) == 0 ? " \t\r\n".substring(random.nextInt(4)) : "";
            assertSameAnswers(random, bytes(ws + "\"" + s + "\"" + ws + ":" + ws + "1"));
            assertSameAnswers(random, bytes(ws + "\"" + s + "\"" + ws + "}"));
            // Cut anywhere: a truncated string is never recognised.
            byte[] whole = bytes("\"" + s + "\"");
            assertSameAnswers(random, Arrays.copyOf(whole, random.nextInt(whole.length + 1)));
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void neverTakeAByteAfterTheRangeAsTheClosingQuote(long seed) {
        Random random = Seeds.random(seed);
        for (int length = 0; length <= 24; length++) {
            byte[] content = plain(random, length);
            // The array goes on with a quote, a colon and a delimiter right after the range, which must not count.
            byte[] open = concat(bytes("\""), content);
            int lead = random.nextInt(9);
            byte[] array = concat(garbage(random, lead), open, bytes("\":1,\"x\":\"y\"}"), garbage(random, random.nextInt(9)));
            JsonCursor cursor = new JsonCursor();
            assertThat(cursor.reset(array, lead, open.length).stringValue()).isFalse();
            assertThat(cursor.reset(array, lead, open.length).skipScalar()).isFalse();
            assertThat(cursor.reset(array, lead, open.length).name()).isFalse();
            // One byte more takes the quote; the name still needs its colon, which is outside.
            assertThat(cursor.reset(array, lead, open.length + 1).stringValue()).isTrue();
            assertThat(cursor.string()).isEqualTo(new String(content, StandardCharsets.ISO_8859_1));
            assertThat(cursor.reset(array, lead, open.length + 1).name()).isFalse();
            assertThat(cursor.reset(array, lead, open.length + 2).name()).isTrue();
            assertThat(cursor.nameIs(content)).isTrue();
        }
    }

    @Test
    void escapedStringsNeverTakeTheBytesAfterTheRange() {
        byte[] array = bytes("  \"0123456789\\n0123456789\"}");
        JsonCursor cursor = new JsonCursor();
        for (int length = 0; length < array.length - 3; length++) {
            assertThat(cursor.reset(array, 2, length).stringValue()).as("length %d", length).isFalse();
        }
        assertThat(cursor.reset(array, 2, array.length - 3).stringValue()).isTrue();
        assertThat(cursor.string()).isEqualTo("0123456789\n0123456789");
        assertThat(cursor.atEnd()).isTrue();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void namesCompareByEveryByte(long seed) {
        Random random = Seeds.random(seed);
        for (int length = 0; length <= 20; length++) {
            byte[] name = plain(random, length);
            byte[] array = concat(garbage(random, random.nextInt(9)), bytes("\""), name, bytes("\":0"));
            int offset = array.length - name.length - 4;
            JsonCursor cursor = new JsonCursor().reset(array, offset, name.length + 4);
            assertThat(cursor.name()).isTrue();
            assertThat(cursor.nameIs(name)).isTrue();
            assertThat(cursor.nameIs(Arrays.copyOf(name, length + 1))).isFalse();
            if (length > 0) {
                assertThat(cursor.nameIs(Arrays.copyOf(name, length - 1))).isFalse();
            }
            for (int i = 0; i < length; i++) {
                byte[] other = name.clone();
                other[i] ^= (byte) (1 << random.nextInt(8));
                assertThat(cursor.nameIs(other)).as("byte %d of %d", i, length).isFalse();
            }
        }
    }

    @Test
    void whitespaceIsSkippedOnlyWhereThereIs() {
        JsonCursor cursor = new JsonCursor();
        assertThat(cursor.reset(bytes(" \t\r\n{"), 5).take('{')).isTrue();
        assertThat(cursor.reset(bytes("{"), 1).take('{')).isTrue();
        assertThat(cursor.reset(bytes(" \u000b{"), 3).take('{')).isFalse();
        assertThat(cursor.reset(bytes("\u00a0{"), 3).take('{')).isFalse();
        assertThat(cursor.reset(bytes(" \n "), 3).atEnd()).isTrue();
        assertThat(cursor.reset(bytes(" \n {"), 1, 2).atEnd()).isTrue();
        assertThat(cursor.reset(bytes(" \n {"), 0, 4).atEnd()).isFalse();
    }

    /**
     * Runs the same calls on both cursors over {@code document} placed at a random offset of a larger array (garbage
     * around it, the range ending before the array), and asserts every answer is the same.
     */
    private static void assertSameAnswers(Random random, byte[] document) {
        int lead = random.nextInt(9);
        byte[] array = concat(garbage(random, lead), document, garbage(random, random.nextInt(9)));
        List<String> fast = answers(new JsonCursor(), array, lead, document.length);
        List<String> reference = answers(new BytewiseJsonCursor(), array, lead, document.length);
        assertThat(fast).as("document %s", hex(document)).isEqualTo(reference);
    }

    /** The answers of the cursor under test to a fixed sequence of calls. */
    private static List<String> answers(JsonCursor c, byte[] array, int offset, int length) {
        List<String> out = new ArrayList<>();
        c.reset(array, offset, length);
        boolean ok = c.stringValue();
        out.add("string " + ok + (ok ? " " + c.string() + " " + c.take(',') + c.take(':') + c.peek('1') + c.atEnd() : ""));
        c.reset(array, offset, length);
        ok = c.skipScalar();
        out.add("skip " + ok + (ok ? " " + c.take(',') + c.take(':') + c.peek('1') + c.atEnd() : ""));
        c.reset(array, offset, length);
        ok = c.name();
        out.add("name " + ok + (ok ? " " + c.nameIs(new byte[0]) + c.peek('1') + c.peek('n') + c.atEnd() : ""));
        if (ok) {
            out.add("nameIs " + c.nameIs(nameOf(array, offset)));
        }
        return out;
    }

    /** The same calls on the reference. */
    private static List<String> answers(BytewiseJsonCursor r, byte[] array, int offset, int length) {
        List<String> out = new ArrayList<>();
        r.reset(array, offset, length);
        boolean ok = r.stringValue();
        out.add("string " + ok + (ok ? " " + r.string() + " " + r.take(',') + r.take(':') + r.peek('1') + r.atEnd() : ""));
        r.reset(array, offset, length);
        ok = r.skipScalar();
        out.add("skip " + ok + (ok ? " " + r.take(',') + r.take(':') + r.peek('1') + r.atEnd() : ""));
        r.reset(array, offset, length);
        ok = r.name();
        out.add("name " + ok + (ok ? " " + r.nameIs(new byte[0]) + r.peek('1') + r.peek('n') + r.atEnd() : ""));
        if (ok) {
            out.add("nameIs " + r.nameIs(nameOf(array, offset)));
        }
        return out;
    }

    /** The bytes between the first quote at or after {@code offset} and the next quote. */
    private static byte[] nameOf(byte[] array, int offset) {
        int open = offset;
        while (array[open] != '"') {
            open++;
        }
        int close = open + 1;
        while (array[close] != '"') {
            close++;
        }
        return Arrays.copyOfRange(array, open + 1, close);
    }

    /** Printable ASCII that never stops a run (no quote, no backslash). */
    private static byte[] plain(Random random, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            byte x;
            do {
                x = (byte) (0x20 + random.nextInt(0x5f));
            } while (x == '"' || x == '\\');
            b[i] = x;
        }
        return b;
    }

    /** What follows the edge byte: well-formed continuations, escapes, more plain text, more edges. */
    private static byte[] tail(Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            switch (random.nextInt(4)) {
                case 0 -> out.writeBytes(bytes(PIECES[random.nextInt(PIECES.length)]));
                case 1 -> out.write(0x80 + random.nextInt(0x40));
                case 2 -> out.write(EDGES[random.nextInt(EDGES.length)]);
                default -> out.writeBytes(plain(random, random.nextInt(12)));
            }
        }
        return out.toByteArray();
    }

    /** Bytes around a document: quotes, colons and backslashes often, so that reading one would show. */
    private static byte[] garbage(Random random, int length) {
        byte[] b = new byte[length];
        String tempting = "\"\\:,}]";
        for (int i = 0; i < length; i++) {
            b[i] = random.nextBoolean() ? (byte) tempting.charAt(random.nextInt(tempting.length())) : (byte) random.nextInt(256);
        }
        return b;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x & 0xff));
        }
        return s.toString();
    }
}
