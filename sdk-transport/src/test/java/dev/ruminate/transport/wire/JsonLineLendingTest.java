package dev.ruminate.transport.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.transport.testing.Seeds;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A lending {@link JsonLineDecoder} against an owning one: over random bodies (blank and
 * whitespace-only lines, {@code \r\n} line ends, multi-byte text, long lines, no final line end) cut
 * at random (single bytes, up to 7 bytes, up to 1,460 bytes, whole) into heap buffers, heap slices
 * of larger arrays with a reader index past their start, direct buffers and read-only buffers, the
 * lent lines (read after the call that added them returns, before the next call) equal the owned
 * ones, and every buffer is released back to refCnt 0 (the framer keeps no reference). The
 * sdk-testkit's {@code NettyLeakCheck} depends on this module, so the releases are checked here
 * directly.
 */
class JsonLineLendingTest {

    /** Without the leak detector, whose paranoid level made single-byte pieces slow; releases are checked directly. */
    private static final ByteBufAllocator DIRECT = new UnpooledByteBufAllocator(true, true);

    /** How a network read hands over its bytes. */
    enum Kind { HEAP, HEAP_SLICE, DIRECT, READ_ONLY }

    static LongStream seeds() {
        return Seeds.of(100);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void lentLinesEqualOwnedLinesAtEveryCutting(long seed) {
        Random random = Seeds.random(seed);
        byte[] body = body(random);
        // single bytes over a short body; a body with a line past the scratch arrays' retained size in 1-3 bytes
        int[] maxPieces = {body.length < 4_000 ? 1 : 7, 7, 1460, Integer.MAX_VALUE};
        for (int max : maxPieces) {
            for (Kind kind : Kind.values()) {
                List<byte[]> pieces = cut(body, new Random(random.nextLong()), max);
                String what = "seed " + seed + ", pieces up to " + max + ", " + kind;
                assertThat(decode(pieces, kind, true)).as(what).isEqualTo(decode(pieces, Kind.HEAP, false));
            }
        }
    }

    @Test
    void aLineInsideAHeapBufferIsAViewOfItsArray() {
        byte[] array = "xx{\"a\":1}\n{\"b\"".getBytes(StandardCharsets.UTF_8);
        ByteBuf buf = Unpooled.wrappedBuffer(array).readerIndex(2);
        JsonLineDecoder framer = new JsonLineDecoder(WireLimits.DEFAULT, true);
        List<JsonLine> out = new ArrayList<>();
        framer.feed(buf, out);
        assertThat(out).hasSize(1);
        JsonLine line = out.get(0);
        assertThat(line.isLent()).isTrue();
        assertThat(line.array()).isSameAs(array);
        assertThat(line.offset()).isEqualTo(2);
        assertThat(line.length()).isEqualTo(7);
        assertThat(line.bytes()).isNotSameAs(array).containsExactly("{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        JsonLine owned = line.owned();
        assertThat(owned.isLent()).isFalse();
        assertThat(owned.bytes()).isSameAs(owned.array()).isEqualTo(line.bytes());
        assertThat(owned.line()).isEqualTo(1);

        out.clear();
        framer.feed(Unpooled.wrappedBuffer(":2}\n".getBytes(StandardCharsets.UTF_8)), out);
        assertThat(out).extracting(JsonLine::asString, JsonLine::line, JsonLine::byteOffset)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("{\"b\":2}", 2L, 8L));
        assertThat(out.get(0).array()).isNotSameAs(array);
    }

    @Test
    void theOwningDecoderStillOwnsItsLines() {
        JsonLineDecoder framer = new JsonLineDecoder(WireLimits.DEFAULT);
        List<JsonLine> out = new ArrayList<>();
        framer.feed(Unpooled.wrappedBuffer("{\"a\":1}\n".getBytes(StandardCharsets.UTF_8)), out);
        assertThat(out.get(0).isLent()).isFalse();
        assertThat(out.get(0).owned()).isSameAs(out.get(0));
        assertThat(out.get(0).bytes()).isSameAs(out.get(0).array());
    }

    @Test
    void aDirectBufferIsCopiedIntoOneReusedArray() {
        JsonLineDecoder framer = new JsonLineDecoder(WireLimits.DEFAULT, true);
        List<JsonLine> first = new ArrayList<>();
        List<JsonLine> second = new ArrayList<>();
        ByteBuf a = DIRECT.buffer().writeBytes("{\"a\":1}\n{\"b\":2}\n".getBytes(StandardCharsets.UTF_8));
        ByteBuf b = DIRECT.buffer().writeBytes("{\"c\":3}\n".getBytes(StandardCharsets.UTF_8));
        try {
            framer.feed(a, first);
            assertThat(first).extracting(JsonLine::asString).containsExactly("{\"a\":1}", "{\"b\":2}");
            assertThat(first.get(1).array()).isSameAs(first.get(0).array());
            framer.feed(b, second);
            assertThat(second).extracting(JsonLine::asString).containsExactly("{\"c\":3}");
            assertThat(second.get(0).array()).isSameAs(first.get(0).array());
        } finally {
            assertThat(a.release()).isTrue();
            assertThat(b.release()).isTrue();
        }
    }

    /** Feeds the pieces, snapshotting each call's lines after it returns and before the next call. */
    private static List<JsonLineValue> decode(List<byte[]> pieces, Kind kind, boolean lend) {
        JsonLineDecoder framer = new JsonLineDecoder(WireLimits.DEFAULT, lend);
        List<JsonLineValue> lines = new ArrayList<>();
        List<JsonLine> out = new ArrayList<>();
        for (byte[] piece : pieces) {
            ByteBuf buf = buffer(kind, piece);
            try {
                framer.feed(buf, out);
                snapshot(out, lend, lines);
            } finally {
                // plain checks: assertions per piece would dominate the run at single-byte pieces
                ByteBuf released = buf.unwrap() == null ? buf : buf.unwrap();
                if (!buf.release() || released.refCnt() != 0) {
                    throw new AssertionError("the framer kept a reference to a buffer");
                }
            }
        }
        framer.finish(out);
        snapshot(out, lend, lines);
        return lines;
    }

    private static void snapshot(List<JsonLine> out, boolean lend, List<JsonLineValue> into) {
        for (JsonLine line : out) {
            if (line.isLent() != lend) {
                throw new AssertionError("lent: " + line.isLent() + ", expected " + lend);
            }
            into.add(JsonLineValue.of(line));
        }
        out.clear();
    }

    private static ByteBuf buffer(Kind kind, byte[] piece) {
        return switch (kind) {
            case HEAP -> Unpooled.wrappedBuffer(piece.clone());
            case HEAP_SLICE -> {
                // the piece in the middle of a larger array, the reader index past a prefix: offsets must add up
                byte[] array = new byte[piece.length + 13];
                java.util.Arrays.fill(array, (byte) '\n');
                System.arraycopy(piece, 0, array, 5, piece.length);
                yield Unpooled.wrappedBuffer(array, 2, piece.length + 6).setIndex(3, 3 + piece.length);
            }
            case DIRECT -> DIRECT.buffer(piece.length).writeBytes(piece);
            case READ_ONLY -> Unpooled.wrappedBuffer(piece.clone()).asReadOnly();
        };
    }

    private static byte[] body(Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int lines = 1 + random.nextInt(25);
        for (int i = 0; i < lines; i++) {
            int roll = random.nextInt(12);
            if (roll == 0) {
                out.writeBytes(pick(random, "", " ", "\t", " \r", "\r").getBytes(StandardCharsets.UTF_8)); // blank
            } else {
                StringBuilder line = new StringBuilder("{\"v\":\"");
                int length = roll == 1 && random.nextInt(4) == 0 ? 16_000 + random.nextInt(4_000) : random.nextInt(200);
                for (int k = 0; k < length; k++) {
                    line.append(random.nextInt(10) == 0 ? pick(random, "é", "中", "😀", "\\n", " ") : (char) ('a' + random.nextInt(26)));
                }
                out.writeBytes(line.append("\"}").toString().getBytes(StandardCharsets.UTF_8));
            }
            if (i < lines - 1 || random.nextBoolean()) {
                out.writeBytes((random.nextInt(4) == 0 ? "\r\n" : "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        return out.toByteArray();
    }

    private static List<byte[]> cut(byte[] body, Random random, int max) {
        List<byte[]> pieces = new ArrayList<>();
        int offset = 0;
        while (offset < body.length) {
            int size = max == Integer.MAX_VALUE ? body.length : Math.min(body.length - offset, 1 + random.nextInt(max));
            pieces.add(java.util.Arrays.copyOfRange(body, offset, offset + size));
            offset += size;
        }
        return pieces;
    }

    private static String pick(Random random, String... options) {
        return options[random.nextInt(options.length)];
    }
}
