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
 * the message CRC. Bytes are copied out of each network buffer into one growing array, so a frame
 * may be split anywhere; a frame is decoded once all of it has arrived. The prelude is checked as
 * soon as its 12 bytes are there, so a corrupted length fails at once instead of waiting for a frame
 * that will never come, and a frame larger than the limit is refused before it is buffered.
 *
 * <p>One instance per body; not thread-safe.
 */
final class EventStreamFramer implements Framing.Framer<EventStreamMessage> {

    /** Prelude (12 bytes) plus the message CRC (4 bytes). */
    static final int MIN_FRAME = 16;
    private static final int PRELUDE = 12;

    private final int maxFrameBytes;
    private byte[] pending = new byte[256];
    private int length;
    /** Body offset of {@code pending[0]}. */
    private long offset;
    /** The checked total length of the frame at {@code pending[0]}, or -1 before its prelude is checked. */
    private int frameLength = -1;
    private final CRC32 crc = new CRC32();

    EventStreamFramer(WireLimits limits) {
        this.maxFrameBytes = limits.maxEventBytes();
    }

    @Override
    public void feed(ByteBuf buf, List<EventStreamMessage> out) {
        int readable = buf.readableBytes();
        ensureCapacity(length + readable);
        buf.getBytes(buf.readerIndex(), pending, length, readable);
        length += readable;
        drain(out);
    }

    private void drain(List<EventStreamMessage> out) {
        int base = 0;
        try {
            while (true) {
                int available = length - base;
                if (frameLength < 0) {
                    if (available < PRELUDE) {
                        return;
                    }
                    frameLength = checkPrelude(base);
                }
                if (available < frameLength) {
                    return;
                }
                out.add(decodeFrame(base, frameLength));
                base += frameLength;
                offset += frameLength;
                frameLength = -1;
            }
        } finally {
            // Compact once per network buffer, not once per frame.
            length -= base;
            System.arraycopy(pending, base, pending, 0, length);
            if (pending.length > 4096 && length < 256) {
                // Do not keep a 16 MiB array alive for a stream of small frames after one large one.
                pending = Arrays.copyOf(pending, 256);
            }
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
        int headersEnd = base + PRELUDE + (int) readUint32(base + 4);
        List<EventStreamHeader> headers = new ArrayList<>(4);
        int i = base + PRELUDE;
        while (i < headersEnd) {
            i = readHeader(i, headersEnd, headers);
        }
        byte[] payload = Arrays.copyOfRange(pending, headersEnd, end - 4);
        return new EventStreamMessage(headers, payload, offset);
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
        if (length > 0) {
            throw error(ProtocolException.Reason.MALFORMED_FRAME, "the body ends inside a frame: " + length + " of "
                    + (frameLength > 0 ? frameLength + " bytes" : "at least " + PRELUDE + " bytes") + " arrived");
        }
    }

    @Override
    public void abort(List<EventStreamMessage> out) {
        // A frame is all or nothing; what arrived of a cut one is dropped with the error that cut it.
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
