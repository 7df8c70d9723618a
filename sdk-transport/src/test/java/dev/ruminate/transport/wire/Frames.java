package dev.ruminate.transport.wire;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/** Writes event-stream frames with correct checksums, for tests that need frames the vectors lack. */
final class Frames {

    private Frames() {
    }

    /** Returns a 12-byte prelude with its checksum. */
    static byte[] prelude(int totalLength, int headersLength) {
        ByteBuffer b = ByteBuffer.allocate(12).putInt(totalLength).putInt(headersLength);
        b.putInt((int) crc(b.array(), 0, 8));
        return b.array();
    }

    /** Returns a whole frame of already encoded headers and a payload. */
    static byte[] encode(byte[] headers, byte[] payload) {
        int total = 16 + headers.length + payload.length;
        ByteBuffer b = ByteBuffer.allocate(total).put(prelude(total, headers.length)).put(headers).put(payload);
        b.putInt((int) crc(b.array(), 0, total - 4));
        return b.array();
    }

    private static long crc(byte[] bytes, int from, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, from, length);
        return crc.getValue();
    }
}
