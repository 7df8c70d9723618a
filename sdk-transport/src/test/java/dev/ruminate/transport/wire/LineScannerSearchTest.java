package dev.ruminate.transport.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.transport.testing.Seeds;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The line-end searches of {@link LineScanner}, which read heap arrays 8 bytes at a time, find exactly what a byte
 * loop finds: the first match wherever it lies within or across the 8-byte words, never a match outside the range
 * searched, whatever the array offset, the range's alignment and length, and the bytes around (0x80-0xFF included:
 * 0x8A and 0x8D are CR and LF with the sign bit set).
 */
class LineScannerSearchTest {

    /** Bytes that look like a match to a careless word trick: neighbours, and the line ends with the sign bit set. */
    private static final byte[] DECOYS = {0x09, 0x0b, 0x0c, 0x0e, 0x00, 0x01, (byte) 0x8a, (byte) 0x8d, (byte) 0x80,
            (byte) 0xff, (byte) 0xfe, 0x7f, 0x1a, 0x2d, (byte) 0x0a ^ 0x01, (byte) 0x0d ^ 0x01};

    static LongStream seeds() {
        return Seeds.of(300);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void findTheFirstMatchAtEveryPositionOfTheWords(long seed) {
        Random random = Seeds.random(seed);
        for (int position = 0; position <= 16; position++) {
            for (byte target : new byte[] {'\n', '\r'}) {
                int length = position + 1 + random.nextInt(20);
                int lead = random.nextInt(9);
                int trail = random.nextInt(9);
                byte[] array = new byte[lead + length + trail];
                fill(random, array);
                int from = lead;
                int to = lead + length;
                array[from + position] = target;
                // A second match after the first, and matches just outside the range, must not be taken.
                if (from + position + 1 < to && random.nextBoolean()) {
                    array[from + position + 1 + random.nextInt(to - from - position - 1)] = random.nextBoolean()
                            ? (byte) '\n' : (byte) '\r';
                }
                if (lead > 0) {
                    array[lead - 1] = '\n';
                }
                if (trail > 0) {
                    array[to] = '\r';
                }
                assertSearchesAgree(array, from, to, random);
                assertThat(lineEnd(array, from, to)).isEqualTo(from + position);
                assertThat(indexOf(array, from, to, target)).isEqualTo(from + position);
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void findNothingInRangesWithoutAMatchWhateverLiesOutside(long seed) {
        Random random = Seeds.random(seed);
        for (int length = 0; length <= 40; length++) {
            int lead = random.nextInt(9);
            int trail = random.nextInt(9);
            byte[] array = new byte[lead + length + trail];
            fill(random, array);
            for (int i = 0; i < lead; i++) {
                array[i] = '\n';
            }
            for (int i = lead + length; i < array.length; i++) {
                array[i] = random.nextBoolean() ? (byte) '\n' : (byte) '\r';
            }
            assertThat(lineEnd(array, lead, lead + length)).isEqualTo(-1);
            assertThat(indexOf(array, lead, lead + length, (byte) '\n')).isEqualTo(-1);
            assertSearchesAgree(array, lead, lead + length, random);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void agreeWithAByteLoopOnRandomBytesOfEveryValue(long seed) {
        Random random = Seeds.random(seed);
        for (int round = 0; round < 50; round++) {
            byte[] array = new byte[random.nextInt(64)];
            random.nextBytes(array);
            int from = array.length == 0 ? 0 : random.nextInt(array.length + 1);
            int to = from + random.nextInt(array.length - from + 1);
            assertSearchesAgree(array, from, to, random);
            byte value = (byte) random.nextInt(256);
            assertThat(indexOf(array, from, to, value)).isEqualTo(reference(array, from, to, value, value));
        }
    }

    @Test
    void searchHeapSlicesRelativeToTheirOwnIndexes() {
        byte[] array = "\n\r0123456789abcdef\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        ByteBuf slice = Unpooled.wrappedBuffer(array).slice(3, 15);
        assertThat(slice.hasArray()).isTrue();
        assertThat(slice.arrayOffset()).isEqualTo(3);
        assertThat(LineScanner.lineEnd(slice, 0, 15)).isEqualTo(-1);
        assertThat(LineScanner.indexOf(slice, 0, 15, (byte) '\n')).isEqualTo(-1);
        assertThat(LineScanner.indexOf(slice, 0, 15, (byte) 'f')).isEqualTo(14);
        assertThat(LineScanner.indexOf(slice, 7, 15, (byte) '8')).isEqualTo(7);
        assertThat(LineScanner.indexOf(slice, 8, 15, (byte) '8')).isEqualTo(-1);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void splitLinesLikeAByteLoopWhereverTheBuffersAreCut(long seed) {
        Random random = Seeds.random(seed);
        byte[] body = new byte[random.nextInt(300)];
        fill(random, body);
        for (int i = 0; i < body.length; i++) {
            int r = random.nextInt(24);
            if (r == 0) {
                body[i] = '\n';
            } else if (r == 1) {
                body[i] = '\r';
            }
        }
        for (LineScanner.LineEnds ends : LineScanner.LineEnds.values()) {
            List<String> lines = new ArrayList<>();
            LineScanner scanner = new LineScanner(ends, 1 << 20,
                    (src, index, length, line, offset) -> lines.add(line + "@" + offset + ":" + hex(src, index, length)));
            int at = 0;
            while (at < body.length) {
                int size = 1 + random.nextInt(40);
                int lead = random.nextInt(9);
                int n = Math.min(size, body.length - at);
                byte[] piece = new byte[lead + n + random.nextInt(9)];
                fill(random, piece);
                System.arraycopy(body, at, piece, lead, n);
                scanner.feed(Unpooled.wrappedBuffer(piece, lead, n));
                at += n;
            }
            scanner.finish();
            assertThat(lines).as(ends.name()).isEqualTo(referenceLines(body, ends));
        }
    }

    /** Splits a whole body into lines with a byte loop, numbered and located as the scanner does. */
    private static List<String> referenceLines(byte[] body, LineScanner.LineEnds ends) {
        List<String> lines = new ArrayList<>();
        long number = 1;
        int start = 0;
        int i = 0;
        while (i < body.length) {
            byte b = body[i];
            boolean end = ends == LineScanner.LineEnds.LF ? b == '\n' : b == '\n' || b == '\r';
            if (!end) {
                i++;
                continue;
            }
            int length = i - start;
            if (ends == LineScanner.LineEnds.LF && length > 0 && body[i - 1] == '\r') {
                length--;
            }
            lines.add(number++ + "@" + start + ":" + hex(Unpooled.wrappedBuffer(body), start, length));
            i++;
            if (b == '\r' && i < body.length && body[i] == '\n') {
                i++;
            }
            start = i;
        }
        if (start < body.length) {
            int length = body.length - start;
            if (ends == LineScanner.LineEnds.LF && body[body.length - 1] == '\r') {
                length--;
            }
            lines.add(number + "@" + start + ":" + hex(Unpooled.wrappedBuffer(body), start, length));
        }
        return lines;
    }

    private static String hex(ByteBuf buf, int index, int length) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < length; i++) {
            s.append(String.format("%02x", buf.getByte(index + i) & 0xff));
        }
        return s.toString();
    }

    /** Random bytes, decoys often, never a line end. */
    private static void fill(Random random, byte[] array) {
        for (int i = 0; i < array.length; i++) {
            byte b;
            do {
                b = random.nextInt(3) == 0 ? DECOYS[random.nextInt(DECOYS.length)] : (byte) random.nextInt(256);
            } while (b == '\n' || b == '\r');
            array[i] = b;
        }
    }

    /** Checks both searches against a byte loop, on a heap slice at a random array offset and on a direct buffer. */
    private static void assertSearchesAgree(byte[] array, int from, int to, Random random) {
        assertThat(lineEnd(array, from, to)).isEqualTo(reference(array, from, to, (byte) '\n', (byte) '\r'));
        assertThat(indexOf(array, from, to, (byte) '\n')).isEqualTo(reference(array, from, to, (byte) '\n', (byte) '\n'));
        // The same bytes as a slice whose index 0 is at an array offset, and as a direct buffer.
        int shift = random.nextInt(Math.max(1, from + 1));
        ByteBuf slice = Unpooled.wrappedBuffer(array).slice(shift, array.length - shift);
        assertThat(slice.hasArray()).isTrue();
        int expected = reference(array, from, to, (byte) '\n', (byte) '\r');
        assertThat(LineScanner.lineEnd(slice, from - shift, to - shift)).isEqualTo(expected < 0 ? -1 : expected - shift);
        ByteBuf direct = Unpooled.directBuffer(array.length);
        try {
            direct.writeBytes(array);
            assertThat(direct.hasArray()).isFalse();
            assertThat(LineScanner.lineEnd(direct, from, to)).isEqualTo(expected);
            assertThat(LineScanner.indexOf(direct, from, to, (byte) '\n'))
                    .isEqualTo(reference(array, from, to, (byte) '\n', (byte) '\n'));
        } finally {
            direct.release();
        }
    }

    private static int lineEnd(byte[] array, int from, int to) {
        return LineScanner.lineEnd(Unpooled.wrappedBuffer(array), from, to);
    }

    private static int indexOf(byte[] array, int from, int to, byte value) {
        return LineScanner.indexOf(Unpooled.wrappedBuffer(array), from, to, value);
    }

    private static int reference(byte[] array, int from, int to, byte a, byte b) {
        for (int i = from; i < to; i++) {
            if (array[i] == a || array[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
