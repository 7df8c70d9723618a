package dev.ruminate.transport.wire;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One message of an AWS event stream ({@code application/vnd.amazon.eventstream}): its headers and
 * its payload, after both checksums were verified.
 *
 * <p>Immutable by contract: {@link #payload()} returns the message's own array without copying, for
 * the JSON parser on the hot path; do not modify it. Safe to share across threads.
 *
 * @param headers the headers, in wire order
 * @param payload the payload bytes (for Bedrock, UTF-8 JSON)
 * @param byteOffset where the message starts in the body, for error messages
 * @since 0.1
 */
public record EventStreamMessage(List<EventStreamHeader> headers, byte[] payload, long byteOffset) {

    /**
     * Creates the value, checking its components.
     *
     * @param headers see {@link #headers()}
     * @param payload see {@link #payload()}
     * @param byteOffset see {@link #byteOffset()}
     */
    public EventStreamMessage {
        headers = List.copyOf(headers);
        Objects.requireNonNull(payload, "payload");
    }

    /**
     * Returns the first header of a name.
     *
     * @param name the header name, such as {@code :event-type}
     * @return the header, or null when the message has none of that name
     */
    public @Nullable EventStreamHeader header(String name) {
        for (EventStreamHeader h : headers) {
            if (h.name().equals(name)) {
                return h;
            }
        }
        return null;
    }

    /**
     * Returns the text of the first header of a name.
     *
     * @param name the header name
     * @return its text, or null when the message has none of that name
     */
    public @Nullable String headerText(String name) {
        EventStreamHeader h = header(name);
        return h == null ? null : h.text();
    }

    /**
     * Returns the payload decoded as UTF-8, for diagnostics.
     *
     * @return the payload text
     */
    public String payloadText() {
        return new String(payload, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EventStreamMessage m && headers.equals(m.headers) && Arrays.equals(payload, m.payload)
                && byteOffset == m.byteOffset;
    }

    @Override
    public int hashCode() {
        return (headers.hashCode() * 31 + Arrays.hashCode(payload)) * 31 + Long.hashCode(byteOffset);
    }

    @Override
    public String toString() {
        return "EventStreamMessage[headers=" + headers + ", payload=" + payload.length + " bytes, byteOffset="
                + byteOffset + "]";
    }
}
