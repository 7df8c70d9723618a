package dev.ruminate.transport.wire;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One dispatched Server-Sent Event: its type, its data, and where it started in the body.
 *
 * <p>The data stays UTF-8 bytes, exactly as received, so that a JSON parser reads them without a
 * {@code String} in between. They are a range of an array: {@link #dataArray()},
 * {@link #dataOffset()}, {@link #dataLength()}. An event from {@link ServerSentEvents#decode} owns
 * its array, and {@link #data()} returns it without copying: callers must not modify it.
 *
 * <p><b>Lent events.</b> On the provider's own stream path the framing lends each event's data
 * instead of copying it: the range then lies inside the network buffer being read (or a scratch
 * array of the framing), valid only during the call that receives the event; {@link #data()} copies
 * it, {@link #owned()} makes an event that outlives the call. Such events are handed only to a
 * {@code StreamDecoder}, whose contract says so.
 *
 * <p>Immutable by contract (a lent event for as long as it is valid); safe to hand to another thread
 * when owned.
 *
 * @since 0.1
 */
public final class SseEvent {

    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    private final String type;
    private final byte[] data;
    private final int dataOffset;
    private final int dataLength;
    /** Whether the data are lent (valid only during the call that receives the event). */
    private final boolean lent;
    private final @Nullable String id;
    private final long line;
    private final long byteOffset;

    /**
     * Creates an event.
     *
     * @param type the {@code event:} field, {@code "message"} when the event had none
     * @param data the {@code data:} lines joined with {@code \n} (no trailing newline), as UTF-8 bytes; kept, not copied
     * @param id the last {@code id:} field seen, if any
     * @param line the 1-based line of the body where the event's first field starts
     * @param byteOffset the 0-based byte offset of the body where the event's first field starts
     */
    public SseEvent(String type, byte[] data, @Nullable String id, long line, long byteOffset) {
        this(type, data, 0, data.length, id, line, byteOffset);
    }

    /**
     * Creates an event whose data are a range of an array, kept, not copied.
     *
     * @param type the {@code event:} field, {@code "message"} when the event had none
     * @param array the array holding the data
     * @param dataOffset where the data start in {@code array}
     * @param dataLength how many bytes the data have
     * @param id the last {@code id:} field seen, if any
     * @param line the 1-based line of the body where the event's first field starts
     * @param byteOffset the 0-based byte offset of the body where the event's first field starts
     * @throws IndexOutOfBoundsException if the range is not inside {@code array}
     * @since 0.4
     */
    public SseEvent(String type, byte[] array, int dataOffset, int dataLength, @Nullable String id, long line,
                    long byteOffset) {
        this(type, array, dataOffset, dataLength, id, line, byteOffset, false);
    }

    /** Creates a lent event: the framing's view of data it does not copy. */
    static SseEvent lent(String type, byte[] array, int dataOffset, int dataLength, @Nullable String id, long line,
                         long byteOffset) {
        return new SseEvent(type, array, dataOffset, dataLength, id, line, byteOffset, true);
    }

    private SseEvent(String type, byte[] array, int dataOffset, int dataLength, @Nullable String id, long line,
                     long byteOffset, boolean lent) {
        this.type = Objects.requireNonNull(type, "type");
        this.lent = lent;
        this.data = Objects.requireNonNull(array, "array");
        Objects.checkFromIndexSize(dataOffset, dataLength, array.length);
        this.dataOffset = dataOffset;
        this.dataLength = dataLength;
        this.id = id;
        this.line = line;
        this.byteOffset = byteOffset;
    }

    /**
     * Returns the event type.
     *
     * @return the {@code event:} field, {@code "message"} by default
     */
    public String type() {
        return type;
    }

    /**
     * Returns the data bytes: the array itself, without copying, when the event owns it whole (do
     * not modify it); else a copy of the range.
     *
     * @return the UTF-8 data
     */
    public byte[] data() {
        return !lent && dataOffset == 0 && dataLength == data.length ? data : Arrays.copyOfRange(data, dataOffset,
                dataOffset + dataLength);
    }

    /**
     * Returns the array that holds the data, without copying; the data are {@link #dataLength()}
     * bytes from {@link #dataOffset()}. Do not modify it, and for a lent event do not keep it.
     *
     * @return the array
     * @since 0.4
     */
    public byte[] dataArray() {
        return data;
    }

    /**
     * Returns where the data start in {@link #dataArray()}.
     *
     * @return the offset
     * @since 0.4
     */
    public int dataOffset() {
        return dataOffset;
    }

    /**
     * Returns the length of the data.
     *
     * @return the number of data bytes
     * @since 0.4
     */
    public int dataLength() {
        return dataLength;
    }

    /**
     * Returns this event unless it is lent, else an equal event with a copy of its data.
     *
     * @return an event that stays valid
     * @since 0.4
     */
    public SseEvent owned() {
        return lent ? new SseEvent(type, data(), id, line, byteOffset) : this;
    }

    /**
     * Decodes the data as UTF-8 (malformed input replaced), for diagnostics and tests.
     *
     * @return the data text
     */
    public String dataAsString() {
        return new String(data, dataOffset, dataLength, StandardCharsets.UTF_8);
    }

    /**
     * Tells whether this is the OpenAI-style end sentinel {@code data: [DONE]}.
     *
     * <p>ASCII whitespace (space, tab, line feed, form feed, carriage return) before and after the
     * sentinel is tolerated, since some servers pad it; the sentinel itself must match exactly,
     * case included.
     *
     * @return true when the data is {@code [DONE]}, possibly surrounded by ASCII whitespace
     */
    public boolean isDone() {
        int start = dataOffset;
        int end = dataOffset + dataLength;
        while (start < end && isAsciiWhitespace(data[start])) {
            start++;
        }
        while (end > start && isAsciiWhitespace(data[end - 1])) {
            end--;
        }
        return Arrays.equals(data, start, end, DONE, 0, DONE.length);
    }

    private static boolean isAsciiWhitespace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r';
    }

    /**
     * Returns the last event id the stream set.
     *
     * @return the id, or null
     */
    public @Nullable String id() {
        return id;
    }

    /**
     * Returns the 1-based line where this event starts in the body.
     *
     * @return the line
     */
    public long line() {
        return line;
    }

    /**
     * Returns the 0-based byte offset where this event starts in the body.
     *
     * @return the offset
     */
    public long byteOffset() {
        return byteOffset;
    }

    @Override
    public String toString() {
        String text = dataAsString();
        return "SseEvent[type=" + type + ", line=" + line + ", data=" + (text.length() > 120 ? text.substring(0, 120) + "…" : text) + "]";
    }
}
