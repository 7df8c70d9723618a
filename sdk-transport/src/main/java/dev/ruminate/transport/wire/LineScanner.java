package dev.ruminate.transport.wire;

import dev.ruminate.core.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ByteProcessor;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Splits a body that arrives as a sequence of buffers into lines, numbering them and tracking
 * where each starts, whatever the split points between the buffers.
 *
 * <p>A line that lies wholly inside one buffer is handed to the sink as a slice of that buffer,
 * without copying; only a line that straddles buffers is copied, into one growable array that is
 * reused from line to line. Buffers are read with absolute getters: their indexes and reference
 * counts are left alone.
 *
 * <p>Not thread-safe: one instance serves one subscription, whose signals are serial.
 */
final class LineScanner {

    /** Receives each complete line, line end excluded. */
    @FunctionalInterface
    interface LineSink {

        /**
         * Handles one line; the bytes are valid only during the call.
         *
         * @param src the buffer holding the line
         * @param index where the line starts in {@code src}
         * @param length the line's length, line end excluded
         * @param line the 1-based line number
         * @param byteOffset the 0-based body offset of the line's first byte
         */
        void line(ByteBuf src, int index, int length, long line, long byteOffset);
    }

    /** Which bytes end a line. */
    enum LineEnds {
        /** {@code \n}, {@code \r\n} and a lone {@code \r}, as in Server-Sent Events. */
        CR_LF_OR_CR,
        /** {@code \n}, with a {@code \r} right before it stripped, as in newline-delimited JSON. */
        LF
    }

    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final byte[] EMPTY = new byte[0];
    private static final int MIN_CAPACITY = 256;
    /**
     * The largest scratch array kept after use. A bigger one, grown for an exceptional line, is
     * dropped so that it does not stay pinned for the rest of a long-lived stream.
     */
    static final int RETAINED_CAPACITY = 16 * 1024;
    /** A search result: no such byte in the rest of the buffer. */
    private static final int NONE = -1;
    /** Reads 8 bytes of an array as one long, the first byte lowest, whatever the platform's order. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long CRS = 0x0d0d0d0d0d0d0d0dL;
    private static final long LFS = 0x0a0a0a0a0a0a0a0aL;
    /** Not searched yet; below every index, so the first use searches. */

    private final LineEnds lineEnds;
    private final int maxLineBytes;
    private final LineSink sink;

    /** Body bytes consumed before the current buffer. */
    private long consumed;
    /** Number of the next line to start. */
    private long nextLine = 1;
    /** A {@code \r} ended the last line, so a {@code \n} right after it belongs to that line end. */
    private boolean skipLf;

    /** The start of a line that straddles buffers; reused from line to line. */
    private byte[] partial = EMPTY;
    private ByteBuf partialView = Unpooled.EMPTY_BUFFER;
    private int partialLength;
    private long partialLine;
    private long partialOffset;

    LineScanner(LineEnds lineEnds, int maxLineBytes, LineSink sink) {
        this.lineEnds = lineEnds;
        this.maxLineBytes = maxLineBytes;
        this.sink = sink;
    }

    /**
     * Hands every line that the buffer completes to the sink and keeps the unfinished rest.
     *
     * @param buf the next buffer of the body; read, never retained, released or moved
     * @throws ProtocolException when a line grows past the limit
     */
    void feed(ByteBuf buf) {
        int start = buf.readerIndex();
        int end = buf.writerIndex();
        long base = consumed - start;
        int i = start;
        if (skipLf && i < end) {
            skipLf = false;
            if (buf.getByte(i) == LF) {
                i++;
            }
        }
        // One pass finds the nearer of the two line ends, so every byte is looked at once: searching for each
        // kind separately scanned a buffer twice, and would be quadratic if re-run per line.
        while (i < end) {
            int eol = lineEnds == LineEnds.LF ? indexOf(buf, i, end, LF) : lineEnd(buf, i, end);
            if (eol == NONE) {
                break;
            }
            completeLine(buf, i, eol, base + i);
            i = eol + 1;
            if (buf.getByte(eol) == CR) {
                if (i < end) {
                    if (buf.getByte(i) == LF) {
                        i++;
                    }
                } else {
                    skipLf = true;
                }
            }
        }
        if (i < end) {
            if (partialLength == 0) {
                partialLine = nextLine;
                partialOffset = base + i;
            }
            appendPartial(buf, i, end - i);
        }
        consumed += end - start;
    }

    /**
     * Returns the index of the first {@code value} in {@code [from, to)}, or -1: {@code ByteBuf.indexOf} with a
     * loop over the backing array, 8 bytes at a time, when there is one (lines are short; Netty's checks per call
     * dominate).
     */
    static int indexOf(ByteBuf buf, int from, int to, byte value) {
        if (!buf.hasArray()) {
            return buf.indexOf(from, to, value);
        }
        byte[] array = buf.array();
        int offset = buf.arrayOffset();
        long pattern = (value & 0xffL) * ONES;
        int k = from + offset;
        int last = to + offset;
        // 8 bytes per step: a byte equal to value is a zero byte of the word XOR the pattern.
        for (; last - k >= Long.BYTES; k += Long.BYTES) {
            long hits = zeroBytes((long) LONGS.get(array, k) ^ pattern);
            if (hits != 0) {
                return k + (Long.numberOfTrailingZeros(hits) >>> 3) - offset;
            }
        }
        for (; k < last; k++) {
            if (array[k] == value) {
                return k - offset;
            }
        }
        return NONE;
    }

    /** Returns the index of the first CR or LF in {@code [from, to)}, or {@link #NONE}. */
    static int lineEnd(ByteBuf buf, int from, int to) {
        if (buf.hasArray()) {
            // A loop over the backing array, 8 bytes at a time, then the tail byte by byte: Netty's indexOf and
            // forEachByte check bounds per call or byte.
            byte[] array = buf.array();
            int offset = buf.arrayOffset();
            int k = from + offset;
            int last = to + offset;
            for (; last - k >= Long.BYTES; k += Long.BYTES) {
                long word = (long) LONGS.get(array, k);
                long hits = zeroBytes(word ^ LFS) | zeroBytes(word ^ CRS);
                if (hits != 0) {
                    return k + (Long.numberOfTrailingZeros(hits) >>> 3) - offset;
                }
            }
            for (; k < last; k++) {
                byte b = array[k];
                if (b == LF || b == CR) {
                    return k - offset;
                }
            }
            return NONE;
        }
        return buf.forEachByte(from, to - from, ByteProcessor.FIND_CRLF);
    }

    /**
     * Marks the zero bytes of {@code word} with their high bit (the classic has-zero-byte trick). The lowest mark is
     * exact: a borrow only comes out of a zero byte, so marks can be wrong only above a true one, and callers take
     * the lowest (the first byte in memory, the words being little-endian).
     */
    private static long zeroBytes(long word) {
        return (word - ONES) & ~word & HIGHS;
    }

    /**
     * Hands the unfinished last line, if any, to the sink, as if the body had ended with a line end.
     *
     * @throws ProtocolException when the line is over the limit
     */
    void finish() {
        if (partialLength > 0) {
            deliverPartial();
        }
    }

    /**
     * Returns how many bytes of an unfinished line are held.
     *
     * @return the length, 0 when the body is at a line boundary
     */
    int partialLength() {
        return partialLength;
    }

    /**
     * Returns the unfinished line held so far, valid until the next call.
     *
     * @return a view of {@link #partialLength()} bytes from index 0
     */
    ByteBuf partialView() {
        return partialView;
    }

    /**
     * Tells whether the line being delivered from {@link #partialView()} is in a scratch array the
     * scanner drops after this delivery (one grown past {@link #RETAINED_CAPACITY}): nothing writes
     * that array again, so the sink may keep the line's bytes where they are instead of copying them.
     * Meaningful only inside the sink's call for such a line.
     *
     * @return true when the scratch array is handed over with the line
     */
    boolean handsOverPartial() {
        return partial.length > RETAINED_CAPACITY;
    }

    /**
     * Returns the number of the unfinished line.
     *
     * @return the 1-based line
     */
    long partialLine() {
        return partialLine;
    }

    /**
     * Returns where the unfinished line starts.
     *
     * @return the 0-based body offset
     */
    long partialOffset() {
        return partialOffset;
    }

    private void completeLine(ByteBuf buf, int from, int eol, long offset) {
        if (partialLength > 0) {
            appendPartial(buf, from, eol - from);
            deliverPartial();
        } else {
            int length = contentLength(buf, from, eol - from);
            checkLength(length, nextLine, offset);
            sink.line(buf, from, length, nextLine++, offset);
        }
    }

    private void deliverPartial() {
        int length = contentLength(partialView, 0, partialLength);
        checkLength(length, partialLine, partialOffset);
        partialLength = 0;
        sink.line(partialView, 0, length, partialLine, partialOffset);
        nextLine++;
        if (partial.length > RETAINED_CAPACITY) {
            partial = EMPTY;
            partialView = Unpooled.EMPTY_BUFFER;
        }
    }

    /** Strips the {@code \r} of a {@code \r\n} pair in LF mode; in the other mode it never occurs here. */
    private int contentLength(ByteBuf buf, int from, int length) {
        if (lineEnds == LineEnds.LF && length > 0 && buf.getByte(from + length - 1) == CR) {
            return length - 1;
        }
        return length;
    }

    private void appendPartial(ByteBuf buf, int from, int length) {
        int needed = partialLength + length;
        // In LF mode the held bytes may end with the \r of a \r\n still to come.
        int allowed = lineEnds == LineEnds.LF ? maxLineBytes + 1 : maxLineBytes;
        if (needed > allowed || needed < 0) {
            throw tooLong(partialLine, partialOffset);
        }
        if (needed > partial.length) {
            int capacity = Math.max(needed, Math.max(MIN_CAPACITY, partial.length * 2));
            partial = Arrays.copyOf(partial, Math.min(capacity, allowed));
            partialView = Unpooled.wrappedBuffer(partial);
        }
        buf.getBytes(from, partial, partialLength, length);
        partialLength = needed;
    }

    private void checkLength(int length, long line, long offset) {
        if (length > maxLineBytes) {
            throw tooLong(line, offset);
        }
    }

    private ProtocolException tooLong(long line, long offset) {
        return new ProtocolException(
                ProtocolException.Reason.LINE_TOO_LONG,
                "line longer than the limit of " + maxLineBytes + " bytes",
                line,
                offset,
                null);
    }
}
