package dev.ruminate.transport.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A lending {@link EventStreamFramer} against an owning one: over the recorded Bedrock body and every
 * published vector (positive alone and all together, negative ones), at every cutting (whole, single
 * bytes, random pieces of up to 7 and of up to 1460 bytes, the mixed sizes of the other tests), the
 * lent messages, copied while they are valid (in the call that delivered them), equal the owned ones,
 * and a failure is the same error after the same messages. The buffers are pooled direct ones (no
 * backing array, as Reactor Netty reads) or heap ones, each released right after its call: the
 * framer must neither keep nor release them (a kept reference shows as a reference count above one,
 * a release as a failed release here). A lending framer reuses its array: the whole recording is lent
 * from a handful of arrays, not one per message.
 */
class LentEventStreamFramerTest {

    private static final String RECORDING = "/fixtures/bedrock/pydantic-bedrock-claude-redacted-reasoning-stream.eventstream";
    private static final List<String> POSITIVE = List.of("all_headers", "empty_message", "int32_header",
            "payload_no_headers", "payload_one_str_header");
    private static final List<String> NEGATIVE = List.of("corrupted_header_len", "corrupted_headers",
            "corrupted_length", "corrupted_payload");

    private static byte[] resource(String path) {
        try (InputStream in = LentEventStreamFramerTest.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Stream<String> bodies() {
        List<String> names = new ArrayList<>();
        names.add("recording");
        names.add("all positive vectors and the recording");
        POSITIVE.forEach(n -> names.add("positive/" + n));
        NEGATIVE.forEach(n -> names.add("negative/" + n));
        names.add("recording then negative/corrupted_payload");
        return names.stream();
    }

    private static byte[] body(String name) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        switch (name) {
            case "recording" -> out.writeBytes(resource(RECORDING));
            case "all positive vectors and the recording" -> {
                POSITIVE.forEach(n -> out.writeBytes(resource("/vectors/eventstream/encoded/positive/" + n)));
                out.writeBytes(resource(RECORDING));
            }
            case "recording then negative/corrupted_payload" -> {
                out.writeBytes(resource(RECORDING));
                out.writeBytes(resource("/vectors/eventstream/encoded/negative/corrupted_payload"));
            }
            default -> out.writeBytes(resource("/vectors/eventstream/encoded/" + name));
        }
        return out.toByteArray();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bodies")
    void lentMessagesEqualOwnedOnesAtEveryCutting(String name) {
        byte[] body = body(name);
        Random random = new Random(name.hashCode());
        List<List<byte[]>> cuttings = new ArrayList<>();
        cuttings.add(List.of(body));
        cuttings.add(Bodies.bytewise(body));
        for (int i = 0; i < 5; i++) {
            cuttings.add(Bodies.split(body, randomSizes(random, 7)));
            cuttings.add(Bodies.split(body, randomSizes(random, 1460)));
            cuttings.add(Bodies.split(body, Texts.bufferSizes(random)));
        }
        Run reference = run(List.of(body), false, Bodies.HEAP);
        assertThat(reference.messages.isEmpty() && reference.error == null).as("the body decodes into messages or fails").isFalse();
        for (List<byte[]> chunks : cuttings) {
            for (ByteBufAllocator allocator : List.of(Bodies.HEAP, PooledByteBufAllocator.DEFAULT)) {
                Run owned = run(chunks, false, allocator);
                Run lent = run(chunks, true, allocator);
                assertThat(owned.messages).as("%s owned, %d pieces", name, chunks.size()).isEqualTo(reference.messages);
                assertThat(lent.messages).as("%s lent, %d pieces", name, chunks.size()).isEqualTo(reference.messages);
                assertThat(lent.error).isEqualTo(owned.error).isEqualTo(reference.error);
            }
        }
    }

    @ParameterizedTest(name = "piece {0}")
    @MethodSource("pieces")
    void aLendingFramerLendsFromAFewReusedArrays(int piece) {
        byte[] body = resource(RECORDING);
        Run lent = run(Bodies.split(body, List.of(piece)), true, PooledByteBufAllocator.DEFAULT);
        assertThat(lent.messages).hasSizeGreaterThan(10);
        assertThat(lent.allLent).isTrue();
        // the array grows (doubling) to the largest frame plus a piece, and never per message
        assertThat(lent.arrays.size()).isLessThanOrEqualTo(8);
    }

    static Stream<Integer> pieces() {
        return Stream.of(1, 7, 1460, 16384);
    }

    private static List<Integer> randomSizes(Random random, int max) {
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            sizes.add(1 + random.nextInt(max));
        }
        return sizes;
    }

    /** The messages (owned copies, taken in the call that delivered them) and the error of one run. */
    private static final class Run {
        final List<EventStreamMessage> messages = new ArrayList<>();
        final Set<byte[]> arrays = Collections.newSetFromMap(new IdentityHashMap<>());
        boolean allLent = true;
        @Nullable String error;
    }

    private static Run run(List<byte[]> chunks, boolean lend, ByteBufAllocator allocator) {
        EventStreamFramer framer = new EventStreamFramer(WireLimits.DEFAULT, lend);
        Run run = new Run();
        List<EventStreamMessage> out = new ArrayList<>();
        try {
            for (byte[] chunk : chunks) {
                ByteBuf buf = allocator.buffer(chunk.length).writeBytes(chunk);
                try {
                    framer.feed(buf, out);
                    assertThat(buf.refCnt()).as("the framer keeps or releases no buffer").isEqualTo(1);
                } finally {
                    collect(out, run);
                    assertThat(buf.release()).as("the buffer is released by its owner only").isTrue();
                }
            }
            framer.finish(out);
            collect(out, run);
        } catch (ProtocolException e) {
            collect(out, run);
            run.error = e.reason() + ": " + e.getMessage();
        }
        return run;
    }

    /** Copies what the call delivered while it is valid, checking that the range and its copy agree. */
    private static void collect(List<EventStreamMessage> out, Run run) {
        for (EventStreamMessage m : out) {
            EventStreamMessage owned = m.owned();
            assertThat(owned.payload()).hasSize(m.payloadLength());
            assertThat(owned).isEqualTo(m);
            run.allLent &= owned != m && owned.payload() != m.payloadArray();
            run.arrays.add(m.payloadArray());
            run.messages.add(owned);
        }
        out.clear();
    }
}
