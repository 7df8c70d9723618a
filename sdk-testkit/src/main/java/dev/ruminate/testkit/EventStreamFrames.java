package dev.ruminate.testkit;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * Writes AWS event-stream frames ({@code application/vnd.amazon.eventstream}) as Bedrock sends
 * them: a 12-byte prelude with its CRC-32, string headers, the payload, and the message CRC-32.
 *
 * <p>Use it to serve binary streams from a {@link ProviderEmulator}, and to build corrupted frames
 * for fault tests ({@link #corruptPayload}). Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class EventStreamFrames {

    private static final byte STRING = 7;

    private EventStreamFrames() {
    }

    /**
     * Writes an {@code event} frame, as ConverseStream sends each of its events.
     *
     * @param eventType the {@code :event-type} header, such as {@code contentBlockDelta}
     * @param jsonPayload the payload JSON
     * @return the frame bytes
     */
    public static byte[] event(String eventType, String jsonPayload) {
        return frame(Map.of(":event-type", eventType, ":content-type", "application/json", ":message-type", "event"),
                jsonPayload.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes an {@code exception} frame, as Bedrock reports an error after the stream started.
     *
     * @param exceptionType the {@code :exception-type} header, such as {@code throttlingException}
     * @param message the message put in the JSON payload
     * @return the frame bytes
     */
    public static byte[] exception(String exceptionType, String message) {
        String payload = Json.object(g -> g.writeStringProperty("message", message));
        return frame(Map.of(":exception-type", exceptionType, ":content-type", "application/json",
                ":message-type", "exception"), payload.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes a frame with string headers, in a fixed order ({@code :event-type} or
     * {@code :exception-type}, {@code :content-type}, {@code :message-type}, then the rest sorted).
     *
     * @param headers the string headers
     * @param payload the payload
     * @return the frame bytes
     */
    public static byte[] frame(Map<String, String> headers, byte[] payload) {
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(payload, "payload");
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        headers.entrySet().stream()
                .sorted(Map.Entry.comparingByKey((a, b) -> Integer.compare(rank(a), rank(b)) != 0
                        ? Integer.compare(rank(a), rank(b)) : a.compareTo(b)))
                .forEach(e -> writeHeader(h, e.getKey(), e.getValue()));
        byte[] headerBytes = h.toByteArray();
        int total = 16 + headerBytes.length + payload.length;
        ByteBuffer b = ByteBuffer.allocate(total);
        b.putInt(total).putInt(headerBytes.length);
        b.putInt((int) crc(b.array(), 0, 8));
        b.put(headerBytes).put(payload);
        b.putInt((int) crc(b.array(), 0, total - 4));
        return b.array();
    }

    /**
     * Returns a copy of a frame with one payload byte changed, so its message CRC no longer matches.
     *
     * @param frame a whole frame with a payload
     * @return the corrupted copy
     */
    public static byte[] corruptPayload(byte[] frame) {
        byte[] copy = frame.clone();
        int headers = ByteBuffer.wrap(copy, 4, 4).getInt();
        int at = 12 + headers;
        if (at >= copy.length - 4) {
            throw new IllegalArgumentException("the frame has no payload to corrupt");
        }
        copy[at] ^= 0x20;
        return copy;
    }

    private static int rank(String name) {
        return switch (name) {
            case ":event-type", ":exception-type" -> 0;
            case ":content-type" -> 1;
            case ":message-type" -> 2;
            default -> 3;
        };
    }

    private static void writeHeader(ByteArrayOutputStream out, String name, String value) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        if (n.length > 255 || v.length > 0xffff) {
            throw new IllegalArgumentException("header too long: " + name);
        }
        out.write(n.length);
        out.write(n, 0, n.length);
        out.write(STRING);
        out.write(v.length >> 8);
        out.write(v.length & 0xff);
        out.write(v, 0, v.length);
    }

    private static long crc(byte[] bytes, int from, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, from, length);
        return crc.getValue();
    }
}
