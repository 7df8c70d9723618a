package dev.ruminate.transport.wire;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One line of a newline-delimited JSON body (without its line end), and where it started.
 *
 * <p>The line stays UTF-8 bytes, exactly as received. They are a range of an array:
 * {@link #array()}, {@link #offset()}, {@link #length()}. A line from {@link JsonLines#decode} owns
 * its array, and {@link #bytes()} returns it without copying: callers must not modify it.
 *
 * <p><b>Lent lines.</b> On the provider's own stream path the framing may lend each line instead of
 * copying it: the range then lies inside the network buffer being read (or a scratch array of the
 * framing), valid only until the framing's next call; {@link #bytes()} copies it, {@link #owned()}
 * makes a line that outlives the call. Such lines are handed only to a {@code StreamDecoder}, whose
 * contract says so.
 *
 * <p>Immutable by contract (a lent line for as long as it is valid); safe to hand to another thread
 * when owned.
 *
 * @since 0.1
 */
public final class JsonLine {

    private final byte[] array;
    private final int offset;
    private final int length;
    /** Whether the bytes are lent (valid only until the framing's next call). */
    private final boolean lent;
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
        this(bytes, 0, bytes.length, line, byteOffset);
    }

    /**
     * Creates a line whose bytes are a range of an array, kept, not copied.
     *
     * @param array the array holding the line's UTF-8 bytes
     * @param offset where the line starts in {@code array}
     * @param length how many bytes the line has
     * @param line the 1-based line number
     * @param byteOffset the 0-based byte offset of the body where the line starts
     * @throws IndexOutOfBoundsException if the range is not inside {@code array}
     * @since 0.4
     */
    public JsonLine(byte[] array, int offset, int length, long line, long byteOffset) {
        this(array, offset, length, line, byteOffset, false);
    }

    /** Creates a lent line: the framing's view of bytes it does not copy. */
    static JsonLine lent(byte[] array, int offset, int length, long line, long byteOffset) {
        return new JsonLine(array, offset, length, line, byteOffset, true);
    }

    private JsonLine(byte[] array, int offset, int length, long line, long byteOffset, boolean lent) {
        this.array = Objects.requireNonNull(array, "array");
        Objects.checkFromIndexSize(offset, length, array.length);
        this.offset = offset;
        this.length = length;
        this.lent = lent;
        this.line = line;
        this.byteOffset = byteOffset;
    }

    /**
     * Returns the bytes: the array itself, without copying, when the line owns it whole (do not
     * modify it); else a copy of the range.
     *
     * @return the UTF-8 bytes of the line
     */
    public byte[] bytes() {
        return !lent && offset == 0 && length == array.length ? array : Arrays.copyOfRange(array, offset,
                offset + length);
    }

    /**
     * Returns the array that holds the line, without copying; the line is {@link #length()} bytes
     * from {@link #offset()}. Do not modify it, and for a lent line do not keep it.
     *
     * @return the array
     * @since 0.4
     */
    public byte[] array() {
        return array;
    }

    /**
     * Returns where the line starts in {@link #array()}.
     *
     * @return the offset
     * @since 0.4
     */
    public int offset() {
        return offset;
    }

    /**
     * Returns the length of the line, line end excluded.
     *
     * @return the number of bytes
     * @since 0.4
     */
    public int length() {
        return length;
    }

    /**
     * Tells whether the line is lent: valid only until the framing's next call.
     *
     * @return true for a lent line
     * @since 0.4
     */
    public boolean isLent() {
        return lent;
    }

    /**
     * Returns this line unless it is lent, else an equal line with a copy of its bytes.
     *
     * @return a line that stays valid
     * @since 0.4
     */
    public JsonLine owned() {
        return lent ? new JsonLine(bytes(), line, byteOffset) : this;
    }

    /**
     * Decodes the line as UTF-8 (malformed input replaced), for diagnostics and tests.
     *
     * @return the text
     */
    public String asString() {
        return new String(array, offset, length, StandardCharsets.UTF_8);
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
