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
 * <p>The payload stays bytes, a range of an array: {@link #payloadArray()}, {@link #payloadOffset()},
 * {@link #payloadLength()}. A message from {@link EventStreams#decode} owns its array, and
 * {@link #payload()} returns it without copying, for the JSON parser on the hot path: do not modify it.
 *
 * <p><b>Lent messages.</b> On the provider's own stream path the framing lends each message's payload
 * instead of copying it: the range then lies inside a network buffer or a scratch array of the
 * framing, valid only during the call that receives the message; {@link #payload()} copies it,
 * {@link #owned()} makes a message that outlives the call. Such messages are handed only to a
 * {@code StreamDecoder}, whose contract says so. The headers are immutable values in either case.
 *
 * <p>Immutable by contract (a lent message for as long as it is valid); safe to share across threads
 * when owned.
 *
 * @since 0.1
 */
public final class EventStreamMessage {

    private final List<EventStreamHeader> headers;
    private final byte[] payload;
    private final int payloadOffset;
    private final int payloadLength;
    /** Whether the payload is lent (valid only during the call that receives the message). */
    private final boolean lent;
    private final long byteOffset;

    /**
     * Creates a message that owns its payload.
     *
     * @param headers the headers, in wire order
     * @param payload the payload bytes (for Bedrock, UTF-8 JSON); kept, not copied
     * @param byteOffset where the message starts in the body, for error messages
     */
    public EventStreamMessage(List<EventStreamHeader> headers, byte[] payload, long byteOffset) {
        this(headers, Objects.requireNonNull(payload, "payload"), 0, payload.length, byteOffset, false);
    }

    /**
     * Creates a message whose payload is a range of an array, kept, not copied.
     *
     * @param headers the headers, in wire order
     * @param array the array holding the payload
     * @param payloadOffset where the payload starts in {@code array}
     * @param payloadLength how many bytes the payload has
     * @param byteOffset where the message starts in the body, for error messages
     * @throws IndexOutOfBoundsException if the range is not inside {@code array}
     * @since 0.4
     */
    public EventStreamMessage(List<EventStreamHeader> headers, byte[] array, int payloadOffset, int payloadLength,
                              long byteOffset) {
        this(headers, array, payloadOffset, payloadLength, byteOffset, false);
    }

    /** Creates a lent message: the framing's view of a payload it does not copy; the headers are already immutable. */
    static EventStreamMessage lent(List<EventStreamHeader> headers, byte[] array, int payloadOffset, int payloadLength,
                                   long byteOffset) {
        return new EventStreamMessage(headers, array, payloadOffset, payloadLength, byteOffset, true);
    }

    private EventStreamMessage(List<EventStreamHeader> headers, byte[] array, int payloadOffset, int payloadLength,
                               long byteOffset, boolean lent) {
        // a no-op for the framing's lists, which are already immutable
        this.headers = List.copyOf(headers);
        this.payload = Objects.requireNonNull(array, "payload");
        Objects.checkFromIndexSize(payloadOffset, payloadLength, array.length);
        this.payloadOffset = payloadOffset;
        this.payloadLength = payloadLength;
        this.lent = lent;
        this.byteOffset = byteOffset;
    }

    /**
     * Returns the headers.
     *
     * @return the headers, in wire order (immutable)
     */
    public List<EventStreamHeader> headers() {
        return headers;
    }

    /**
     * Returns the payload bytes: the array itself, without copying, when the message owns it whole
     * (do not modify it); else a copy of the range.
     *
     * @return the payload (for Bedrock, UTF-8 JSON)
     */
    public byte[] payload() {
        return !lent && payloadOffset == 0 && payloadLength == payload.length ? payload
                : Arrays.copyOfRange(payload, payloadOffset, payloadOffset + payloadLength);
    }

    /**
     * Returns the array that holds the payload, without copying; the payload is
     * {@link #payloadLength()} bytes from {@link #payloadOffset()}. Do not modify it, and for a lent
     * message do not keep it.
     *
     * @return the array
     * @since 0.4
     */
    public byte[] payloadArray() {
        return payload;
    }

    /**
     * Returns where the payload starts in {@link #payloadArray()}.
     *
     * @return the offset
     * @since 0.4
     */
    public int payloadOffset() {
        return payloadOffset;
    }

    /**
     * Returns the length of the payload.
     *
     * @return the number of payload bytes
     * @since 0.4
     */
    public int payloadLength() {
        return payloadLength;
    }

    /**
     * Returns this message unless it is lent, else an equal message with a copy of its payload.
     *
     * @return a message that stays valid
     * @since 0.4
     */
    public EventStreamMessage owned() {
        return lent ? new EventStreamMessage(headers, payload(), byteOffset) : this;
    }

    /**
     * Returns where the message starts in the body.
     *
     * @return the 0-based byte offset, for error messages
     */
    public long byteOffset() {
        return byteOffset;
    }

    /**
     * Returns the first header of a name.
     *
     * @param name the header name, such as {@code :event-type}
     * @return the header, or null when the message has none of that name
     */
    public @Nullable EventStreamHeader header(String name) {
        for (int i = 0; i < headers.size(); i++) {
            EventStreamHeader h = headers.get(i);
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
        return new String(payload, payloadOffset, payloadLength, StandardCharsets.UTF_8);
    }

    /** Equal messages have equal headers, payload bytes and offset, lent or owned. */
    @Override
    public boolean equals(Object o) {
        return o instanceof EventStreamMessage m && headers.equals(m.headers) && byteOffset == m.byteOffset
                && Arrays.equals(payload, payloadOffset, payloadOffset + payloadLength, m.payload, m.payloadOffset,
                m.payloadOffset + m.payloadLength);
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (int i = payloadOffset; i < payloadOffset + payloadLength; i++) {
            h = 31 * h + payload[i];
        }
        return (headers.hashCode() * 31 + h) * 31 + Long.hashCode(byteOffset);
    }

    @Override
    public String toString() {
        return "EventStreamMessage[headers=" + headers + ", payload=" + payloadLength + " bytes, byteOffset="
                + byteOffset + "]";
    }
}
