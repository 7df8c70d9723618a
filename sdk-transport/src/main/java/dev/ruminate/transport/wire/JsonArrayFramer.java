package dev.ruminate.transport.wire;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts one streamed JSON array body into its elements as their closing brackets arrive.
 *
 * <p>Why a byte scanner rather than a (non-blocking) JSON parser: the framing owns only the
 * structure between elements ({@code [}, {@code ,}, {@code ]} and whitespace), which it checks
 * exactly; inside an element it needs only to follow strings, escapes and bracket depth to find the
 * element's end. Nothing of an element is materialised but its bytes, which the limit bounds, and
 * the family decoder parses (and validates) each element as it parses any other framing's payload.
 * Structural bytes are ASCII and never occur inside a multi-byte UTF-8 sequence, so a buffer boundary
 * inside a character needs no care.
 *
 * <p>Holds the state of one subscription; not thread-safe, fed serially.
 */
final class JsonArrayFramer implements Framing.Framer<JsonArrayElement> {

    private static final int MIN_CAPACITY = 256;
    /** The largest scratch array kept after an element: a bigger one is dropped, not pinned for the stream. */
    private static final int RETAINED_CAPACITY = 16 * 1024;
    private static final int EXCERPT_BYTES = 40;

    /** Where the scanner is in the body's structure. */
    private enum State {
        /** Before the body's first value: {@code [} opens the array, {@code {} a lone object. */
        START,
        /** After {@code [}: an element or {@code ]}. */
        FIRST,
        /** Inside an element. */
        ELEMENT,
        /** After an element: {@code ,} or {@code ]}. */
        AFTER,
        /** After {@code ,}: an element. */
        NEXT,
        /** After the closing {@code ]}, or after a lone object: only whitespace. */
        DONE
    }

    private final int maxElementBytes;
    private State state = State.START;
    /** Whether the body is one object rather than an array (an error object answering a streaming call). */
    private boolean lone;
    private int depth;
    private boolean inString;
    private boolean escaped;

    /** The open element's bytes so far. */
    private byte[] element = new byte[0];
    private int elementLength;
    private int index;
    private long elementLine;
    private long elementOffset;

    /** The body offset of the next byte fed, and the line it is on. */
    private long offset;
    private long line = 1;
    private byte[] chunk = new byte[0];

    JsonArrayFramer(WireLimits limits) {
        this.maxElementBytes = limits.maxEventBytes();
    }

    @Override
    public void feed(ByteBuf buf, List<JsonArrayElement> out) {
        int length = buf.readableBytes();
        if (chunk.length < length) {
            chunk = new byte[Math.max(length, MIN_CAPACITY)];
        }
        buf.getBytes(buf.readerIndex(), chunk, 0, length);
        int copyFrom = state == State.ELEMENT ? 0 : -1;
        for (int i = 0; i < length; i++) {
            byte b = chunk[i];
            if (state == State.ELEMENT) {
                if (inside(b)) {
                    continue;
                }
                // the element's closing bracket
                append(copyFrom, i + 1);
                copyFrom = -1;
                emit(out);
                state = lone ? State.DONE : State.AFTER;
            } else if (!isWhitespace(b)) {
                if (structural(b, i, length)) {
                    copyFrom = i;
                    offsetInElement(i);
                }
            }
            if (b == '\n') {
                line++;
            }
        }
        if (copyFrom >= 0) {
            append(copyFrom, length);
        }
        offset += length;
    }

    /**
     * Follows one byte of the open element (strings, escapes, bracket depth), counting its lines.
     *
     * @return false when the byte closes the element
     */
    private boolean inside(byte b) {
        if (b == '\n') {
            line++;
        }
        if (inString) {
            if (escaped) {
                escaped = false;
            } else if (b == '\\') {
                escaped = true;
            } else if (b == '"') {
                inString = false;
            }
            return true;
        }
        switch (b) {
            case '"' -> inString = true;
            case '{', '[' -> depth++;
            case '}', ']' -> {
                return --depth > 0;
            }
            default -> {
                // a value's other bytes: the element's own parser checks them
            }
        }
        return true;
    }

    /** Marks where the element that starts at the chunk's byte {@code i} starts in the body. */
    private void offsetInElement(int i) {
        elementOffset = offset + i;
        elementLine = line;
        elementLength = 0;
        depth = 1;
        inString = false;
        escaped = false;
        state = State.ELEMENT;
    }

    /**
     * Handles a byte outside every element that is not whitespace.
     *
     * @return true when the byte opens an element
     */
    private boolean structural(byte b, int i, int length) {
        switch (state) {
            case START -> {
                if (b == '[') {
                    state = State.FIRST;
                    return false;
                }
                if (b == '{') {
                    lone = true;
                    return true;
                }
                throw garbage("a JSON array ('[')", i, length);
            }
            case FIRST, NEXT -> {
                if (b == '{' || b == '[') {
                    return true;
                }
                if (b == ']' && state == State.FIRST) {
                    state = State.DONE;
                    return false;
                }
                throw garbage("element " + index + " of the JSON array (an object)", i, length);
            }
            case AFTER -> {
                if (b == ',') {
                    state = State.NEXT;
                    return false;
                }
                if (b == ']') {
                    state = State.DONE;
                    return false;
                }
                throw garbage("',' or ']' after element " + (index - 1) + " of the JSON array", i, length);
            }
            case DONE -> throw garbage("nothing after the end of the JSON " + (lone ? "object" : "array"), i, length);
            default -> throw new IllegalStateException(state.name());
        }
    }

    /** Adds the chunk's bytes {@code [from, to)} to the open element, within the limit. */
    private void append(int from, int to) {
        int n = to - from;
        if ((long) elementLength + n > maxElementBytes) {
            throw new ProtocolException(ProtocolException.Reason.LINE_TOO_LONG, "element " + index
                    + " of the JSON array is longer than " + maxElementBytes + " bytes", elementLine, elementOffset, null);
        }
        if (element.length < elementLength + n) {
            element = Arrays.copyOf(element, Math.max(MIN_CAPACITY, Math.max(elementLength + n,
                    (int) Math.min(maxElementBytes, 2L * element.length))));
        }
        System.arraycopy(chunk, from, element, elementLength, n);
        elementLength += n;
    }

    private void emit(List<JsonArrayElement> out) {
        out.add(new JsonArrayElement(Arrays.copyOf(element, elementLength), index++, elementLine, elementOffset));
        elementLength = 0;
        if (element.length > RETAINED_CAPACITY) {
            element = new byte[0];
        }
    }

    private ProtocolException garbage(String expected, int i, int length) {
        int end = Math.min(length, i + EXCERPT_BYTES);
        StringBuilder found = new StringBuilder();
        for (int k = i; k < end; k++) {
            char c = (char) (chunk[k] & 0xff);
            found.append(c >= 0x20 && c < 0x7f ? c : '.');
        }
        return new ProtocolException(ProtocolException.Reason.MALFORMED_JSON, "expected " + expected + " but found '"
                + found + (end < length ? "…" : "") + "'", line, offset + i, null);
    }

    /**
     * {@inheritDoc}
     *
     * <p>An empty (or blank) body gives no element and no error: the family decoder tells that it
     * never started. A body that ends inside the array fails with an
     * {@link IncompleteStreamException}: the elements before it were emitted already.
     *
     * @throws IncompleteStreamException when the body ends before the array's {@code ]}
     */
    @Override
    public void finish(List<JsonArrayElement> out) {
        switch (state) {
            case START, DONE -> {
                // nothing, or all of it
            }
            case ELEMENT -> throw new IncompleteStreamException("the body ended inside "
                    + (lone ? "the JSON object" : "element " + index + " of the JSON array") + " (it starts at line "
                    + elementLine + ", byte " + elementOffset + ")", null);
            default -> throw new IncompleteStreamException("the body ended after " + index
                    + " elements of the JSON array, before its closing ']'", null);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Complete elements were emitted as they arrived; an unfinished one is dropped.
     */
    @Override
    public void abort(List<JsonArrayElement> out) {
    }

    private static boolean isWhitespace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }
}
