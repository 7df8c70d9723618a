package dev.ruminate.providers.ollama;

import dev.ruminate.providers.internal.JsonCursor;

/**
 * The fast path for the line that makes up almost all of a streamed Ollama response: a text delta,
 * <pre>{"model":"…","created_at":"…","message":{"role":"assistant","content":"…","thinking":"…"},"done":false}</pre>
 * on {@code /api/chat}, or {@code {"model":"…","created_at":"…","response":"…","thinking":"…","done":false}}
 * on {@code /api/generate}. Read by its bytes ({@link JsonCursor}): the head's scalars are skipped,
 * not tokenized, and the one or two strings that matter decoded; the result fills an
 * {@link OllamaLine} exactly as {@link OllamaLineParser} would.
 *
 * <p>It recognises, in any order and with any whitespace, one JSON object of: {@code done} only as
 * {@code false}; {@code response} and {@code thinking} as strings or {@code null};
 * {@code prompt_eval_count}, {@code eval_count} and {@code error} only as {@code null}; a
 * {@code message} object (or {@code null}) of {@code content} and {@code thinking} as strings or
 * {@code null}, {@code tool_calls} only as {@code null} or {@code []}, and other scalars
 * ({@code role}, …); other scalars ({@code model}, {@code created_at}, {@code done_reason}, …),
 * which the full parser reads as text or skips. The text ({@code response} or
 * {@code message.content}) and the thinking (top-level or in {@code message}) may each appear once.
 * Anything else (a {@code done} that is not {@code false}, tool calls, usage counts, an error, a
 * nested value where a scalar is expected, a number where text belongs, a repeated text field, a
 * property name with an escape, malformed JSON, anything after the object) is "not recognised":
 * {@link #scan} returns false and the caller parses the line with Jackson, which decodes it or fails
 * it as before.
 *
 * <p>The {@code model} is skipped, not read: use the fast path only once the response has started,
 * when the decoder no longer reads it.
 *
 * <p>One per decoder; not thread-safe.
 */
final class OllamaDeltaScanner {

    private static final byte[] MESSAGE = JsonCursor.ascii("message");
    private static final byte[] RESPONSE = JsonCursor.ascii("response");
    private static final byte[] CONTENT = JsonCursor.ascii("content");
    private static final byte[] THINKING = JsonCursor.ascii("thinking");
    private static final byte[] DONE = JsonCursor.ascii("done");
    private static final byte[] TOOL_CALLS = JsonCursor.ascii("tool_calls");
    /** Top-level names the full parser reads as numbers or as an error flag: recognised only as null. */
    private static final byte[][] NULL_ONLY_TOP = {JsonCursor.ascii("prompt_eval_count"), JsonCursor.ascii("eval_count"), JsonCursor.ascii("error")};

    private final JsonCursor json = new JsonCursor();
    /** Whether the line being read has had its text field, its thinking field. */
    private boolean text;
    private boolean thinking;

    /**
     * Reads a line if it is a text delta of the recognised shape.
     *
     * @param array the array holding the line
     * @param offset where the line starts
     * @param length the line's length
     * @param line receives the line (reset first) when recognised; left in an unspecified state
     *     otherwise, for the full parser to reset
     * @return true if the line was read; false to leave it to the full parser
     */
    boolean scan(byte[] array, int offset, int length, OllamaLine line) {
        line.reset();
        text = false;
        thinking = false;
        JsonCursor c = json.reset(array, offset, length);
        if (!c.take('{')) {
            return false;
        }
        if (!c.take('}')) {
            do {
                if (!c.name()) {
                    return false;
                }
                if (c.nameIs(MESSAGE)) {
                    // one attempt per value: a failed attempt may have moved the cursor
                    if (c.peek('{') ? !(c.take('{') && message(c, line)) : !c.nullValue()) {
                        return false;
                    }
                } else if (c.nameIs(RESPONSE)) {
                    if (text || !text(c, line, false)) {
                        return false;
                    }
                    text = true;
                } else if (c.nameIs(THINKING)) {
                    if (thinking || !text(c, line, true)) {
                        return false;
                    }
                    thinking = true;
                } else if (c.nameIs(DONE)) {
                    if (!falseValue(c)) {
                        return false;
                    }
                } else if (c.nameIndex(NULL_ONLY_TOP) >= 0 ? !c.nullValue() : !c.skipScalar()) {
                    return false;
                }
            } while (c.take(','));
            if (!c.take('}')) {
                return false;
            }
        }
        return c.atEnd();
    }

    /** Reads the message object, its opening brace consumed. */
    private boolean message(JsonCursor c, OllamaLine line) {
        if (c.take('}')) {
            return true;
        }
        do {
            if (!c.name()) {
                return false;
            }
            if (c.nameIs(CONTENT)) {
                if (text || !text(c, line, false)) {
                    return false;
                }
                text = true;
            } else if (c.nameIs(THINKING)) {
                if (thinking || !text(c, line, true)) {
                    return false;
                }
                thinking = true;
            } else if (c.nameIs(TOOL_CALLS)) {
                if (c.peek('[') ? !(c.take('[') && c.take(']')) : !c.nullValue()) {
                    return false;
                }
            } else if (!c.skipScalar()) {
                return false;
            }
        } while (c.take(','));
        return c.take('}');
    }

    /** Reads a text field's value: a string, or null (absent). */
    private static boolean text(JsonCursor c, OllamaLine line, boolean thinking) {
        if (!c.peek('"')) {
            return c.nullValue();
        }
        if (!c.stringValue()) {
            return false;
        }
        if (thinking) {
            line.thinking = c.string();
        } else {
            line.content = c.string();
        }
        return true;
    }

    /** Consumes the literal {@code false}: skipped as a scalar only when it is not a string or another literal. */
    private static boolean falseValue(JsonCursor c) {
        return c.peek('f') && c.skipScalar();
    }
}
