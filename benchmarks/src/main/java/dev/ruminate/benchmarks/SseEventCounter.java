package dev.ruminate.benchmarks;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;

/**
 * Counts Server-Sent Events in a body as its buffers arrive, by their blank-line ends ({@code \n\n}: the emulator
 * and the gateway write LF line ends, and an event's data never holds a raw line break), however the body is cut.
 * This is all the benchmark client does with a body, so that the client costs about the same on every path.
 *
 * <p>Not thread-safe: one per stream, used from the stream's event loop.
 */
final class SseEventCounter implements ByteProcessor {

    private boolean afterLineEnd;
    private long events;

    /**
     * Counts the events that end in a buffer, without consuming it.
     *
     * @param buffer the next piece of the body
     * @return whether at least one event ended in it
     */
    boolean accept(ByteBuf buffer) {
        long before = events;
        buffer.forEachByte(this);
        return events > before;
    }

    /** Returns the events counted so far. */
    long events() {
        return events;
    }

    @Override
    public boolean process(byte value) {
        if (value == '\n') {
            if (afterLineEnd) {
                events++;
                afterLineEnd = false;
            } else {
                afterLineEnd = true;
            }
        } else {
            afterLineEnd = false;
        }
        return true;
    }
}
