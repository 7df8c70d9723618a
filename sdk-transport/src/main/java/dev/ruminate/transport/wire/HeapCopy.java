package dev.ruminate.transport.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * A lending decoder's copy of a buffer whose bytes have no reachable backing array (a direct
 * one): copied once per read, whole, into a reused heap array, so that the lines and events in it
 * can be lent as views of that array like those of a heap buffer.
 *
 * <p>An array grown past {@link LineScanner#RETAINED_CAPACITY} by an exceptional read is dropped
 * by {@link #dropIfLarge()}, so that it does not stay pinned for the rest of a long-lived stream.
 *
 * <p>One per decoder; not thread-safe.
 */
final class HeapCopy {

    private static final byte[] EMPTY = new byte[0];

    private byte[] array = EMPTY;
    private ByteBuf view = Unpooled.EMPTY_BUFFER;

    /**
     * Copies the buffer's readable bytes, leaving the buffer as it was.
     *
     * @param buf the buffer read
     * @return a heap view of the copy from index 0, valid until the next call to this object
     */
    ByteBuf of(ByteBuf buf) {
        int length = buf.readableBytes();
        if (array.length < length) {
            array = new byte[Math.max(length, Math.min(2 * array.length, LineScanner.RETAINED_CAPACITY))];
            view = Unpooled.wrappedBuffer(array);
        }
        buf.getBytes(buf.readerIndex(), array, 0, length);
        return view.setIndex(0, length);
    }

    /** Drops the array if an exceptional read grew it past the retained size; call once no view of it is in use. */
    void dropIfLarge() {
        if (array.length > LineScanner.RETAINED_CAPACITY) {
            array = EMPTY;
            view = Unpooled.EMPTY_BUFFER;
        }
    }
}
