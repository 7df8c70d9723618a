package dev.ruminate.transport.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import reactor.core.publisher.Flux;

/** Response bodies for decoder tests, split into buffers the way a test needs. */
final class Bodies {

    /**
     * Unpooled heap buffers: a released one refuses reads, and none is tracked by the leak
     * detector, whose per-access records would make long property runs slow.
     */
    static final ByteBufAllocator HEAP = new UnpooledByteBufAllocator(false);

    private Bodies() {
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Returns the body as one buffer per chunk, each an unpooled heap buffer wrapping the chunk's bytes. */
    static Flux<ByteBuf> of(String... chunks) {
        List<byte[]> bytes = new ArrayList<>();
        for (String chunk : chunks) {
            bytes.add(utf8(chunk));
        }
        return wrapped(bytes);
    }

    /** Returns the chunks as unpooled heap buffers, fresh ones for each subscription. */
    static Flux<ByteBuf> wrapped(List<byte[]> chunks) {
        return Flux.fromIterable(chunks).map(Unpooled::wrappedBuffer);
    }

    /**
     * Returns the chunks the way Reactor Netty delivers a response: a buffer from the allocator per
     * chunk, emitted only on demand and released as soon as {@code onNext} returns. A decoder that
     * kept a buffer to read later fails on its freed memory; a leak shows in the leak detector.
     */
    static Flux<ByteBuf> releasedAfterNext(ByteBufAllocator allocator, List<byte[]> chunks) {
        return Flux.generate(() -> 0, (index, sink) -> {
            if (index == chunks.size()) {
                sink.complete();
                return index;
            }
            byte[] chunk = chunks.get(index);
            ByteBuf buf = allocator.buffer(chunk.length).writeBytes(chunk);
            try {
                sink.next(buf);
            } finally {
                if (!buf.release()) {
                    sink.error(new AssertionError("the decoder kept a reference to buffer " + index));
                }
            }
            return index + 1;
        });
    }

    /** Splits the body into chunks of the given sizes, used in turn; a size of 0 yields an empty chunk. */
    static List<byte[]> split(byte[] body, List<Integer> sizes) {
        List<byte[]> chunks = new ArrayList<>();
        int position = 0;
        int turn = 0;
        int emptyInARow = 0;
        while (position < body.length) {
            int size = sizes.isEmpty() ? body.length : sizes.get(turn++ % sizes.size());
            if (size == 0) {
                // Some empty buffers are worth having; a list of only zeros must still progress.
                if (++emptyInARow <= sizes.size()) {
                    chunks.add(new byte[0]);
                    continue;
                }
                size = 1;
            }
            emptyInARow = 0;
            int end = Math.min(body.length, position + size);
            chunks.add(Arrays.copyOfRange(body, position, end));
            position = end;
        }
        return chunks;
    }

    /** Splits the body into one-byte chunks. */
    static List<byte[]> bytewise(byte[] body) {
        return split(body, List.of(1));
    }
}
