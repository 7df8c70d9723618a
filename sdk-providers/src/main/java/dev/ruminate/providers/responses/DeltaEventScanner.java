package dev.ruminate.providers.responses;

import dev.ruminate.providers.internal.JsonCursor;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * The fast path for the events that make up almost all of a streamed response: the four text
 * deltas, e.g.
 * <pre>{"type":"response.output_text.delta","content_index":0,"delta":"Deep","item_id":"msg_…",
 * "logprobs":[],"obfuscation":"aunfrTMKPSG6","output_index":0,"sequence_number":4}</pre>
 * ({@code response.output_text.delta}, {@code response.reasoning_summary_text.delta},
 * {@code response.reasoning_text.delta}, {@code response.function_call_arguments.delta}). Read by
 * their bytes ({@link JsonCursor}): the scalars the decoder does not use are skipped, not tokenized,
 * the type and a repeated item id compared rather than decoded, and the result fills a
 * {@link WireEvent} exactly as {@link ResponsesEventParser#event} would.
 *
 * <p>It recognises one object with, in any order and with any whitespace: {@code type} as one of the
 * four names written without escapes, or {@code null}, or absent (then the SSE {@code event:} name
 * must be one of the four, as the decoder takes that name when the JSON has none);
 * {@code output_index}, {@code content_index} and {@code summary_index} as plain integers of at most
 * nine digits or {@code null}; {@code item_id} and {@code delta} as strings or {@code null}; any
 * other property ({@code sequence_number}, {@code obfuscation}, {@code logprobs}, …), which the full
 * parser skips too, with a scalar or a well-formed array or object nested at most eight deep. A
 * property that appears twice counts with its last value, as with the full parser. Anything else
 * (another type, a property the full parser reads for other events such as {@code text},
 * {@code part}, {@code item} or {@code response}, a number or nested value where a string or an index
 * belongs, a property name with an escape at any depth, deeper nesting, malformed JSON, anything after
 * the object) is "not recognised": {@link #scan} returns false and the caller parses the event with
 * Jackson, which decodes it or fails it as before.
 *
 * <p>One per decoder; not thread-safe. It keeps the last item id it decoded, to hand out the same
 * {@code String} while the deltas of one item follow each other.
 */
final class DeltaEventScanner {

    /** The event types recognised, as the decoder's switch names them (so equal, and never allocated). */
    static final String OUTPUT_TEXT = "response.output_text.delta";
    static final String SUMMARY_TEXT = "response.reasoning_summary_text.delta";
    static final String REASONING_TEXT = "response.reasoning_text.delta";
    static final String ARGUMENTS = "response.function_call_arguments.delta";
    private static final String[] TYPES = {OUTPUT_TEXT, SUMMARY_TEXT, REASONING_TEXT, ARGUMENTS};
    private static final byte[][] TYPE_BYTES = {
            JsonCursor.ascii(OUTPUT_TEXT), JsonCursor.ascii(SUMMARY_TEXT), JsonCursor.ascii(REASONING_TEXT), JsonCursor.ascii(ARGUMENTS)};

    private static final byte[] TYPE = JsonCursor.ascii("type");
    private static final byte[] OUTPUT_INDEX = JsonCursor.ascii("output_index");
    private static final byte[] CONTENT_INDEX = JsonCursor.ascii("content_index");
    private static final byte[] SUMMARY_INDEX = JsonCursor.ascii("summary_index");
    private static final byte[] ITEM_ID = JsonCursor.ascii("item_id");
    private static final byte[] DELTA = JsonCursor.ascii("delta");
    /** Other names the full parser reads (for other events): their presence is left to it. */
    private static final byte[][] READ_ELSEWHERE = {
            JsonCursor.ascii("text"), JsonCursor.ascii("refusal"), JsonCursor.ascii("arguments"), JsonCursor.ascii("input"), JsonCursor.ascii("part"), JsonCursor.ascii("item"),
            JsonCursor.ascii("response")};

    /** An index that is null. */
    private static final int NONE = -1;
    /** An index that is neither a plain small integer nor null. */
    private static final int INVALID = -2;
    /** The JSON's {@code type} is null: the decoder then goes by the SSE event's name. */
    private static final int NULL_TYPE = -2;

    private final JsonCursor json = new JsonCursor();
    /** The last item id decoded, and its bytes when they are its escape-free JSON; for reuse. */
    private @Nullable String lastItemId;
    private byte @Nullable [] lastItemIdBytes;

    /**
     * Reads an event's data if it is one delta event of the recognised shape.
     *
     * @param sseType the SSE {@code event:} name ({@code message} when there was none)
     * @param array the array holding the data; read only during the call, not kept
     * @param offset where the data start
     * @param length how many bytes they have
     * @param event receives the event (reset first) when recognised, its {@code type} set; left in an
     *     unspecified state otherwise
     * @return true if the event was read; false to leave the data to the full parser
     */
    boolean scan(String sseType, byte[] array, int offset, int length, WireEvent event) {
        event.reset();
        JsonCursor c = json.reset(array, offset, length);
        if (!c.take('{') || c.peek('}')) {
            return false;
        }
        int type = NONE;
        do {
            if (!c.name()) {
                return false;
            }
            if (c.nameIs(TYPE)) {
                type = type(c);
                if (type == NONE) {
                    return false;
                }
            } else if (c.nameIs(DELTA)) {
                if (!text(c, event, false)) {
                    return false;
                }
            } else if (c.nameIs(ITEM_ID)) {
                if (!text(c, event, true)) {
                    return false;
                }
            } else if (c.nameIs(OUTPUT_INDEX)) {
                event.outputIndex = index(c);
                if (event.outputIndex == INVALID) {
                    return false;
                }
            } else if (c.nameIs(CONTENT_INDEX)) {
                event.contentIndex = index(c);
                if (event.contentIndex == INVALID) {
                    return false;
                }
            } else if (c.nameIs(SUMMARY_INDEX)) {
                event.summaryIndex = index(c);
                if (event.summaryIndex == INVALID) {
                    return false;
                }
            } else if (c.nameIndex(READ_ELSEWHERE) >= 0 || !c.skipValue()) {
                return false;
            }
        } while (c.take(','));
        if (!c.take('}') || !c.atEnd()) {
            return false;
        }
        if (type >= 0) {
            event.type = TYPES[type];
            return true;
        }
        // no type in the JSON (or a null one): the decoder goes by the SSE event's name
        for (String known : TYPES) {
            if (known.equals(sseType)) {
                event.type = known;
                return true;
            }
        }
        return false;
    }

    /** Reads the type: the index of one of the four, {@link #NULL_TYPE}, or {@link #NONE} for anything else. */
    private static int type(JsonCursor c) {
        for (int i = 0; i < TYPE_BYTES.length; i++) {
            if (c.stringIs(TYPE_BYTES[i])) {
                return i;
            }
        }
        return c.nullValue() ? NULL_TYPE : NONE;
    }

    /** Reads {@code delta} or {@code item_id}: a string or null, as the full parser's text would. */
    private boolean text(JsonCursor c, WireEvent event, boolean itemId) {
        String value;
        byte[] known = lastItemIdBytes;
        // null first: a failed string may have moved the cursor, a failed null only past "null"
        if (c.nullValue()) {
            value = null;
        } else if (itemId && known != null && c.stringIs(known)) {
            value = lastItemId;
        } else if (c.stringValue()) {
            value = c.string();
            if (itemId) {
                remember(value);
            }
        } else {
            return false;
        }
        if (itemId) {
            event.itemId = value;
        } else {
            event.delta = value;
        }
        return true;
    }

    /** Keeps an item id for reuse when its UTF-8 is its JSON as written without escapes (plain ASCII here). */
    private void remember(String id) {
        for (int i = 0; i < id.length(); i++) {
            char ch = id.charAt(i);
            if (ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\') {
                lastItemId = null;
                lastItemIdBytes = null;
                return;
            }
        }
        lastItemId = id;
        lastItemIdBytes = id.getBytes(StandardCharsets.US_ASCII);
    }

    /** Reads an index: its value, -1 for null (as the full parser), or {@link #INVALID} for anything else. */
    private static int index(JsonCursor c) {
        // null first: a failed integer may have moved the cursor, a failed null only past "null"
        if (c.nullValue()) {
            return NONE;
        }
        int i = c.plainIndex();
        return i >= 0 ? i : INVALID;
    }
}
