package dev.ruminate.transport.wire;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One dispatched Server-Sent Event: its type, its data, and where it started in the body.
 *
 * <p>The data stays UTF-8 bytes, exactly as received, so that a JSON parser reads them without a
 * {@code String} in between. {@link #data()} returns the internal array without copying:
 * callers must not modify it.
 *
 * <p>Immutable by contract; safe to hand to another thread.
 *
 * @since 0.1
 */
public final class SseEvent {

    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    private final String type;
    private final byte[] data;
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
        this.type = Objects.requireNonNull(type, "type");
        this.data = Objects.requireNonNull(data, "data");
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
     * Returns the data bytes without copying; do not modify them.
     *
     * @return the UTF-8 data
     */
    public byte[] data() {
        return data;
    }

    /**
     * Decodes the data as UTF-8 (malformed input replaced), for diagnostics and tests.
     *
     * @return the data text
     */
    public String dataAsString() {
        return new String(data, StandardCharsets.UTF_8);
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
        int start = 0;
        int end = data.length;
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
