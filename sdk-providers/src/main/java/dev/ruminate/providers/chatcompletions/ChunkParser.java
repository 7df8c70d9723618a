package dev.ruminate.providers.chatcompletions;

import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.spi.ShapeException;
import java.io.StringWriter;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads Chat Completions chunks ({@code chat.completion.chunk}) and whole bodies
 * ({@code chat.completion}) into a {@link Chunk}, with Jackson's streaming parser: no tree, and
 * unknown subtrees skipped with {@code skipChildren}.
 *
 * <p>Only choice {@code 0} is read. A streamed chunk's choice is read from its {@code delta}, a
 * body's from its {@code message}; the other field is read only when the choice lacks that one,
 * since some servers send a cumulative {@code message} beside each {@code delta}, and reading both
 * would double the text. Explicit {@code null}s are absent values; so are empty reasoning strings.
 *
 * <p>The data of one SSE event may hold several chunk objects in a row: a server that omits the
 * blank line between events has their data lines joined into one event. {@link #nextStreamed}
 * reads them one by one, each as a chunk of its own.
 *
 * @throws tools.jackson.core.JacksonException for malformed JSON, and for a value after the one
 *     allowed (callers map it)
 * @throws ShapeException for JSON of a shape the protocol does not allow
 */
final class ChunkParser {

    /** Knows the names of Chat Completions chunks (see {@link StreamParser#factoryKnowing}). */
    static final JsonFactory JSON = StreamParser.factoryKnowing(
            "id", "object", "created", "model", "system_fingerprint", "service_tier", "provider", "choices", "index",
            "delta", "message", "role", "content", "reasoning_content", "reasoning", "reasoning_text",
            "reasoning_details", "thinking", "signature", "format", "data", "summary", "text", "type", "tool_calls",
            "function", "function_call", "name", "arguments", "refusal", "annotations", "logprobs", "finish_reason",
            "native_finish_reason", "stop_reason", "usage", "prompt_tokens", "completion_tokens", "total_tokens",
            "completion_tokens_details", "reasoning_tokens", "prompt_tokens_details", "cached_tokens",
            "prompt_cache_hit_tokens", "prompt_cache_miss_tokens", "cache_write_tokens", "x_groq", "obfuscation", "error", "code", "param", "extra_content", "google", "thought_signature");

    private static final String DELTA = "delta";
    private static final String MESSAGE = "message";

    private final List<String> reasoningFields;
    private final boolean readsDetails;

    ChunkParser(CompatProfile profile) {
        this.reasoningFields = profile.reasoningFields();
        this.readsDetails = profile.readsReasoningDetails();
    }

    /**
     * Reads the next streamed chunk of an event's data, as if it were an event of its own.
     *
     * @param p the stream's parser, fed the event's data and positioned where the previous call left it
     * @param chunk receives the chunk; {@link Chunk#from} and {@link Chunk#to} say where it lies
     * @return false when the data holds no further value
     * @throws ShapeException when the data's first value is not an object
     * @throws tools.jackson.core.JacksonException for malformed JSON, or when a later value is not
     *     an object: only further chunks may follow a chunk
     */
    boolean nextStreamed(StreamParser p, Chunk chunk) {
        boolean first = p.atEventStart();
        JsonToken token = p.nextToken();
        if (token == null) {
            return false;
        }
        if (token != JsonToken.START_OBJECT) {
            if (first) {
                throw new ShapeException("a chunk must be a JSON object, was " + JsonReading.describe(token));
            }
            throw new StreamReadException(p, "only another chunk object may follow a chunk, found " + JsonReading.describe(token));
        }
        object(p, chunk, DELTA);
        return true;
    }

    /**
     * Reads a whole non-streaming body, which must hold exactly one object.
     *
     * @throws ShapeException when the body's value is not an object
     * @throws tools.jackson.core.JacksonException for malformed JSON, or for anything after the object
     */
    void parseBody(byte[] body, Chunk chunk) {
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), body)) {
            JsonToken token = p.nextToken();
            if (token != JsonToken.START_OBJECT) {
                throw new ShapeException("a body must be a JSON object, was " + JsonReading.describe(token));
            }
            object(p, chunk, MESSAGE);
            JsonToken after = p.nextToken();
            if (after != null) {
                throw new StreamReadException(p, "a body must hold one JSON value, found " + JsonReading.describe(after) + " after it");
            }
        }
    }

    /**
     * Reads one object, its {@code START_OBJECT} just read.
     *
     * @param primary the field a choice is read from: {@code delta} or {@code message}; the other
     *     is read only when a choice lacks this one
     */
    private void object(JsonParser p, Chunk chunk, String primary) {
        chunk.reset();
        chunk.from = (int) p.currentTokenLocation().getByteOffset();
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken value = p.nextToken();
            switch (name) {
                case "id" -> chunk.id = JsonReading.text(p, value);
                case "model" -> chunk.model = JsonReading.text(p, value);
                case "choices" -> choices(p, value, chunk, primary);
                case "usage" -> {
                    chunk.usageRead = true;
                    usage(p, value, chunk.usage);
                }
                case "x_groq" -> {
                    chunk.usageRead = true;
                    groq(p, value, chunk);
                }
                // Gemini's OpenAI-compatible endpoint: some responses put the signature beside choices
                case "thought_signature" -> chunk.offerSignature(JsonReading.text(p, value));
                case "error" -> {
                    chunk.error = value != JsonToken.VALUE_NULL;
                    p.skipChildren();
                }
                default -> p.skipChildren();
            }
        }
        chunk.to = (int) p.currentLocation().getByteOffset();
    }

    private void choices(JsonParser p, JsonToken value, Chunk chunk, String primary) {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        if (value != JsonToken.START_ARRAY) {
            throw new ShapeException("`choices` must be an array, was " + JsonReading.describe(value));
        }
        int position = 0;
        JsonToken element;
        while ((element = p.nextToken()) != JsonToken.END_ARRAY) {
            if (element == JsonToken.START_OBJECT) {
                choice(p, chunk, position, primary);
            } else if (element != JsonToken.VALUE_NULL) {
                throw new ShapeException("a choice must be an object, was " + JsonReading.describe(element));
            }
            position++;
        }
    }

    private void choice(JsonParser p, Chunk chunk, int position, String primary) {
        chunk.mark(chunk.choiceStart);
        String finishBefore = chunk.finishReason;
        long index = position;
        boolean primarySeen = false;
        boolean fallbackRead = false;
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken value = p.nextToken();
            switch (name) {
                case "index" -> index = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : index;
                // an explicit null is an absent field: the other one then still counts
                case "delta", "message" -> {
                    if (value == JsonToken.VALUE_NULL) {
                        continue;
                    }
                    if (name.equals(primary)) {
                        if (fallbackRead) {
                            // the fallback came first: the primary field supersedes what it added
                            chunk.rollback(chunk.fallbackStart);
                            fallbackRead = false;
                        }
                        primarySeen = true;
                        delta(p, value, chunk);
                    } else if (primarySeen) {
                        p.skipChildren();
                    } else {
                        chunk.mark(chunk.fallbackStart);
                        fallbackRead = true;
                        delta(p, value, chunk);
                    }
                }
                case "finish_reason" -> {
                    String reason = JsonReading.text(p, value);
                    if (reason != null && !reason.isEmpty()) {
                        chunk.finishReason = reason;
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (index != 0) {
            // n > 1: only the first choice becomes events
            chunk.rollback(chunk.choiceStart);
            chunk.finishReason = finishBefore;
        }
    }

    private void delta(JsonParser p, JsonToken value, Chunk chunk) {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        if (value != JsonToken.START_OBJECT) {
            throw new ShapeException("`delta` must be an object, was " + JsonReading.describe(value));
        }
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken v = p.nextToken();
            switch (name) {
                case "content" -> content(p, v, chunk);
                // a refusal is what the model says instead of an answer; keep it as answer text
                case "refusal" -> addContent(chunk, JsonReading.text(p, v));
                case "tool_calls" -> toolCalls(p, v, chunk);
                case "function_call" -> {
                    if (v == JsonToken.START_OBJECT) {
                        toolCall(p, chunk, 0);
                    } else {
                        p.skipChildren();
                    }
                }
                // Gemini's OpenAI-compatible endpoint: the thought signature of the message
                case "extra_content" -> chunk.offerSignature(googleSignature(p, v));
                case "thought_signature" -> chunk.offerSignature(JsonReading.text(p, v));
                case "reasoning_details" -> {
                    if (readsDetails) {
                        details(p, v, chunk);
                    } else {
                        p.skipChildren();
                    }
                }
                default -> reasoningField(p, v, name, chunk);
            }
        }
    }

    private void reasoningField(JsonParser p, JsonToken value, String name, Chunk chunk) {
        int priority = reasoningFields.indexOf(name);
        if (priority < 0 || value != JsonToken.VALUE_STRING) {
            // not a reasoning field, or null, or a shape no server sends for one: skipped
            p.skipChildren();
            return;
        }
        String text = p.getString();
        if (!text.isEmpty()) {
            chunk.offerReasoning(priority, text, name);
        }
    }

    private static void addContent(Chunk chunk, @Nullable String text) {
        if (text != null && !text.isEmpty()) {
            chunk.segments.add(new Chunk.Segment(false, text, "content"));
        }
    }

    private static void content(JsonParser p, JsonToken value, Chunk chunk) {
        switch (value) {
            case VALUE_NULL -> { }
            case VALUE_STRING -> addContent(chunk, p.getString());
            case START_ARRAY -> contentArray(p, chunk);
            default -> throw new ShapeException("`content` must be a string, an array or null, was " + JsonReading.describe(value));
        }
    }

    /** Mistral-style content: {@code [{"type":"text","text"}, {"type":"thinking","thinking":[…]}]}. */
    private static void contentArray(JsonParser p, Chunk chunk) {
        JsonToken element;
        while ((element = p.nextToken()) != JsonToken.END_ARRAY) {
            if (element == JsonToken.VALUE_STRING) {
                addContent(chunk, p.getString());
                continue;
            }
            if (element != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            String type = null;
            String text = null;
            String thinking = null;
            String name;
            while ((name = p.nextName()) != null) {
                JsonToken v = p.nextToken();
                switch (name) {
                    case "type" -> type = JsonReading.text(p, v);
                    case "text" -> text = JsonReading.text(p, v);
                    case "thinking" -> thinking = thinkingText(p, v);
                    default -> p.skipChildren();
                }
            }
            if ("text".equals(type)) {
                addContent(chunk, text);
            } else if ("thinking".equals(type) && thinking != null && !thinking.isEmpty()) {
                chunk.segments.add(new Chunk.Segment(true, thinking, "thinking"));
            }
        }
    }

    /** Reads a thinking value: a string, or an array of {@code {"type":"text","text"}} joined. */
    private static @Nullable String thinkingText(JsonParser p, JsonToken value) {
        if (value != JsonToken.START_ARRAY) {
            return JsonReading.text(p, value);
        }
        StringBuilder sb = new StringBuilder();
        JsonToken element;
        while ((element = p.nextToken()) != JsonToken.END_ARRAY) {
            if (element != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            String name;
            while ((name = p.nextName()) != null) {
                JsonToken v = p.nextToken();
                if ("text".equals(name)) {
                    String t = JsonReading.text(p, v);
                    if (t != null) {
                        sb.append(t);
                    }
                } else {
                    p.skipChildren();
                }
            }
        }
        return sb.toString();
    }

    private static void toolCalls(JsonParser p, JsonToken value, Chunk chunk) {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        if (value != JsonToken.START_ARRAY) {
            throw new ShapeException("`tool_calls` must be an array, was " + JsonReading.describe(value));
        }
        int position = 0;
        JsonToken element;
        while ((element = p.nextToken()) != JsonToken.END_ARRAY) {
            if (element == JsonToken.START_OBJECT) {
                toolCall(p, chunk, position);
            } else if (element != JsonToken.VALUE_NULL) {
                throw new ShapeException("a tool call must be an object, was " + JsonReading.describe(element));
            }
            position++;
        }
    }

    /** Reads a {@code tool_calls} element, or a legacy {@code function_call} object (no index, no id). */
    private static void toolCall(JsonParser p, Chunk chunk, int position) {
        int index = -1;
        String id = null;
        String name = null;
        String arguments = null;
        String signature = null;
        boolean legacy = true;
        String field;
        while ((field = p.nextName()) != null) {
            JsonToken v = p.nextToken();
            switch (field) {
                case "index" -> index = v == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : index;
                case "id" -> id = JsonReading.text(p, v);
                case "extra_content" -> signature = googleSignature(p, v);
                case "function" -> {
                    legacy = false;
                    if (v == JsonToken.START_OBJECT) {
                        String fn;
                        while ((fn = p.nextName()) != null) {
                            JsonToken fv = p.nextToken();
                            switch (fn) {
                                case "name" -> name = JsonReading.text(p, fv);
                                case "arguments" -> arguments = arguments(p, fv);
                                default -> p.skipChildren();
                            }
                        }
                    } else if (v != JsonToken.VALUE_NULL) {
                        throw new ShapeException("`function` must be an object, was " + JsonReading.describe(v));
                    }
                }
                // the legacy function_call object holds name and arguments directly
                case "name" -> name = JsonReading.text(p, v);
                case "arguments" -> arguments = arguments(p, v);
                default -> p.skipChildren();
            }
        }
        if (legacy && index < 0 && id == null) {
            index = 0;
        }
        chunk.tools.add(new Chunk.ToolFragment(index, position, id, name, arguments, signature));
    }

    /**
     * Reads Gemini's {@code extra_content: {"google": {"thought_signature": …}}}; anything else in
     * it is skipped.
     *
     * @return the signature, or null when there is none
     */
    private static @Nullable String googleSignature(JsonParser p, JsonToken value) {
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return null;
        }
        String signature = null;
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken v = p.nextToken();
            if ("google".equals(name) && v == JsonToken.START_OBJECT) {
                String inner;
                while ((inner = p.nextName()) != null) {
                    JsonToken iv = p.nextToken();
                    if ("thought_signature".equals(inner)) {
                        signature = JsonReading.text(p, iv);
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
        return signature;
    }

    /**
     * Reads {@code arguments}: normally a JSON string; some servers send the object itself, which is
     * kept as its JSON text.
     */
    private static @Nullable String arguments(JsonParser p, JsonToken value) {
        if (value != JsonToken.START_OBJECT && value != JsonToken.START_ARRAY) {
            return JsonReading.text(p, value);
        }
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JsonWriting.JSON.createGenerator(ObjectWriteContext.empty(), out)) {
            g.copyCurrentStructure(p);
        }
        return out.toString();
    }

    private static void details(JsonParser p, JsonToken value, Chunk chunk) {
        if (value != JsonToken.START_ARRAY) {
            p.skipChildren();
            return;
        }
        JsonToken element;
        while ((element = p.nextToken()) != JsonToken.END_ARRAY) {
            if (element != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            String type = null;
            String text = null;
            String summary = null;
            String signature = null;
            String data = null;
            String id = null;
            String format = null;
            int index = -1;
            String name;
            while ((name = p.nextName()) != null) {
                JsonToken v = p.nextToken();
                switch (name) {
                    case "type" -> type = JsonReading.text(p, v);
                    case "text" -> text = JsonReading.text(p, v);
                    case "summary" -> summary = JsonReading.text(p, v);
                    case "signature" -> signature = JsonReading.text(p, v);
                    case "data" -> data = JsonReading.text(p, v);
                    case "id" -> id = JsonReading.text(p, v);
                    case "format" -> format = JsonReading.text(p, v);
                    case "index" -> index = v == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : index;
                    default -> p.skipChildren();
                }
            }
            chunk.details.add(new Chunk.Detail(type, text, summary, signature, data, id, format, index));
        }
    }

    private static void usage(JsonParser p, JsonToken value, Chunk.UsageCounts usage) {
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken v = p.nextToken();
            switch (name) {
                case "prompt_tokens" -> usage.input = JsonReading.number(p, v);
                case "completion_tokens" -> usage.output = JsonReading.number(p, v);
                case "prompt_cache_hit_tokens" -> usage.cacheHit = JsonReading.number(p, v);
                case "cached_tokens" -> usage.cachedTopLevel = JsonReading.number(p, v);
                case "completion_tokens_details" -> {
                    Long reasoning = nested(p, v, "reasoning_tokens");
                    if (reasoning != null) {
                        usage.reasoning = reasoning;
                    }
                }
                case "prompt_tokens_details" -> promptDetails(p, v, usage);
                default -> p.skipChildren();
            }
        }
    }

    /**
     * Reads {@code prompt_tokens_details}: {@code cached_tokens} (cache reads) and OpenRouter's
     * {@code cache_write_tokens} (tokens written to a cache the upstream bills, Anthropic's).
     */
    private static void promptDetails(JsonParser p, JsonToken value, Chunk.UsageCounts usage) {
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken v = p.nextToken();
            switch (name) {
                case "cached_tokens" -> {
                    Long cached = JsonReading.number(p, v);
                    if (cached != null) {
                        usage.cached = cached;
                    }
                }
                case "cache_write_tokens" -> {
                    Long written = JsonReading.number(p, v);
                    if (written != null) {
                        usage.cacheWrite = written;
                    }
                }
                default -> p.skipChildren();
            }
        }
    }

    private static @Nullable Long nested(JsonParser p, JsonToken value, String field) {
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return null;
        }
        Long result = null;
        while (JsonReading.nextPropertyNamed(p, field)) {
            result = JsonReading.number(p, p.currentToken());
        }
        return result;
    }

    /** Groq repeats usage inside {@code x_groq} (on some recordings only there). */
    private static void groq(JsonParser p, JsonToken value, Chunk chunk) {
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (JsonReading.nextPropertyNamed(p, "usage")) {
            usage(p, p.currentToken(), chunk.groqUsage);
        }
    }
}
