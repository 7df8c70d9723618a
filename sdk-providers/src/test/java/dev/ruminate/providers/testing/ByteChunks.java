package dev.ruminate.providers.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import reactor.core.publisher.Flux;

/**
 * Cuts a body into the buffers a network might deliver, for decoders that read {@code Flux<ByteBuf>}
 * (NDJSON, SSE, event streams) without HTTP. The buffers wrap copies of the bytes on the heap, so
 * nothing needs releasing.
 */
public final class ByteChunks {

    private ByteChunks() {
    }

    /** Returns the body as one buffer. */
    public static Flux<ByteBuf> whole(byte[] body) {
        return Flux.defer(() -> Flux.just(Unpooled.wrappedBuffer(body.clone())));
    }

    /**
     * Returns the body cut at random places into buffers of 1 to {@code maxSize} bytes; the same
     * random state gives the same cuts.
     */
    public static Flux<ByteBuf> random(byte[] body, Random random, int maxSize) {
        List<byte[]> pieces = new ArrayList<>();
        int offset = 0;
        while (offset < body.length) {
            int size = Math.min(body.length - offset, 1 + random.nextInt(Math.max(1, maxSize)));
            byte[] piece = new byte[size];
            System.arraycopy(body, offset, piece, 0, size);
            pieces.add(piece);
            offset += size;
        }
        return Flux.defer(() -> Flux.fromIterable(pieces).map(Unpooled::wrappedBuffer));
    }
}
