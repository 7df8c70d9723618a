package dev.ruminate.transport.wire;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One header of an AWS event-stream message ({@code :event-type}, {@code :message-type},
 * {@code :content-type}, {@code :exception-type}, …).
 *
 * <p>The value's Java type follows the wire type: {@link Boolean} for {@link Type#TRUE} and
 * {@link Type#FALSE}, {@link Byte}, {@link Short}, {@link Integer}, {@link Long}, a read-only
 * {@link ByteBuffer} for {@link Type#BYTES}, {@link String}, {@link Instant} for
 * {@link Type#TIMESTAMP} (millisecond precision) and {@link UUID}. Immutable and thread-safe.
 *
 * @param name the header name
 * @param type the wire type
 * @param value the value, of the Java type given above
 * @since 0.1
 */
public record EventStreamHeader(String name, Type type, Object value) {

    /** The header value types of the event-stream format, with their wire codes. */
    public enum Type {
        /** Boolean true (code 0, no value bytes). */
        TRUE,
        /** Boolean false (code 1, no value bytes). */
        FALSE,
        /** Signed byte (code 2). */
        BYTE,
        /** Signed 16-bit integer (code 3). */
        SHORT,
        /** Signed 32-bit integer (code 4). */
        INTEGER,
        /** Signed 64-bit integer (code 5). */
        LONG,
        /** Byte array with a 16-bit length (code 6). */
        BYTES,
        /** UTF-8 string with a 16-bit length (code 7). */
        STRING,
        /** Milliseconds since the epoch, signed 64-bit (code 8). */
        TIMESTAMP,
        /** 16-byte UUID (code 9). */
        UUID
    }

    /**
     * Creates the value, checking its components.
     *
     * @param name see {@link #name()}
     * @param type see {@link #type()}
     * @param value see {@link #value()}
     */
    public EventStreamHeader {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(value, "value");
        if (value instanceof ByteBuffer bytes && !bytes.isReadOnly()) {
            value = bytes.asReadOnlyBuffer();
        }
    }

    /**
     * Returns the value as text: the string itself for a {@link Type#STRING} header, its
     * {@code toString} otherwise.
     *
     * @return the text
     */
    public String text() {
        return value.toString();
    }
}
