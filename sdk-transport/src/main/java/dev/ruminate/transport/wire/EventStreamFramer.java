package dev.ruminate.transport.wire;

import dev.ruminate.core.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.zip.CRC32;

/**
 * Cuts an AWS event-stream body into messages, verifying both checksums of each.
 *
 * <p>A frame is {@code total_length(4) headers_length(4) prelude_crc(4) headers payload
 * message_crc(4)}, big-endian, with CRC-32 (IEEE) over the first 8 bytes and over everything before
 * the message CRC. Bytes are copied out of each network buffer into one reused array, so a frame
 * may be split anywhere; a frame is decoded once all of it has arrived. The prelude is checked as
 * soon as its 12 bytes are there, so a corrupted length fails at once instead of waiting for a frame
 * that will never come, and a frame larger than the limit is refused before it is buffered.
 *
 * <p>Headers repeat from message to message (a Bedrock stream has a handful of distinct header
 * blocks: {@code :event-type}, {@code :content-type}, {@code :message-type}), so each header block
 * is looked up by its bytes in a small cache of the blocks decoded before, and a hit reuses their
 * immutable header list instead of decoding new strings. A block with a {@code BYTES} header (whose
 * value, a {@code ByteBuffer}, has a position) is never shared.
 *
 * <p><b>Lending.</b> An owning framer (the default) copies each payload into the message's own
 * array. A lending framer does not: each message it adds to {@code out} during {@link #feed} is
 * {@linkplain EventStreamMessage#lent lent}, its payload a range of this framer's reused array, valid
 * until this framer's next call ({@code feed}, {@code finish}, {@code abort}); the array is only
 * compacted (moved or replaced) at the start of that next call.
 *
 * <p>One instance per body; not thread-safe.
 */
final class EventStreamFramer implements Framing.Framer<EventStreamMessage> {

    /** Prelude (12 bytes) plus the message CRC (4 bytes). */
    static final int MIN_FRAME = 16;
    private static final int PRELUDE = 12;
    /** Header blocks longer than this are decoded every time, not cached. */
    private static final int MAX_CACHED_BLOCK = 256;
    /** Slots of the header-block cache, a power of two. */
    private static final int CACHE_SLOTS = 16;

    private final int maxFrameBytes;
    private final boolean lend;
    private byte[] pending = new byte[256];
    /** First byte of {@code pending} not yet delivered; the bytes before it may still be lent until the next call. */
    private int start;
    /** End of the bytes buffered in {@code pending}. */
    private int length;
    /** Body offset of {@code pending[start]}. */
    private long offset;
    /** The checked total length of the frame at {@code pending[start]}, or -1 before its prelude is checked. */
    private int frameLength = -1;
    private final CRC32 crc = new CRC32();
    /** Header-block cache: the block bytes per slot, and the immutable headers they decoded to. */
    private final byte[][] cachedBlocks = new byte[CACHE_SLOTS][];
    private final List<?>[] cachedHeaders = new List<?>[CACHE_SLOTS];
    /** Collects one message's headers before they are made immutable; reused. */
    private final List<EventStreamHeader> scratchHeaders = new ArrayList<>(4);

    /**
     * Creates an owning framer: every message owns a copy of its payload.
     *
     * @param limits the largest frame accepted
     */
    EventStreamFramer(WireLimits limits) {
        this(limits, false);
    }

    /**
     * Creates a framer.
     *
     * @param limits the largest frame accepted
     * @param lend true to lend the messages added during {@link #feed} (valid until the next call),
     *     false to copy each payload
     */
    EventStreamFramer(WireLimits limits, boolean lend) {
        this.maxFrameBytes = limits.maxEventBytes();
        this.lend = lend;
    }

    @Override
    public void feed(ByteBuf buf, List<EventStreamMessage> out) {
        compact();
        int readable = buf.readableBytes();
        ensureCapacity(length + readable);
        buf.getBytes(buf.readerIndex(), pending, length, readable);
        length += readable;
        drain(out);
    }

    /**
     * Moves the undelivered bytes to the front, once per call rather than once per frame; only here, at the start
     * of a call, since the messages lent by the previous call point into the delivered bytes until then.
     */
    private void compact() {
        if (start > 0) {
            length -= start;
            System.arraycopy(pending, start, pending, 0, length);
            start = 0;
        }
        if (pending.length > 4096 && length < 256) {
            // Do not keep a 16 MiB array alive for a stream of small frames after one large one.
            pending = Arrays.copyOf(pending, 256);
        }
    }

    private void drain(List<EventStreamMessage> out) {
        while (true) {
            int available = length - start;
            if (frameLength < 0) {
                if (available < PRELUDE) {
                    return;
                }
                frameLength = checkPrelude(start);
            }
            if (available < frameLength) {
                return;
            }
            out.add(decodeFrame(start, frameLength));
            start += frameLength;
            offset += frameLength;
            frameLength = -1;
        }
    }

    private int checkPrelude(int base) {
        long total = readUint32(base);
        long headers = readUint32(base + 4);
        crc.reset();
        crc.update(pending, base, 8);
        if (crc.getValue() != readUint32(base + 8)) {
            throw error(ProtocolException.Reason.CHECKSUM_MISMATCH, "prelude checksum mismatch");
        }
        if (total < MIN_FRAME || headers > total - MIN_FRAME) {
            throw error(ProtocolException.Reason.MALFORMED_FRAME,
                    "impossible frame lengths: total " + total + ", headers " + headers);
        }
        if (total > maxFrameBytes) {
            throw error(ProtocolException.Reason.LINE_TOO_LONG,
                    "frame of " + total + " bytes exceeds the limit of " + maxFrameBytes);
        }
        return (int) total;
    }

    private EventStreamMessage decodeFrame(int base, int total) {
        int end = base + total;
        crc.reset();
        crc.update(pending, base, total - 4);
        if (crc.getValue() != readUint32(end - 4)) {
            throw error(ProtocolException.Reason.CHECKSUM_MISMATCH, "message checksum mismatch");
        }
        int headersStart = base + PRELUDE;
        int headersEnd = headersStart + (int) readUint32(base + 4);
        List<EventStreamHeader> headers = headers(headersStart, headersEnd);
        int payloadLength = end - 4 - headersEnd;
        return lend ? EventStreamMessage.lent(headers, pending, headersEnd, payloadLength, offset)
                : new EventStreamMessage(headers, Arrays.copyOfRange(pending, headersEnd, end - 4), offset);
    }

    /** Returns the immutable headers of the block {@code [from, to)}, from the cache when the same bytes came before. */
    @SuppressWarnings("unchecked") // the cache holds only header lists
    private List<EventStreamHeader> headers(int from, int to) {
        int size = to - from;
        if (size == 0) {
            return List.of();
        }
        int slot = -1;
        if (size <= MAX_CACHED_BLOCK) {
            int hash = 1;
            for (int i = from; i < to; i++) {
                hash = 31 * hash + pending[i];
            }
            slot = (hash ^ (hash >>> 16)) & (CACHE_SLOTS - 1);
            byte[] cached = cachedBlocks[slot];
            if (cached != null && Arrays.equals(cached, 0, cached.length, pending, from, to)) {
                return (List<EventStreamHeader>) cachedHeaders[slot];
            }
        }
        List<EventStreamHeader> scratch = scratchHeaders;
        scratch.clear();
        boolean shareable = true;
        int i = from;
        while (i < to) {
            i = readHeader(i, to, scratch);
            shareable &= scratch.get(scratch.size() - 1).type() != EventStreamHeader.Type.BYTES;
        }
        List<EventStreamHeader> headers = List.copyOf(scratch);
        scratch.clear();
        if (slot >= 0 && shareable) {
            cachedBlocks[slot] = Arrays.copyOfRange(pending, from, to);
            cachedHeaders[slot] = headers;
        }
        return headers;
    }

    /** Reads one header starting at {@code i}; returns the index after it. */
    private int readHeader(int i, int end, List<EventStreamHeader> headers) {
        int nameLength = pending[i] & 0xff;
        int at = i + 1;
        need(at, nameLength + 1, end);
        String name = new String(pending, at, nameLength, StandardCharsets.UTF_8);
        at += nameLength;
        int code = pending[at++];
        Object value;
        EventStreamHeader.Type type;
        switch (code) {
            case 0 -> {
                type = EventStreamHeader.Type.TRUE;
                value = Boolean.TRUE;
            }
            case 1 -> {
                type = EventStreamHeader.Type.FALSE;
                value = Boolean.FALSE;
            }
            case 2 -> {
                need(at, 1, end);
                type = EventStreamHeader.Type.BYTE;
                value = pending[at];
                at += 1;
            }
            case 3 -> {
                need(at, 2, end);
                type = EventStreamHeader.Type.SHORT;
                value = (short) ((pending[at] << 8) | (pending[at + 1] & 0xff));
                at += 2;
            }
            case 4 -> {
                need(at, 4, end);
                type = EventStreamHeader.Type.INTEGER;
                value = (int) readUint32(at);
                at += 4;
            }
            case 5, 8 -> {
                need(at, 8, end);
                long v = (readUint32(at) << 32) | readUint32(at + 4);
                type = code == 5 ? EventStreamHeader.Type.LONG : EventStreamHeader.Type.TIMESTAMP;
                value = code == 5 ? (Object) v : Instant.ofEpochMilli(v);
                at += 8;
            }
            case 6, 7 -> {
                need(at, 2, end);
                int n = ((pending[at] & 0xff) << 8) | (pending[at + 1] & 0xff);
                at += 2;
                need(at, n, end);
                type = code == 6 ? EventStreamHeader.Type.BYTES : EventStreamHeader.Type.STRING;
                value = code == 6 ? ByteBuffer.wrap(Arrays.copyOfRange(pending, at, at + n)).asReadOnlyBuffer()
                        : new String(pending, at, n, StandardCharsets.UTF_8);
                at += n;
            }
            case 9 -> {
                need(at, 16, end);
                long hi = (readUint32(at) << 32) | readUint32(at + 4);
                long lo = (readUint32(at + 8) << 32) | readUint32(at + 12);
                type = EventStreamHeader.Type.UUID;
                value = new UUID(hi, lo);
                at += 16;
            }
            default -> throw error(ProtocolException.Reason.MALFORMED_FRAME,
                    "unknown header value type " + code + " for header '" + name + "'");
        }
        headers.add(new EventStreamHeader(name, type, value));
        return at;
    }

    private void need(int at, int n, int end) {
        if (at + n > end) {
            throw error(ProtocolException.Reason.MALFORMED_FRAME, "a header runs past the end of the headers");
        }
    }

    @Override
    public void finish(List<EventStreamMessage> out) {
        int left = length - start;
        if (left > 0) {
            throw error(ProtocolException.Reason.MALFORMED_FRAME, "the body ends inside a frame: " + left + " of "
                    + (frameLength > 0 ? frameLength + " bytes" : "at least " + PRELUDE + " bytes") + " arrived");
        }
    }

    @Override
    public void abort(List<EventStreamMessage> out) {
        // A frame is all or nothing; what arrived of a cut one is dropped with the error that cut it.
        start = 0;
        length = 0;
    }

    private long readUint32(int at) {
        return ((pending[at] & 0xffL) << 24) | ((pending[at + 1] & 0xffL) << 16) | ((pending[at + 2] & 0xffL) << 8)
                | (pending[at + 3] & 0xffL);
    }

    private void ensureCapacity(int needed) {
        if (needed > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(needed, pending.length * 2));
        }
    }

    private ProtocolException error(ProtocolException.Reason reason, String message) {
        return new ProtocolException(reason, message, -1, offset, null);
    }
}
