package dev.ruminate.benchmarks;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Cuts a body into {@code ByteBuf}s of one size, as socket reads deliver it. Ruminate's framers read buffers without
 * moving their indices or releasing them, so one set serves every operation. Plain heap slices, not read-only
 * wrappers: a read-only wrapper hides the backing array, which sends Netty's {@code indexOf} down a per-byte slow
 * path that the pooled buffers Reactor Netty delivers never take.
 */
final class Pieces {

    private Pieces() {
    }

    static ByteBuf[] cut(byte[] body, int size) {
        int n = (body.length + size - 1) / size;
        ByteBuf[] out = new ByteBuf[n];
        for (int i = 0; i < n; i++) {
            int from = i * size;
            out[i] = Unpooled.wrappedBuffer(body, from, Math.min(size, body.length - from));
        }
        return out;
    }
}
