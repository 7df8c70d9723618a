package dev.ruminate.providers.gemini;

import dev.ruminate.providers.internal.JsonCursor;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The fast path for the chunk that makes up almost all of a streamed Gemini answer: one candidate
 * whose content holds text parts (thought summary or answer), with the usage Gemini repeats on every
 * chunk, e.g.
 * <pre>{"candidates":[{"content":{"parts":[{"text":"…","thought":true}],"role":"model"},"index":0}],
 * "usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":10,"totalTokenCount":275,
 * "promptTokensDetails":[{"modality":"TEXT","tokenCount":9}],"thoughtsTokenCount":256},
 * "modelVersion":"gemini-3-pro-preview","responseId":"dX6LadKVC7SZ28oPr9yJoQs"}</pre>
 * Read by its bytes ({@link JsonCursor}): what {@link GeminiParser} skips is skipped (checked, not
 * tokenized), and the text, the counts and the head's strings are read; the result fills a
 * {@link GeminiChunk} as {@link GeminiParser} would.
 *
 * <p>It recognises, in any order and with any whitespace: one {@code candidates} array of exactly
 * one candidate, at most one {@code usageMetadata}, {@code modelVersion} and {@code responseId}, and
 * any other top-level value but those that {@link GeminiParser} reads ({@code promptFeedback},
 * {@code error} and the Interactions API's {@code event_type}, {@code index}, {@code step},
 * {@code delta}, {@code interaction}). The candidate: at most one {@code content} object,
 * {@code finishReason} only as {@code null}, other values ({@code index}, {@code safetyRatings}, …),
 * which the full parser skips as well. The content: at most one {@code parts} array, other values
 * ({@code role}). Each part: {@code text} and {@code thoughtSignature} as strings or {@code null},
 * {@code thought} as {@code true} or {@code false}, each at most once; other values the full parser
 * skips. {@code usageMetadata}: {@code null}, or an object whose integers are plain non-negative
 * counts of up to 18 digits and whose other values are anything but numbers. Anything else (a
 * function call, code execution, a finish reason, an error, a second candidate, a repeated field that
 * counts, a property name with an escape where names are compared, malformed JSON, anything after
 * the object) is "not recognised": {@link #scan} returns false and the caller parses the event with
 * Jackson, which decodes it or fails it as before.
 *
 * <p>Two things it does not materialise, as nothing reads them: the head's {@code modelVersion} and
 * {@code responseId} once the response has started (checked, left null), and new {@code Long}s for
 * counts equal to the last ones read (the same boxes are reused). The parts it adds are its own,
 * reused from chunk to chunk: the assembler reads them within the call and keeps none.
 *
 * <p>It reads the event only during {@link #scan} and keeps nothing of it. One per decoder; not
 * thread-safe.
 */
final class TextPartScanner {

    private static final byte[] CANDIDATES = JsonCursor.ascii("candidates");
    private static final byte[] USAGE = JsonCursor.ascii("usageMetadata");
    private static final byte[] MODEL_VERSION = JsonCursor.ascii("modelVersion");
    private static final byte[] RESPONSE_ID = JsonCursor.ascii("responseId");
    private static final byte[] CONTENT = JsonCursor.ascii("content");
    private static final byte[] FINISH_REASON = JsonCursor.ascii("finishReason");
    private static final byte[] PARTS = JsonCursor.ascii("parts");
    private static final byte[] TEXT = JsonCursor.ascii("text");
    private static final byte[] THOUGHT = JsonCursor.ascii("thought");
    private static final byte[] THOUGHT_SIGNATURE = JsonCursor.ascii("thoughtSignature");
    private static final byte[] PROMPT_TOKENS = JsonCursor.ascii("promptTokenCount");
    private static final byte[] CANDIDATES_TOKENS = JsonCursor.ascii("candidatesTokenCount");
    private static final byte[] THOUGHTS_TOKENS = JsonCursor.ascii("thoughtsTokenCount");
    private static final byte[] CACHED_TOKENS = JsonCursor.ascii("cachedContentTokenCount");
    /** Top-level names the full parser reads and this scanner does not: never recognised. */
    private static final byte[][] DECLINED_TOP = {
            JsonCursor.ascii("promptFeedback"), JsonCursor.ascii("error"), JsonCursor.ascii("event_type"), JsonCursor.ascii("index"), JsonCursor.ascii("step"),
            JsonCursor.ascii("delta"), JsonCursor.ascii("interaction")};
    /** Part names that make a part something other than text: never recognised. */
    private static final byte[][] DECLINED_PART = {
            JsonCursor.ascii("functionCall"), JsonCursor.ascii("executableCode"), JsonCursor.ascii("codeExecutionResult")};

    private final JsonCursor json = new JsonCursor();
    /** Parts handed out by this scanner, reused from chunk to chunk; {@code used} of them are in the chunk. */
    private final List<GeminiPart> parts = new ArrayList<>();
    private int used;
    /** The last boxed count read for each of the four counts, handed out again while the count stays the same. */
    private final @Nullable Long[] boxes = new Long[4];

    /**
     * Reads an event's data if it is one chunk of the recognised shape.
     *
     * @param data the array holding the event; read during the call only
     * @param offset where the event starts
     * @param length its length in bytes
     * @param readHead whether to read {@code modelVersion} and {@code responseId} (until the response
     *     has started); when false they are checked but left null
     * @param chunk receives the chunk (cleared first) when recognised; left in an unspecified state
     *     otherwise, for the full parser to clear
     * @return true if the chunk was read; false to leave the event to the full parser
     */
    boolean scan(byte[] data, int offset, int length, boolean readHead, GeminiChunk chunk) {
        chunk.clear();
        used = 0;
        JsonCursor c = json.reset(data, offset, length);
        if (!c.take('{') || c.peek('}')) {
            return false;
        }
        boolean candidates = false;
        boolean usage = false;
        boolean model = false;
        boolean id = false;
        do {
            if (!c.name()) {
                return false;
            }
            if (c.nameIs(CANDIDATES)) {
                if (candidates || !candidates(c, chunk)) {
                    return false;
                }
                candidates = true;
            } else if (c.nameIs(USAGE)) {
                if (usage || !usage(c, chunk)) {
                    return false;
                }
                usage = true;
            } else if (c.nameIs(MODEL_VERSION)) {
                int head = head(c, readHead);
                if (model || head == NOT_A_HEAD) {
                    return false;
                }
                model = true;
                chunk.modelVersion = head == READ ? c.string() : null;
            } else if (c.nameIs(RESPONSE_ID)) {
                int head = head(c, readHead);
                if (id || head == NOT_A_HEAD) {
                    return false;
                }
                id = true;
                chunk.responseId = head == READ ? c.string() : null;
            } else if (c.nameIndex(DECLINED_TOP) >= 0 || !c.skipValue()) {
                return false;
            }
        } while (c.take(','));
        return c.take('}') && c.atEnd() && candidates;
    }

    /** What {@link #head} found: not a string or null, a string read ({@link JsonCursor#string()}), or nothing kept. */
    private static final int NOT_A_HEAD = 0;
    private static final int READ = 1;
    private static final int NOT_KEPT = 2;

    /** Reads ({@code read}) or only checks a head value: a string or {@code null}, as the full parser takes it. */
    private static int head(JsonCursor c, boolean read) {
        if (c.nullValue()) {
            return NOT_KEPT;
        }
        if (read) {
            return c.stringValue() ? READ : NOT_A_HEAD;
        }
        return c.skipString() ? NOT_KEPT : NOT_A_HEAD;
    }

    private boolean candidates(JsonCursor c, GeminiChunk chunk) {
        return c.take('[') && c.take('{') && candidate(c, chunk) && c.take(']');
    }

    /** Reads the one candidate, its opening brace consumed. */
    private boolean candidate(JsonCursor c, GeminiChunk chunk) {
        if (c.take('}')) {
            return true;
        }
        boolean content = false;
        do {
            if (!c.name()) {
                return false;
            }
            if (c.nameIs(CONTENT)) {
                if (content || !c.take('{') || !content(c, chunk)) {
                    return false;
                }
                content = true;
            } else if (c.nameIs(FINISH_REASON)) {
                if (!c.nullValue()) {
                    return false;
                }
            } else if (!c.skipValue()) {
                return false;
            }
        } while (c.take(','));
        return c.take('}');
    }

    /** Reads the content, its opening brace consumed. */
    private boolean content(JsonCursor c, GeminiChunk chunk) {
        if (c.take('}')) {
            return true;
        }
        boolean parts = false;
        do {
            if (!c.name()) {
                return false;
            }
            if (c.nameIs(PARTS)) {
                if (parts || !c.take('[') || !parts(c, chunk)) {
                    return false;
                }
                parts = true;
            } else if (!c.skipValue()) {
                return false;
            }
        } while (c.take(','));
        return c.take('}');
    }

    /** Reads the parts, the array's opening bracket consumed. */
    private boolean parts(JsonCursor c, GeminiChunk chunk) {
        if (c.take(']')) {
            return true;
        }
        do {
            if (!c.take('{') || !part(c, chunk)) {
                return false;
            }
        } while (c.take(','));
        return c.take(']');
    }

    /** Reads one part, its opening brace consumed, and adds it to the chunk. */
    private boolean part(JsonCursor c, GeminiChunk chunk) {
        GeminiPart part = nextPart();
        chunk.parts.add(part);
        if (c.take('}')) {
            return true;
        }
        boolean text = false;
        boolean thought = false;
        boolean signature = false;
        do {
            if (!c.name()) {
                return false;
            }
            if (c.nameIs(TEXT)) {
                if (text) {
                    return false;
                }
                text = true;
                if (c.stringValue()) {
                    part.text = c.string();
                } else if (!c.nullValue()) {
                    return false;
                }
            } else if (c.nameIs(THOUGHT)) {
                if (thought) {
                    return false;
                }
                thought = true;
                if (c.booleanValue(true)) {
                    part.thought = true;
                } else if (!c.booleanValue(false)) {
                    return false;
                }
            } else if (c.nameIs(THOUGHT_SIGNATURE)) {
                if (signature) {
                    return false;
                }
                signature = true;
                if (c.stringValue()) {
                    part.signature = c.string();
                } else if (!c.nullValue()) {
                    return false;
                }
            } else if (c.nameIndex(DECLINED_PART) >= 0 || !c.skipValue()) {
                return false;
            }
        } while (c.take(','));
        return c.take('}');
    }

    /**
     * Reads {@code usageMetadata} as {@link GeminiParser} does: every integer marks the chunk as
     * carrying usage, the four it keeps are kept, everything else is skipped. A number that is not a
     * plain count is left to Jackson.
     */
    private boolean usage(JsonCursor c, GeminiChunk chunk) {
        if (c.nullValue()) {
            return true;
        }
        if (!c.take('{')) {
            return false;
        }
        if (c.take('}')) {
            return true;
        }
        do {
            if (!c.name()) {
                return false;
            }
            if (c.atNumber()) {
                long count = c.count();
                if (count < 0) {
                    return false;
                }
                chunk.hasUsage = true;
                if (c.nameIs(PROMPT_TOKENS)) {
                    chunk.promptTokens = box(0, count);
                } else if (c.nameIs(CANDIDATES_TOKENS)) {
                    chunk.candidatesTokens = box(1, count);
                } else if (c.nameIs(THOUGHTS_TOKENS)) {
                    chunk.thoughtsTokens = box(2, count);
                } else if (c.nameIs(CACHED_TOKENS)) {
                    chunk.cachedTokens = box(3, count);
                }
            } else if (!c.skipValue()) {
                return false;
            }
        } while (c.take(','));
        return c.take('}');
    }

    /** Returns the count boxed, the box of the last count of its kind when the count is the same. */
    private Long box(int kind, long count) {
        Long last = boxes[kind];
        if (last != null && last == count) {
            return last;
        }
        Long boxed = count;
        boxes[kind] = boxed;
        return boxed;
    }

    private GeminiPart nextPart() {
        GeminiPart part;
        if (used < parts.size()) {
            part = parts.get(used);
            part.text = null;
            part.thought = false;
            part.signature = null;
        } else {
            part = new GeminiPart();
            parts.add(part);
        }
        used++;
        return part;
    }
}
