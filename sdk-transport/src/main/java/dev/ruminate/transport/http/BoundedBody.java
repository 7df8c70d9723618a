package dev.ruminate.transport.http;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Copies response buffers into one array, up to a limit; what lies beyond it is counted as an
 * overflow and dropped. Buffers are copied during {@code onNext}, so none is retained.
 */
final class BoundedBody {

    private final int limit;
    private byte[] bytes;
    private int size;
    private boolean overflowed;

    BoundedBody(int limit) {
        this.limit = limit;
        this.bytes = new byte[Math.min(limit, 1024)];
    }

    void append(ByteBuf buffer) {
        int available = buffer.readableBytes();
        int take = Math.min(available, limit - size);
        if (take < available) {
            overflowed = true;
        }
        if (take <= 0) {
            return;
        }
        if (size + take > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.min(limit, Math.max(size + take, bytes.length * 2)));
        }
        buffer.getBytes(buffer.readerIndex(), bytes, size, take);
        size += take;
    }

    boolean full() {
        return size >= limit;
    }

    boolean overflowed() {
        return overflowed;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }
}
