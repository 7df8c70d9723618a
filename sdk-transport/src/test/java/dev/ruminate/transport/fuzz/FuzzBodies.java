package dev.ruminate.transport.fuzz;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.transport.wire.StreamFraming;
import dev.ruminate.transport.wire.WireLimits;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A fuzz input for a framing: a four-byte header that says how to cut the body into network buffers
 * and which limits to decode under, then the body.
 *
 * <p>Header: byte 0 picks the variant of the target (each target documents its own use); byte 1 is
 * the largest buffer, 1 to 64 bytes (0 for the whole body in one buffer); byte 2 seeds the buffer
 * sizes (a size of 0 gives an empty buffer now and then); byte 3 picks the limits: 0 for
 * {@link WireLimits#DEFAULT}, otherwise a line and event limit of 1 to 255 bytes. A seed file is the
 * header followed by the body, so a fixture excerpt is readable after four bytes.
 *
 * <p>The buffers are pooled direct buffers, allocated on demand and released as soon as
 * {@code onNext} returns, as Reactor Netty delivers a response: a decoder that read a buffer after
 * that reads freed memory, one that kept or released a reference fails the release check.
 */
final class FuzzBodies {

    static final int HEADER = 4;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ByteBufAllocator ALLOCATOR = PooledByteBufAllocator.DEFAULT;

    final int variant;
    final byte[] body;
    final List<byte[]> chunks;
    final WireLimits limits;

    private FuzzBodies(int variant, byte[] body, List<byte[]> chunks, WireLimits limits) {
        this.variant = variant;
        this.body = body;
        this.chunks = chunks;
        this.limits = limits;
    }

    static FuzzBodies of(byte[] data) {
        byte[] header = Arrays.copyOf(data, HEADER);
        byte[] body = data.length > HEADER ? Arrays.copyOfRange(data, HEADER, data.length) : new byte[0];
        int maxChunk = header[1] & 0x3f;
        int limit = header[3] & 0xff;
        WireLimits limits = limit == 0 ? WireLimits.DEFAULT : new WireLimits(limit, limit);
        return new FuzzBodies(header[0] & 0xff, body, split(body, maxChunk, header[2]), limits);
    }

    private static List<byte[]> split(byte[] body, int maxChunk, long seed) {
        if (maxChunk == 0) {
            return List.of(body);
        }
        Random random = new Random(seed);
        List<byte[]> chunks = new ArrayList<>();
        int position = 0;
        while (position < body.length) {
            int size = random.nextInt(maxChunk + 1);
            int end = Math.min(body.length, position + size);
            chunks.add(Arrays.copyOfRange(body, position, end));
            position = end;
        }
        return chunks;
    }

    /** Everything a decoded body produced: the frames, described, then how it ended. */
    record Outcome(List<String> frames, @Nullable String failure) {
    }

    /**
     * Decodes the body whole and cut into the header's buffers, checking that each either completes
     * or ends with the framing's typed errors, and that both give the same outcome.
     *
     * @return the outcome of the cut body
     */
    <F> Outcome decodeBothWays(StreamFraming<F> framing, Function<F, String> describe) {
        Outcome whole = decode(framing, released(List.of(body)), describe);
        Outcome cut = decode(framing, released(chunks), describe);
        if (!whole.equals(cut)) {
            throw new AssertionError("the outcome depends on the buffer splits:\nwhole: " + whole + "\ncut:   " + cut);
        }
        return cut;
    }

    private <F> Outcome decode(StreamFraming<F> framing, Flux<ByteBuf> buffers, Function<F, String> describe) {
        List<String> frames = new ArrayList<>();
        String[] failure = {null};
        framing.decode(buffers, limits)
                .doOnNext(frame -> frames.add(describe.apply(frame)))
                // the documented errors end the body; anything else propagates and is a finding
                .onErrorResume(ProtocolException.class, e -> {
                    failure[0] = "protocol " + e.reason() + " at line " + e.line() + ", offset " + e.byteOffset();
                    return Mono.empty();
                })
                .onErrorResume(IncompleteStreamException.class, e -> {
                    failure[0] = "incomplete";
                    return Mono.empty();
                })
                .blockLast(WAIT);
        return new Outcome(frames, failure[0]);
    }

    /** The chunks as Reactor Netty delivers them: allocated on demand, released when onNext returns. */
    private static Flux<ByteBuf> released(List<byte[]> chunks) {
        return Flux.generate(() -> 0, (index, sink) -> {
            if (index == chunks.size()) {
                sink.complete();
                return index;
            }
            byte[] chunk = chunks.get(index);
            ByteBuf buf = ALLOCATOR.directBuffer(Math.max(1, chunk.length)).writeBytes(chunk);
            try {
                sink.next(buf);
            } finally {
                // false: the decoder retained it; an IllegalReferenceCountException: it released it
                if (!buf.release()) {
                    throw new AssertionError("the decoder kept a reference to buffer " + index);
                }
            }
            return index + 1;
        });
    }

    /** Renders bytes one char per byte, so that two renderings are equal exactly when the bytes are. */
    static String latin1(byte[] bytes) {
        return new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
