package dev.ruminate.providers.chatcompletions;

import dev.ruminate.providers.internal.JsonCursor;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The fast path for the chunk shapes that make up almost all of a streamed answer: one choice whose
 * {@code delta} holds only text ({@code content} and/or the profile's plain reasoning fields), e.g.
 * <pre>{"id":"…","object":"chat.completion.chunk","created":1,"model":"…","choices":[{"index":0,
 * "delta":{"reasoning_content":"…"},"logprobs":null,"finish_reason":null}]}</pre>
 * or tool-call fragments, e.g. {@code "delta":{"tool_calls":[{"index":0,"function":{"arguments":"…"}}]}}
 * (the first fragment of a call with its {@code id}, {@code type} and {@code function.name} too).
 * Read by its bytes ({@link JsonCursor}): the head's scalars are skipped, not tokenized, the
 * strings that matter decoded, and names told apart by a {@link NameTable}; the result fills a
 * {@link Chunk} exactly as {@link ChunkParser} would.
 *
 * <p>It recognises, in any order and with any whitespace: top-level scalars (the head's {@code id},
 * {@code model}, {@code created}, … ; only for a response that has started, since the decoder then
 * no longer reads {@code id} and {@code model}), {@code usage}, {@code x_groq},
 * {@code thought_signature} and {@code error} only as {@code null}, and one {@code choices} array of
 * exactly one choice. The choice: {@code index} {@code 0} or {@code null}, {@code finish_reason}
 * {@code null}, one {@code delta} object, other scalars ({@code logprobs}, …). The delta:
 * {@code content} and the reasoning fields as strings or {@code null}, each at most once;
 * {@code tool_calls} as {@code null} or, at most once, an array of {@code null}s and tool calls;
 * {@code refusal}, {@code function_call}, {@code extra_content}, {@code thought_signature} and
 * {@code reasoning_details} only as {@code null}; other scalars ({@code role}, …), which the full
 * parser skips as well. A tool call: {@code index} a non-negative integer of at most nine digits,
 * {@code id} a string or {@code null}, {@code function} an object whose {@code name} and
 * {@code arguments} are strings or {@code null} and whose other members are scalars,
 * {@code extra_content} {@code null}, other scalars ({@code type}, …); each at most once. Anything
 * else (a finish reason, usage, a {@code message}, arguments as an object, a legacy
 * {@code name} or {@code arguments} beside {@code function}, a nested value where a scalar is
 * expected, a second choice, a repeated field that counts, a property name with an escape,
 * malformed JSON, anything after the object) is "not recognised": {@link #scan} returns false and
 * the caller parses the event with Jackson, which decodes it or fails it as before.
 *
 * <p>Lent frames: {@link #scan} reads the range it is given and keeps nothing of it (the cursor is
 * pointed away from the array before it returns); what it keeps are the decoded strings.
 *
 * <p>One per decoder; not thread-safe.
 */
final class DeltaScanner {

    private static final byte[] NO_BYTES = new byte[0];

    /** Codes of the names the scanner tells apart; each table uses those of its own object. */
    private static final int CHOICES = 0;
    private static final int NULL_ONLY = 1;
    private static final int INDEX = 2;
    private static final int DELTA = 3;
    private static final int MESSAGE = 4;
    private static final int FINISH_REASON = 5;
    private static final int CONTENT = 6;
    private static final int TOOL_CALLS = 7;
    private static final int ID = 8;
    private static final int FUNCTION = 9;
    private static final int NAME = 10;
    private static final int ARGUMENTS = 11;
    /** A reasoning field's code: this plus its priority (its place in the profile's list). */
    private static final int REASONING = 100;

    /** A head longer than this is not remembered (an OpenAI head is about 100 bytes). */
    private static final int MAX_HEAD = 512;
    /** Top-level names: usage, x_groq, thought_signature and error are read by the full parser, so null only. */
    private static final NameTable TOP = NameTable.builder().add("choices", CHOICES).add("usage", NULL_ONLY)
            .add("x_groq", NULL_ONLY).add("thought_signature", NULL_ONLY).add("error", NULL_ONLY).build();
    private static final NameTable CHOICE = NameTable.builder().add("delta", DELTA).add("index", INDEX)
            .add("finish_reason", FINISH_REASON).add("message", MESSAGE).build();
    /** A tool call's names; a legacy name or arguments beside function is left to the full parser. */
    private static final NameTable TOOL_CALL = NameTable.builder().add("index", INDEX).add("id", ID)
            .add("function", FUNCTION).add("extra_content", NULL_ONLY).add("name", NAME).add("arguments", ARGUMENTS)
            .build();
    private static final NameTable TOOL_FUNCTION = NameTable.builder().add("name", NAME).add("arguments", ARGUMENTS)
            .build();

    private final JsonCursor json = new JsonCursor();
    /** The last plain chunk head read, up to the colon after {@code "choices"}; see {@link #rememberHead}. */
    private byte[] head = NO_BYTES;
    private int headLength;
    private final List<String> reasoningFields;
    /** The delta's names: the full parser's cases first, so that a reasoning field cannot take one of theirs. */
    private final NameTable deltaNames;
    /** What the last tool call's {@code function} held. */
    private @Nullable String functionName;
    private @Nullable String functionArguments;

    DeltaScanner(CompatProfile profile) {
        this.reasoningFields = profile.reasoningFields();
        NameTable.Builder delta = NameTable.builder().add("content", CONTENT).add("refusal", NULL_ONLY)
                .add("tool_calls", TOOL_CALLS).add("function_call", NULL_ONLY).add("extra_content", NULL_ONLY)
                .add("thought_signature", NULL_ONLY).add("reasoning_details", NULL_ONLY);
        for (int i = 0; i < reasoningFields.size(); i++) {
            delta.add(reasoningFields.get(i), REASONING + i);
        }
        this.deltaNames = delta.build();
    }

    /**
     * Reads an event's data if it is one chunk of a recognised shape.
     *
     * @param array the array holding the data; read during the call only
     * @param offset where the data start
     * @param length how many bytes they have
     * @param chunk receives the chunk (reset first) when recognised; left in an unspecified state
     *     otherwise, for the full parser to reset
     * @return true if the chunk was read; false to leave the data to the full parser
     * @throws IndexOutOfBoundsException if the range is not inside {@code array}
     */
    boolean scan(byte[] array, int offset, int length, Chunk chunk) {
        chunk.reset();
        boolean read = object(json.reset(array, offset, length), chunk);
        json.reset(NO_BYTES, 0, 0); // keeps nothing of a lent frame
        return read;
    }

    private boolean object(JsonCursor c, Chunk chunk) {
        int start = c.position();
        boolean choices = false;
        if (headLength > 0 && c.skipKnown(head, headLength)) {
            // the same head as a chunk read before, up to the colon after "choices": read as it was, nothing seen yet
            if (!choices(c, chunk)) {
                return false;
            }
            choices = true;
            if (!c.take(',')) {
                return c.take('}') && c.atEnd();
            }
        } else if (!c.take('{') || c.peek('}')) {
            return false;
        }
        // only skipped scalars before "choices" make a head worth remembering: the state after it is then empty
        boolean plainHead = !choices;
        do {
            if (!c.name()) {
                return false;
            }
            switch (TOP.find(c)) {
                case CHOICES -> {
                    if (choices) {
                        return false;
                    }
                    if (plainHead) {
                        rememberHead(c, start);
                    }
                    if (!choices(c, chunk)) {
                        return false;
                    }
                    choices = true;
                }
                case NULL_ONLY -> {
                    plainHead = false;
                    if (!c.nullValue()) {
                        return false;
                    }
                }
                default -> {
                    if (!c.skipScalar()) {
                        return false;
                    }
                }
            }
        } while (c.take(','));
        return c.take('}') && c.atEnd() && choices;
    }

    /**
     * Remembers the bytes from the data's start to the colon after {@code "choices"}: a stream repeats
     * its chunk head ({@code id}, {@code object}, {@code created}, {@code model}, …) byte for byte, and
     * a head equal to one read strictly before reads the same, so later chunks compare it instead of
     * scanning it. Every token in it ends before it does (a scalar at the comma after it, a name at its
     * colon), so what follows cannot change how it reads.
     */
    private void rememberHead(JsonCursor c, int start) {
        int n = c.position() - start;
        if (n > MAX_HEAD) {
            headLength = 0;
            return;
        }
        if (head.length < n) {
            head = new byte[Math.max(n, 128)];
        }
        headLength = c.copyReadSince(start, head);
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
            switch (CHOICE.find(c)) {
                case DELTA -> {
                    if (delta || !c.take('{') || !delta(c, chunk)) {
                        return false;
                    }
                    delta = true;
                }
                case INDEX -> {
                    if (!c.zero() && !c.nullValue()) {
                        return false;
                    }
                }
                case FINISH_REASON -> {
                    if (!c.nullValue()) {
                        return false;
                    }
                }
                case MESSAGE -> {
                    return false;
                }
                default -> {
                    if (!c.skipScalar()) {
                        return false;
                    }
                }
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
        boolean toolCalls = false;
        int reasoningSeen = 0;
        do {
            if (!c.name()) {
                return false;
            }
            int code = deltaNames.find(c);
            switch (code) {
                case CONTENT -> {
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
                }
                case TOOL_CALLS -> {
                    // a second array would add to the first: the full parser's to read
                    if (toolCalls || !toolCalls(c, chunk)) {
                        return false;
                    }
                    toolCalls = true;
                }
                case NULL_ONLY -> {
                    if (!c.nullValue()) {
                        return false;
                    }
                }
                case NameTable.NONE -> {
                    if (!c.skipScalar()) {
                        return false;
                    }
                }
                default -> {
                    int field = code - REASONING;
                    // a name the full parser would offer twice: its rule (the first of equal priority wins) stays its own
                    if (field >= 32 || (reasoningSeen & (1 << field)) != 0) {
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
            }
        } while (c.take(','));
        return c.take('}');
    }

    /** Reads the value of {@code tool_calls}: null, or an array of nulls and tool calls. */
    private boolean toolCalls(JsonCursor c, Chunk chunk) {
        if (c.nullValue()) {
            return true;
        }
        if (!c.take('[')) {
            return false;
        }
        if (c.take(']')) {
            return true;
        }
        int position = 0;
        do {
            // a null element takes a position, as in the full parser
            if (!c.nullValue() && !(c.take('{') && toolCall(c, chunk, position))) {
                return false;
            }
            position++;
        } while (c.take(','));
        return c.take(']');
    }

    /** Reads one tool call, its opening brace consumed, and adds its fragment as the full parser would. */
    private boolean toolCall(JsonCursor c, Chunk chunk, int position) {
        int index = -1;
        String id = null;
        boolean idSeen = false;
        boolean functionSeen = false;
        functionName = null;
        functionArguments = null;
        if (!c.take('}')) {
            do {
                if (!c.name()) {
                    return false;
                }
                switch (TOOL_CALL.find(c)) {
                    case INDEX -> {
                        if (index >= 0) {
                            return false;
                        }
                        index = c.plainIndex();
                        if (index < 0) {
                            return false;
                        }
                    }
                    case ID -> {
                        if (idSeen) {
                            return false;
                        }
                        idSeen = true;
                        if (c.stringValue()) {
                            id = c.string();
                        } else if (!c.nullValue()) {
                            return false;
                        }
                    }
                    case FUNCTION -> {
                        if (functionSeen || !c.take('{') || !function(c)) {
                            return false;
                        }
                        functionSeen = true;
                    }
                    case NULL_ONLY -> {
                        if (!c.nullValue()) {
                            return false;
                        }
                    }
                    case NAME, ARGUMENTS -> {
                        return false;
                    }
                    default -> {
                        if (!c.skipScalar()) {
                            return false;
                        }
                    }
                }
            } while (c.take(','));
            if (!c.take('}')) {
                return false;
            }
        }
        // the full parser's rule for a legacy call (no function object) without index or id
        if (!functionSeen && index < 0 && id == null) {
            index = 0;
        }
        chunk.tools.add(new Chunk.ToolFragment(index, position, id, functionName, functionArguments, null));
        return true;
    }

    /** Reads a tool call's {@code function} object, its opening brace consumed, into the function fields. */
    private boolean function(JsonCursor c) {
        if (c.take('}')) {
            return true;
        }
        boolean name = false;
        boolean arguments = false;
        do {
            if (!c.name()) {
                return false;
            }
            switch (TOOL_FUNCTION.find(c)) {
                case NAME -> {
                    if (name) {
                        return false;
                    }
                    name = true;
                    if (c.stringValue()) {
                        functionName = c.string();
                    } else if (!c.nullValue()) {
                        return false;
                    }
                }
                case ARGUMENTS -> {
                    if (arguments) {
                        return false;
                    }
                    arguments = true;
                    if (c.stringValue()) {
                        functionArguments = c.string();
                    } else if (!c.nullValue()) {
                        return false;
                    }
                }
                default -> {
                    if (!c.skipScalar()) {
                        return false;
                    }
                }
            }
        } while (c.take(','));
        return c.take('}');
    }
}
