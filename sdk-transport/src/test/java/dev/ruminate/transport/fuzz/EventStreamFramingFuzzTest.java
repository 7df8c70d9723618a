package dev.ruminate.transport.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ruminate.transport.wire.EventStreamHeader;
import dev.ruminate.transport.wire.EventStreamMessage;
import dev.ruminate.transport.wire.StreamFraming;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.zip.CRC32;

/**
 * Fuzzes the AWS event-stream framing ({@link StreamFraming#EVENT_STREAM}, Bedrock): any body, cut
 * into any buffers, decodes to messages or ends with a {@code ProtocolException}, never another
 * exception or a kept buffer, with the same outcome whole and cut. Input: see {@link FuzzBodies}.
 *
 * <p>Random bytes rarely carry two matching CRC-32s, so with an odd variant byte the body is a recipe
 * instead: repeated {@code [header length][payload length][headers][payload]} (lengths one byte
 * each), written as frames with correct lengths and checksums, so that the header parsing behind the
 * checksums is fuzzed too. With a variant of 3 mod 4 one byte of the result is then flipped.
 */
class EventStreamFramingFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void fuzz(byte[] data) {
        FuzzBodies raw = FuzzBodies.of(data);
        FuzzBodies body = raw;
        if ((raw.variant & 1) == 1) {
            byte[] frames = frames(raw.body, (raw.variant & 2) == 2);
            byte[] rebuilt = Arrays.copyOf(data, FuzzBodies.HEADER + frames.length);
            System.arraycopy(frames, 0, rebuilt, FuzzBodies.HEADER, frames.length);
            body = FuzzBodies.of(rebuilt);
        }
        body.decodeBothWays(StreamFraming.EVENT_STREAM, EventStreamFramingFuzzTest::describe);
    }

    private static String describe(EventStreamMessage m) {
        StringBuilder s = new StringBuilder().append(m.byteOffset()).append('|');
        for (EventStreamHeader h : m.headers()) {
            Object v = h.value();
            String value = v instanceof ByteBuffer b ? HexFormat.of().formatHex(bytes(b)) : String.valueOf(v);
            s.append(h.name()).append(':').append(h.type()).append('=').append(value).append(';');
        }
        return s.append('|').append(FuzzBodies.latin1(m.payload())).toString();
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** Writes the recipe's frames with correct lengths and checksums. */
    static byte[] frames(byte[] recipe, boolean flipOne) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i + 2 <= recipe.length) {
            int headerLength = recipe[i] & 0xff;
            int payloadLength = recipe[i + 1] & 0xff;
            i += 2;
            byte[] headers = Arrays.copyOfRange(recipe, i, Math.min(recipe.length, i + headerLength));
            i += headers.length;
            byte[] payload = Arrays.copyOfRange(recipe, i, Math.min(recipe.length, i + payloadLength));
            i += payload.length;
            out.writeBytes(frame(headers, payload));
        }
        byte[] body = out.toByteArray();
        if (flipOne && body.length > 0) {
            int at = (recipe.length == 0 ? 0 : recipe[recipe.length - 1] & 0xff) * 7919 % body.length;
            body[at] ^= 0x5a;
        }
        return body;
    }

    private static byte[] frame(byte[] headers, byte[] payload) {
        int total = 16 + headers.length + payload.length;
        ByteBuffer b = ByteBuffer.allocate(total);
        b.putInt(total).putInt(headers.length);
        b.putInt((int) crc(b.array(), 8));
        b.put(headers).put(payload);
        b.putInt((int) crc(b.array(), total - 4));
        return b.array();
    }

    private static long crc(byte[] bytes, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, length);
        return crc.getValue();
    }
}
