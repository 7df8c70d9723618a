package dev.ruminate.providers.anthropic;

import dev.ruminate.providers.internal.JsonCursor;
import org.jspecify.annotations.Nullable;

/**
 * The fast path for the event that makes up almost all of a streamed message: one
 * {@code content_block_delta} carrying text, reasoning, a signature or a tool call's arguments, e.g.
 * <pre>{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"…"}}</pre>
 * Read by its bytes ({@link JsonCursor}): the index and the one string that matters are read, the
 * rest checked and skipped, and the result is exactly what {@link AnthropicEventParser} would put in
 * {@link WireEvent#index}, {@link WireEvent#deltaType} and {@link WireEvent#deltaText}.
 *
 * <p>It recognises, in any order and with any whitespace: {@code type} exactly
 * {@code "content_block_delta"} (no escape), {@code index} as a plain non-negative integer, one
 * {@code delta} object, and other scalars (which the full parser skips). The delta: {@code type} one
 * of {@code text_delta}, {@code thinking_delta}, {@code input_json_delta} and {@code signature_delta},
 * and the field that type carries ({@code text}, {@code thinking}, {@code partial_json},
 * {@code signature}) as a string or {@code null}, each exactly once; other scalars. Anything else is
 * "not recognised": a name the full parser reads ({@code content_block}, {@code message},
 * {@code usage} at the top, {@code content}, {@code stop_reason} or a text field of another delta type
 * in the delta), a repeated field, a missing one, another delta type, a nested value where a scalar
 * is expected, a property name with an escape, an index the full parser would have to judge
 * ({@code -0}, {@code 1.0}, {@code "1"}), malformed JSON or UTF-8, anything after the object.
 * {@link #scan} then returns false and the caller parses the event with Jackson, which decodes it or
 * fails it as before.
 *
 * <p>The frame is read only during {@link #scan}; nothing of it is kept but the decoded text. One per
 * decoder; not thread-safe.
 */
final class ContentBlockDeltaScanner {

    private static final byte[] TYPE = JsonCursor.ascii("type");
    private static final byte[] INDEX = JsonCursor.ascii("index");
    private static final byte[] DELTA = JsonCursor.ascii("delta");
    private static final byte[] CONTENT_BLOCK_DELTA = JsonCursor.ascii("content_block_delta");
    /** Top-level names the full parser reads: not recognised whatever their value. */
    private static final byte[][] READ_AT_TOP = {JsonCursor.ascii("content_block"), JsonCursor.ascii("message"), JsonCursor.ascii("usage")};
    /** Delta names the full parser reads besides the text fields: not recognised. */
    private static final byte[][] READ_IN_DELTA = {JsonCursor.ascii("content"), JsonCursor.ascii("stop_reason")};
    /** The delta types recognised, and at the same position the field each carries its text in. */
    private static final String[] DELTA_TYPES = {"text_delta", "thinking_delta", "input_json_delta", "signature_delta"};
    private static final byte[][] DELTA_TYPE_BYTES = {
            JsonCursor.ascii(DELTA_TYPES[0]), JsonCursor.ascii(DELTA_TYPES[1]), JsonCursor.ascii(DELTA_TYPES[2]), JsonCursor.ascii(DELTA_TYPES[3])};
    private static final byte[][] TEXT_NAMES = {JsonCursor.ascii("text"), JsonCursor.ascii("thinking"), JsonCursor.ascii("partial_json"), JsonCursor.ascii("signature")};

    private final JsonCursor json = new JsonCursor();
    private int index;
    private @Nullable String deltaType;
    private @Nullable String text;

    /**
     * Reads an event's data if it is one {@code content_block_delta} of the recognised shape.
     *
     * @param data the array holding the data (read during the call only)
     * @param offset where the data start
     * @param length how many bytes they have
     * @return true if the event was read ({@link #index()}, {@link #deltaType()} and {@link #text()}
     *     then hold it); false to leave the data to the full parser
     */
    boolean scan(byte[] data, int offset, int length) {
        index = -1;
        deltaType = null;
        text = null;
        JsonCursor c = json.reset(data, offset, length);
        if (!c.take('{')) {
            return false;
        }
        boolean type = false;
        boolean delta = false;
        do {
            if (!c.name()) {
                return false;
            }
            if (c.nameIs(TYPE)) {
                if (type || !c.stringIs(CONTENT_BLOCK_DELTA)) {
                    return false;
                }
                type = true;
            } else if (c.nameIs(INDEX)) {
                if (index >= 0 || (index = c.plainIndex()) < 0) {
                    return false;
                }
            } else if (c.nameIs(DELTA)) {
                if (delta || !c.take('{') || !delta(c)) {
                    return false;
                }
                delta = true;
            } else if (c.nameIndex(READ_AT_TOP) >= 0 || !c.skipScalar()) {
                return false;
            }
        } while (c.take(','));
        return c.take('}') && c.atEnd() && type && delta && index >= 0;
    }

    /** The block's index, after a successful {@link #scan}. */
    int index() {
        return index;
    }

    /** The delta's type (one of the four recognised), after a successful {@link #scan}. */
    @Nullable String deltaType() {
        return deltaType;
    }

    /** The delta's text, or null when the wire had {@code null}, after a successful {@link #scan}. */
    @Nullable String text() {
        return text;
    }

    /** Reads the delta, its opening brace consumed. */
    private boolean delta(JsonCursor c) {
        int type = -1;
        int textField = -1;
        do {
            if (!c.name()) {
                return false;
            }
            int field;
            if (c.nameIs(TYPE)) {
                if (type >= 0 || (type = deltaTypeValue(c)) < 0) {
                    return false;
                }
            } else if ((field = c.nameIndex(TEXT_NAMES)) >= 0) {
                if (textField >= 0) {
                    return false;
                }
                textField = field;
                if (c.stringValue()) {
                    text = c.string();
                } else if (!c.nullValue()) {
                    return false;
                }
            } else if (c.nameIndex(READ_IN_DELTA) >= 0 || !c.skipScalar()) {
                return false;
            }
        } while (c.take(','));
        if (!c.take('}') || type < 0 || textField != type) {
            return false;
        }
        deltaType = DELTA_TYPES[type];
        return true;
    }

    private static int deltaTypeValue(JsonCursor c) {
        for (int i = 0; i < DELTA_TYPE_BYTES.length; i++) {
            if (c.stringIs(DELTA_TYPE_BYTES[i])) {
                return i;
            }
        }
        return -1;
    }
}
