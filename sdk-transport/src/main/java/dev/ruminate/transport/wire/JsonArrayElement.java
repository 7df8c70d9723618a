package dev.ruminate.transport.wire;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One element of a streamed JSON array (such as Gemini's {@code streamGenerateContent} read
 * without {@code alt=sse}): the element's bytes exactly as received, its 0-based index in the
 * array, and where it started in the body.
 *
 * <p>{@link #bytes()} returns the internal array without copying: callers must not modify it.
 *
 * <p>Immutable by contract (the array is not copied; do not modify it) and safe to share across threads.
 *
 * @since 0.1
 */
public final class JsonArrayElement {

    private final byte[] bytes;
    private final int index;
    private final long line;
    private final long byteOffset;

    /**
     * Creates an element.
     *
     * @param bytes the element's UTF-8 bytes, from its opening to its closing bracket; kept, not copied
     * @param index the 0-based index of the element in the array
     * @param line the 1-based line of the body where the element starts
     * @param byteOffset the 0-based byte offset of the body where the element starts
     */
    public JsonArrayElement(byte[] bytes, int index, long line, long byteOffset) {
        this.bytes = Objects.requireNonNull(bytes, "bytes");
        this.index = index;
        this.line = line;
        this.byteOffset = byteOffset;
    }

    /**
     * Returns the bytes without copying; do not modify them.
     *
     * @return the UTF-8 bytes of the element
     */
    public byte[] bytes() {
        return bytes;
    }

    /**
     * Returns the element's position in the array.
     *
     * @return the 0-based index
     */
    public int index() {
        return index;
    }

    /**
     * Decodes the element as UTF-8, for diagnostics and tests.
     *
     * @return the text
     */
    public String asString() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Returns the 1-based line where the element starts.
     *
     * @return the line
     */
    public long line() {
        return line;
    }

    /**
     * Returns the 0-based byte offset where the element starts.
     *
     * @return the offset
     */
    public long byteOffset() {
        return byteOffset;
    }

    @Override
    public String toString() {
        return "JsonArrayElement[" + index + " at line " + line + ", " + asString() + "]";
    }
}
