package dev.ruminate.providers.chatcompletions;

import dev.ruminate.providers.internal.JsonCursor;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The fast path for the chunk shape that makes up almost all of a streamed answer: one choice whose
 * {@code delta} holds only text ({@code content} and/or the profile's plain reasoning fields), e.g.
 * <pre>{"id":"…","object":"chat.completion.chunk","created":1,"model":"…","choices":[{"index":0,
 * "delta":{"reasoning_content":"…"},"logprobs":null,"finish_reason":null}]}</pre>
 * Read by its bytes ({@link JsonCursor}): the head's scalars are skipped, not tokenized, and the one
 * or two strings that matter decoded; the result fills a {@link Chunk} exactly as
 * {@link ChunkParser} would.
 *
 * <p>It recognises, in any order and with any whitespace: top-level scalars (the head's {@code id},
 * {@code model}, {@code created}, … ; only for a response that has started, since the decoder then
 * no longer reads {@code id} and {@code model}), {@code usage}, {@code x_groq},
 * {@code thought_signature} and {@code error} only as {@code null}, and one {@code choices} array of
 * exactly one choice. The choice: {@code index} {@code 0} or {@code null}, {@code finish_reason}
 * {@code null}, one {@code delta} object, other scalars ({@code logprobs}, …). The delta:
 * {@code content} and the reasoning fields as strings or {@code null}, each at most once;
 * {@code refusal}, {@code tool_calls}, {@code function_call}, {@code extra_content},
 * {@code thought_signature} and {@code reasoning_details} only as {@code null}; other scalars
 * ({@code role}, …), which the full parser skips as well. Anything else (a finish reason, usage,
 * tool calls, a {@code message}, a nested value where a scalar is expected, a second choice, a
 * repeated field that counts, a property name with an escape, malformed JSON, anything after the
 * object) is "not recognised": {@link #scan} returns false and the caller parses the event with
 * Jackson, which decodes it or fails it as before.
 *
 * <p>One per decoder; not thread-safe.
 */
final class DeltaScanner {

    private static final byte[] CHOICES = ascii("choices");
    private static final byte[] INDEX = ascii("index");
    private static final byte[] DELTA = ascii("delta");
    private static final byte[] MESSAGE = ascii("message");
    private static final byte[] FINISH_REASON = ascii("finish_reason");
    private static final byte[] CONTENT = ascii("content");
    /** Top-level names the full parser reads: recognised only as null. */
    private static final byte[][] NULL_ONLY_TOP = {
            ascii("usage"), ascii("x_groq"), ascii("thought_signature"), ascii("error")};
    /** Delta names the full parser reads (besides content and reasoning): recognised only as null. */
    private static final byte[][] NULL_ONLY_DELTA = {
            ascii("refusal"), ascii("tool_calls"), ascii("function_call"), ascii("extra_content"),
            ascii("thought_signature"), ascii("reasoning_details")};

    private final JsonCursor json = new JsonCursor();
    private final List<String> reasoningFields;
    private final byte[][] reasoningNames;

    DeltaScanner(CompatProfile profile) {
        this.reasoningFields = profile.reasoningFields();
        this.reasoningNames = new byte[reasoningFields.size()][];
        for (int i = 0; i < reasoningNames.length; i++) {
            reasoningNames[i] = reasoningFields.get(i).getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * Reads an event's data if it is one chunk of the recognised shape.
     *
     * @param data the event's data
     * @param chunk receives the chunk (reset first) when recognised; left in an unspecified state
     *     otherwise, for the full parser to reset
     * @return true if the chunk was read; false to leave the data to the full parser
     */
    boolean scan(byte[] data, Chunk chunk) {
        chunk.reset();
        JsonCursor c = json.reset(data, data.length);
        if (!c.take('{') || c.peek('}')) {
            return false;
        }
        boolean choices = false;
        do {
            if (!c.name()) {
                return false;
            }
            if (c.nameIs(CHOICES)) {
                if (choices || !choices(c, chunk)) {
                    return false;
                }
                choices = true;
            } else if (anyName(c, NULL_ONLY_TOP) ? !c.nullValue() : !c.skipScalar()) {
                return false;
            }
        } while (c.take(','));
        return c.take('}') && c.atEnd() && choices;
    }

    private boolean choices(JsonCursor c, Chunk chunk) {
        return c.take('[') && c.take('{') && choice(c, chunk) && c.take(']');
    }

    /** Reads the one choice, its opening brace consumed. */
    private boolean choice(JsonCursor c, Chunk chunk) {
        if (c.peek('}')) {
            return false;
        }
        boolean delta = false;
        do {
            if (!c.name()) {
                return false;
            }
            if (c.nameIs(DELTA)) {
                if (delta || !c.take('{') || !delta(c, chunk)) {
                    return false;
                }
                delta = true;
            } else if (c.nameIs(INDEX)) {
                if (!c.zero() && !c.nullValue()) {
                    return false;
                }
            } else if (c.nameIs(FINISH_REASON)) {
                if (!c.nullValue()) {
                    return false;
                }
            } else if (c.nameIs(MESSAGE) || !c.skipScalar()) {
                return false;
            }
        } while (c.take(','));
        return c.take('}') && delta;
    }

    /** Reads the delta, its opening brace consumed. */
    private boolean delta(JsonCursor c, Chunk chunk) {
        if (c.take('}')) {
            return true;
        }
        boolean content = false;
        int reasoningSeen = 0;
        do {
            if (!c.name()) {
                return false;
            }
            if (c.nameIs(CONTENT)) {
                if (content) {
                    return false;
                }
                content = true;
                if (c.stringValue()) {
                    String text = c.string();
                    if (!text.isEmpty()) {
                        chunk.segments.add(new Chunk.Segment(false, text, "content"));
                    }
                } else if (!c.nullValue()) {
                    return false;
                }
            } else if (anyName(c, NULL_ONLY_DELTA)) {
                if (!c.nullValue()) {
                    return false;
                }
            } else {
                int field = reasoningField(c);
                if (field < 0) {
                    if (!c.skipScalar()) {
                        return false;
                    }
                    continue;
                }
                // a name the full parser would offer twice: its rule (the first of equal priority wins) stays its own
                if (field < 32 && (reasoningSeen & (1 << field)) != 0 || field >= 32) {
                    return false;
                }
                reasoningSeen |= 1 << field;
                if (c.stringValue()) {
                    String text = c.string();
                    if (!text.isEmpty()) {
                        chunk.offerReasoning(field, text, reasoningFields.get(field));
                    }
                } else if (!c.nullValue()) {
                    return false;
                }
            }
        } while (c.take(','));
        return c.take('}');
    }

    private int reasoningField(JsonCursor c) {
        for (int i = 0; i < reasoningNames.length; i++) {
            if (c.nameIs(reasoningNames[i])) {
                return i;
            }
        }
        return -1;
    }

    private static boolean anyName(JsonCursor c, byte[][] names) {
        for (byte[] name : names) {
            if (c.nameIs(name)) {
                return true;
            }
        }
        return false;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
