package dev.ruminate.providers.ollama;

import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.spi.ShapeException;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads one Ollama JSON object (a streamed line, or a whole non-streaming body) into an
 * {@link OllamaLine} with Jackson's streaming parser: no tree, unknown fields skipped (the
 * {@code context} token array of generate, durations, {@code images}, …).
 *
 * <p>Chat objects carry {@code message: {role, content, thinking, tool_calls}}; generate objects
 * carry {@code response} and {@code thinking} at the top level. Both are read, so one parser serves
 * both endpoints. Explicit {@code null}s are absent values.
 *
 * <p>A tool call's {@code arguments} object is kept as the exact bytes it has on the wire (located
 * with the parser's byte offsets), not re-serialized.
 *
 * <p>Stateless and thread-safe.
 */
final class OllamaLineParser {

    /** Knows the names of Ollama's NDJSON lines (see {@link StreamParser#factoryKnowing}). */
    static final JsonFactory JSON = StreamParser.factoryKnowing(
            "model", "created_at", "message", "role", "content", "thinking", "tool_calls", "function", "name",
            "arguments", "index", "done", "done_reason", "total_duration", "load_duration", "prompt_eval_count",
            "prompt_eval_duration", "eval_count", "eval_duration", "response", "error");

    private OllamaLineParser() {
    }

    /**
     * Parses the object in {@code bytes[0, length)}.
     *
     * @throws tools.jackson.core.JacksonException for malformed JSON or anything after the object
     * @throws ShapeException when the value is not an object or a field has an impossible shape
     */
    static void parse(byte[] bytes, int length, OllamaLine line) {
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), bytes, 0, length)) {
            parse(p, bytes, 0, line);
        }
    }

    /**
     * Parses the object that {@code p} reads (a stream's parser just fed the line that starts at
     * {@code offset} in {@code bytes}) into {@code line}. The parser's byte offsets are relative to
     * the line's first byte.
     */
    static void parse(JsonParser p, byte[] bytes, int offset, OllamaLine line) {
        line.reset();
        JsonToken token = p.nextToken();
        if (token != JsonToken.START_OBJECT) {
            throw new ShapeException("a line must be a JSON object, was " + JsonReading.describe(token));
        }
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken value = p.nextToken();
            switch (name) {
                case "model" -> line.model = JsonReading.text(p, value);
                case "message" -> message(p, value, bytes, offset, line);
                case "response" -> line.content = JsonReading.text(p, value);
                case "thinking" -> line.thinking = JsonReading.text(p, value);
                case "done" -> line.done = value == JsonToken.VALUE_TRUE;
                case "done_reason" -> line.doneReason = JsonReading.text(p, value);
                case "prompt_eval_count" -> line.promptEvalCount = JsonReading.number(p, value);
                case "eval_count" -> line.evalCount = JsonReading.number(p, value);
                case "error" -> {
                    line.error = value != JsonToken.VALUE_NULL;
                    p.skipChildren();
                }
                default -> p.skipChildren();
            }
        }
        JsonToken after = p.nextToken();
        if (after != null) {
            throw new StreamReadException(p, "a line must hold one JSON value, found " + JsonReading.describe(after) + " after it");
        }
    }

    private static void message(JsonParser p, JsonToken value, byte[] bytes, int offset, OllamaLine line) {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        if (value != JsonToken.START_OBJECT) {
            throw new ShapeException("`message` must be an object, was " + JsonReading.describe(value));
        }
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken v = p.nextToken();
            switch (name) {
                case "content" -> line.content = JsonReading.text(p, v);
                case "thinking" -> line.thinking = JsonReading.text(p, v);
                case "tool_calls" -> toolCalls(p, v, bytes, offset, line);
                default -> p.skipChildren();
            }
        }
    }

    private static void toolCalls(JsonParser p, JsonToken value, byte[] bytes, int offset, OllamaLine line) {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        if (value != JsonToken.START_ARRAY) {
            throw new ShapeException("`tool_calls` must be an array, was " + JsonReading.describe(value));
        }
        JsonToken element;
        while ((element = p.nextToken()) != JsonToken.END_ARRAY) {
            if (element == JsonToken.START_OBJECT) {
                toolCall(p, bytes, offset, line);
            } else if (element != JsonToken.VALUE_NULL) {
                throw new ShapeException("a tool call must be an object, was " + JsonReading.describe(element));
            }
        }
    }

    private static void toolCall(JsonParser p, byte[] bytes, int offset, OllamaLine line) {
        String id = null;
        String name = null;
        String arguments = "";
        String field;
        while ((field = p.nextName()) != null) {
            JsonToken v = p.nextToken();
            switch (field) {
                case "id" -> id = JsonReading.text(p, v);
                case "function" -> {
                    if (v == JsonToken.VALUE_NULL) {
                        continue;
                    }
                    if (v != JsonToken.START_OBJECT) {
                        throw new ShapeException("`function` must be an object, was " + JsonReading.describe(v));
                    }
                    String fn;
                    while ((fn = p.nextName()) != null) {
                        JsonToken fv = p.nextToken();
                        switch (fn) {
                            case "name" -> name = JsonReading.text(p, fv);
                            case "arguments" -> arguments = arguments(p, fv, bytes, offset);
                            default -> p.skipChildren();
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
        line.toolCalls.add(new OllamaLine.ToolCall(id, name, arguments));
    }

    /** Returns the exact wire text of an object or array; the text of a string; "" for null. */
    private static String arguments(JsonParser p, JsonToken value, byte[] bytes, int offset) {
        if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
            int start = (int) p.currentTokenLocation().getByteOffset();
            p.skipChildren();
            int end = (int) p.currentLocation().getByteOffset();
            return new String(bytes, offset + start, end - start, StandardCharsets.UTF_8);
        }
        String text = JsonReading.text(p, value);
        return text == null ? "" : text;
    }
}
