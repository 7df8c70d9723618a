package dev.ruminate.transport.wire;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One line of a newline-delimited JSON body (without its line end), and where it started.
 *
 * <p>{@link #bytes()} returns the internal array without copying: callers must not modify it.
 *
 * <p>Immutable by contract (the array is not copied; do not modify it) and safe to share across threads.
 *
 * @since 0.1
 */
public final class JsonLine {

    private final byte[] bytes;
    private final long line;
    private final long byteOffset;

    /**
     * Creates a line.
     *
     * @param bytes the line's UTF-8 bytes; kept, not copied
     * @param line the 1-based line number
     * @param byteOffset the 0-based byte offset where the line starts
     */
    public JsonLine(byte[] bytes, long line, long byteOffset) {
        this.bytes = Objects.requireNonNull(bytes, "bytes");
        this.line = line;
        this.byteOffset = byteOffset;
    }

    /**
     * Returns the bytes without copying; do not modify them.
     *
     * @return the UTF-8 bytes of the line
     */
    public byte[] bytes() {
        return bytes;
    }

    /**
     * Decodes the line as UTF-8, for diagnostics and tests.
     *
     * @return the text
     */
    public String asString() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Returns the 1-based line number.
     *
     * @return the line
     */
    public long line() {
        return line;
    }

    /**
     * Returns the 0-based byte offset where the line starts.
     *
     * @return the offset
     */
    public long byteOffset() {
        return byteOffset;
    }

    @Override
    public String toString() {
        return "JsonLine[line=" + line + ", " + asString() + "]";
    }
}
