package dev.ruminate.benchmarks;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Cuts a body into read-only {@code ByteBuf}s of one size, as socket reads deliver it. Ruminate's framers read
 * buffers without moving their indices or releasing them, so one set serves every operation.
 */
final class Pieces {

    private Pieces() {
    }

    static ByteBuf[] cut(byte[] body, int size) {
        int n = (body.length + size - 1) / size;
        ByteBuf[] out = new ByteBuf[n];
        for (int i = 0; i < n; i++) {
            int from = i * size;
            out[i] = Unpooled.wrappedBuffer(body, from, Math.min(size, body.length - from)).asReadOnly();
        }
        return out;
    }
}
