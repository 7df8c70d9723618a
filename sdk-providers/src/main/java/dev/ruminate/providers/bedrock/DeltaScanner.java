package dev.ruminate.providers.bedrock;

import dev.ruminate.providers.internal.JsonCursor;
import org.jspecify.annotations.Nullable;

/**
 * The fast path for the payload that makes up almost all of a ConverseStream answer, a
 * {@code contentBlockDelta} with one piece of text:
 * <pre>{"contentBlockIndex":0,"delta":{"text":"…"},"p":"abcd"}
 * {"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"…"}},"p":"ab"}
 * {"contentBlockIndex":2,"delta":{"toolUse":{"input":"{\"ci"}},"p":"abcdefgh"}</pre>
 * Read by its bytes ({@link JsonCursor}): the padding and other top-level scalars are skipped, not
 * tokenized, and the one string that matters decoded; the decoder then emits exactly what its Jackson
 * path would for the same payload.
 *
 * <p>It recognises, in any order and with any whitespace: {@code contentBlockIndex} once, as a plain
 * non-negative integer; {@code delta} once, an object with exactly one member: {@code text} (a
 * string), {@code reasoningContent} (an object whose only member is {@code text}, a string) or
 * {@code toolUse} (an object whose only member is {@code input}, a string); and other top-level
 * scalars ({@code p}, …), which the Jackson path skips as well. Anything else (a signature or
 * redacted content, several deltas, an index that is negative, fractional or repeated, nested values
 * other than the delta, a property name with an escape, malformed JSON, anything after the object) is
 * "not recognised": {@link #scan} returns false and the decoder parses the payload with Jackson,
 * which decodes it or fails it as before.
 *
 * <p>One per decoder; not thread-safe. It keeps nothing of the payload but the decoded text.
 */
final class DeltaScanner {

    /** What the recognised delta carries. */
    enum Kind {
        /** {@code delta.text}: answer text. */
        TEXT,
        /** {@code delta.reasoningContent.text}: reasoning text. */
        REASONING,
        /** {@code delta.toolUse.input}: a piece of a tool call's JSON arguments. */
        TOOL_INPUT
    }

    private static final byte[] CONTENT_BLOCK_INDEX = JsonCursor.ascii("contentBlockIndex");
    private static final byte[] DELTA = JsonCursor.ascii("delta");
    private static final byte[] TEXT = JsonCursor.ascii("text");
    private static final byte[] REASONING_CONTENT = JsonCursor.ascii("reasoningContent");
    private static final byte[] TOOL_USE = JsonCursor.ascii("toolUse");
    private static final byte[] INPUT = JsonCursor.ascii("input");

    private final JsonCursor json = new JsonCursor();
    private int block;
    private @Nullable Kind kind;
    private @Nullable String text;

    /**
     * Reads a {@code contentBlockDelta} payload if it has the recognised shape.
     *
     * @param array the array holding the payload; not kept
     * @param offset where the payload starts
     * @param length its length
     * @return true if it was read ({@link #block()}, {@link #kind()} and {@link #text()} then tell
     *     what it says); false to leave it to the Jackson path
     */
    boolean scan(byte[] array, int offset, int length) {
        block = -1;
        kind = null;
        text = null;
        JsonCursor c = json.reset(array, offset, length);
        if (!c.take('{') || c.peek('}')) {
            return false;
        }
        do {
            if (!c.name()) {
                return false;
            }
            if (c.nameIs(CONTENT_BLOCK_INDEX)) {
                if (block >= 0 || (block = c.plainIndex()) < 0) {
                    return false;
                }
            } else if (c.nameIs(DELTA)) {
                if (kind != null || !delta(c)) {
                    return false;
                }
            } else if (!c.skipScalar()) {
                return false;
            }
        } while (c.take(','));
        return c.take('}') && c.atEnd() && block >= 0 && kind != null;
    }

    /** Reads the delta object with its one member. */
    private boolean delta(JsonCursor c) {
        if (!c.take('{') || !c.name()) {
            return false;
        }
        Kind k;
        if (c.nameIs(TEXT)) {
            k = Kind.TEXT;
        } else if (c.nameIs(REASONING_CONTENT)) {
            k = Kind.REASONING;
            if (!c.take('{') || !c.name() || !c.nameIs(TEXT)) {
                return false;
            }
        } else if (c.nameIs(TOOL_USE)) {
            k = Kind.TOOL_INPUT;
            if (!c.take('{') || !c.name() || !c.nameIs(INPUT)) {
                return false;
            }
        } else {
            return false;
        }
        if (!c.stringValue()) {
            return false;
        }
        if (k != Kind.TEXT && !c.take('}')) {
            return false;
        }
        if (!c.take('}')) {
            return false;
        }
        kind = k;
        text = c.string();
        return true;
    }

    /**
     * Returns the content block index of the payload last recognised.
     *
     * @return the index, at least 0
     */
    int block() {
        return block;
    }

    /**
     * Returns what the payload last recognised carries.
     *
     * @return the kind
     * @throws IllegalStateException if nothing was recognised
     */
    Kind kind() {
        Kind k = kind;
        if (k == null) {
            throw new IllegalStateException("nothing recognised");
        }
        return k;
    }

    /**
     * Returns the text of the payload last recognised.
     *
     * @return the decoded string
     * @throws IllegalStateException if nothing was recognised
     */
    String text() {
        String t = text;
        if (t == null) {
            throw new IllegalStateException("nothing recognised");
        }
        return t;
    }
}
