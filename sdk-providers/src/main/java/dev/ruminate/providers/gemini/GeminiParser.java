package dev.ruminate.providers.gemini;

import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.spi.ShapeException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads one Gemini JSON object (a stream chunk, a whole {@code generateContent} body, or an
 * Interactions event) into a {@link GeminiChunk} with Jackson's streaming parser. Only the first
 * candidate is read: Ruminate asks for one. Values kept as JSON ({@code args}, code-execution
 * parts, errors) are copied byte for byte from the input. Unknown fields are skipped.
 */
final class GeminiParser {

    /** Knows the names of Gemini stream chunks (see {@link StreamParser#factoryKnowing}). */
    static final JsonFactory JSON = StreamParser.factoryKnowing(
            "candidates", "content", "parts", "text", "thought", "thoughtSignature", "role", "functionCall", "name",
            "args", "id", "partialArgs", "jsonPath", "stringValue", "numberValue", "boolValue", "nullValue",
            "willContinue", "finishReason", "index", "safetyRatings", "category", "probability", "usageMetadata",
            "promptTokenCount", "candidatesTokenCount", "totalTokenCount", "thoughtsTokenCount",
            "cachedContentTokenCount", "promptTokensDetails", "candidatesTokensDetails", "modality", "tokenCount",
            "modelVersion", "responseId", "createTime", "promptFeedback", "blockReason", "executableCode", "language",
            "code", "codeExecutionResult", "outcome", "output", "error", "message", "status");

    private GeminiParser() {
    }

    /**
     * Parses {@code data} into {@code chunk}, which is cleared first.
     *
     * @throws tools.jackson.core.JacksonException for malformed JSON
     * @throws ShapeException for JSON of the wrong shape
     */
    static void parse(byte[] data, GeminiChunk chunk) {
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), data)) {
            parse(p, new Source(data, 0), chunk);
        }
    }

    /**
     * Parses the event that {@code p} reads (a stream's parser just fed it {@code data} from
     * {@code offset}) into {@code chunk}. The event may be lent: what the chunk keeps is copied out of
     * {@code data}, nothing refers to it after the call.
     */
    static void parse(JsonParser p, byte[] data, int offset, GeminiChunk chunk) {
        parse(p, new Source(data, offset), chunk);
    }

    /**
     * The array the parser reads and where the event starts in it: the parser reports locations
     * relative to the event, values kept as JSON are copied from {@code offset} plus those.
     */
    private record Source(byte[] data, int offset) {

        /** Copies the event's bytes between two locations the parser reported. */
        String copy(long from, long to) {
            return new String(data, offset + (int) from, (int) (to - from), StandardCharsets.UTF_8);
        }
    }

    private static void parse(JsonParser p, Source data, GeminiChunk chunk) {
        chunk.clear();
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new ShapeException("a Gemini event must be a JSON object");
        }
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            switch (field) {
                case "candidates" -> candidates(p, t, data, chunk);
                case "usageMetadata" -> usage(p, t, chunk);
                case "modelVersion" -> chunk.modelVersion = string(p, t);
                case "responseId" -> chunk.responseId = string(p, t);
                case "promptFeedback" -> promptFeedback(p, t, chunk);
                case "error" -> chunk.error = raw(p, data);
                case "event_type" -> chunk.eventType = string(p, t);
                case "index" -> chunk.index = t == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : -1;
                case "step" -> strings(p, t, data, chunk.step);
                case "delta" -> strings(p, t, data, chunk.delta);
                case "interaction" -> interaction(p, t, chunk);
                default -> p.skipChildren();
            }
        }
        if (p.nextToken() != null) {
            throw new ShapeException("text after the JSON object");
        }
    }

    private static void candidates(JsonParser p, JsonToken t, Source data, GeminiChunk chunk) {
        if (t != JsonToken.START_ARRAY) {
            throw new ShapeException("candidates must be an array");
        }
        boolean first = true;
        while (p.nextToken() == JsonToken.START_OBJECT) {
            if (!first) {
                p.skipChildren();
                continue;
            }
            first = false;
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                if (field.equals("content") && v == JsonToken.START_OBJECT) {
                    content(p, data, chunk);
                } else if (field.equals("finishReason")) {
                    chunk.finishReason = string(p, v);
                } else {
                    p.skipChildren();
                }
            }
        }
    }

    private static void content(JsonParser p, Source data, GeminiChunk chunk) {
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            if (field.equals("parts") && v == JsonToken.START_ARRAY) {
                while (p.nextToken() == JsonToken.START_OBJECT) {
                    chunk.parts.add(part(p, data));
                }
            } else {
                p.skipChildren();
            }
        }
    }

    private static GeminiPart part(JsonParser p, Source data) {
        GeminiPart part = new GeminiPart();
        long from = p.currentTokenLocation().getByteOffset();
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "text" -> part.text = string(p, v);
                case "thought" -> part.thought = v == JsonToken.VALUE_TRUE;
                case "thoughtSignature" -> part.signature = string(p, v);
                case "functionCall" -> functionCall(p, v, data, part);
                case "executableCode", "codeExecutionResult" -> {
                    part.serverType = field;
                    p.skipChildren();
                }
                default -> p.skipChildren();
            }
        }
        if (part.serverType != null) {
            long to = p.currentLocation().getByteOffset();
            part.serverJson = data.copy(from, to);
        }
        return part;
    }

    private static void functionCall(JsonParser p, JsonToken v, Source data, GeminiPart part) {
        if (v != JsonToken.START_OBJECT) {
            throw new ShapeException("functionCall must be an object");
        }
        part.functionCall = true;
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            switch (field) {
                case "name" -> part.callName = string(p, t);
                case "id" -> part.callId = string(p, t);
                case "args" -> part.callArgs = raw(p, data);
                case "willContinue" -> part.callWillContinue = t == JsonToken.VALUE_TRUE;
                case "partialArgs" -> partialArgs(p, t, data, part);
                default -> p.skipChildren();
            }
        }
    }

    private static void partialArgs(JsonParser p, JsonToken t, Source data, GeminiPart part) {
        if (t != JsonToken.START_ARRAY) {
            throw new ShapeException("partialArgs must be an array");
        }
        while (p.nextToken() == JsonToken.START_OBJECT) {
            String path = null;
            String json = null;
            String text = null;
            boolean more = false;
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                switch (field) {
                    case "jsonPath" -> path = string(p, v);
                    case "stringValue" -> text = string(p, v);
                    case "numberValue", "boolValue", "nullValue", "structValue", "listValue" ->
                            json = field.equals("nullValue") ? "null" : raw(p, data);
                    case "willContinue" -> more = v == JsonToken.VALUE_TRUE;
                    default -> p.skipChildren();
                }
            }
            if (path == null) {
                throw new ShapeException("a partialArgs entry without jsonPath");
            }
            part.partialArgs.add(new GeminiPart.PartialArg(path, json, text, more));
        }
    }

    private static void usage(JsonParser p, JsonToken t, GeminiChunk chunk) {
        if (t != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        String field;
        while ((field = JsonReading.nextIntegerProperty(p)) != null) {
            switch (field) {
                case "promptTokenCount" -> chunk.promptTokens = p.getLongValue();
                case "candidatesTokenCount" -> chunk.candidatesTokens = p.getLongValue();
                case "thoughtsTokenCount" -> chunk.thoughtsTokens = p.getLongValue();
                case "cachedContentTokenCount" -> chunk.cachedTokens = p.getLongValue();
                default -> {
                    // totalTokenCount is derived; tool-use prompt counts are part of the input
                }
            }
            chunk.hasUsage = true;
        }
    }

    private static void promptFeedback(JsonParser p, JsonToken t, GeminiChunk chunk) {
        if (t != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (JsonReading.nextPropertyNamed(p, "blockReason")) {
            chunk.blockReason = string(p, p.currentToken());
        }
    }

    /** Interactions: {@code interaction} with id, model, status and usage. */
    private static void interaction(JsonParser p, JsonToken t, GeminiChunk chunk) {
        if (t != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            if (field.equals("usage") && v == JsonToken.START_OBJECT) {
                String u;
                while ((u = JsonReading.nextIntegerProperty(p)) != null) {
                    switch (u) {
                        case "total_input_tokens" -> chunk.promptTokens = p.getLongValue();
                        case "total_output_tokens" -> chunk.candidatesTokens = p.getLongValue();
                        case "total_thought_tokens" -> chunk.thoughtsTokens = p.getLongValue();
                        case "total_cached_tokens" -> chunk.cachedTokens = p.getLongValue();
                        default -> {
                            // totals and per-modality counts are derived
                        }
                    }
                    chunk.hasUsage = true;
                }
            } else if (v == JsonToken.VALUE_STRING) {
                chunk.interaction.put(field, p.getString());
            } else {
                p.skipChildren();
            }
        }
    }

    /**
     * Reads an object's string fields; an {@code arguments} object is kept as JSON text. A text held
     * one level down is read too, under the key {@code summary}: a {@code thought_summary} delta's
     * {@code content: {type: "text", text}} and a thought step's {@code summary: [{type: "text",
     * text}, …]} (joined), the shapes of vercel/ai's {@code google-interactions-api.ts}, decoded
     * tolerantly (UNVERIFIED against a recording: the recorded thought steps have no summary).
     */
    private static void strings(JsonParser p, JsonToken t, Source data, Map<String, String> into) {
        if (t != JsonToken.START_OBJECT) {
            throw new ShapeException("step and delta must be objects");
        }
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            if (v == JsonToken.VALUE_STRING) {
                into.put(field, p.getString());
            } else if (field.equals("arguments") && v == JsonToken.START_OBJECT) {
                into.put(field, raw(p, data));
            } else if (field.equals("content") && v == JsonToken.START_OBJECT) {
                String text = nestedText(p);
                if (text != null) {
                    into.put("summary", text);
                }
            } else if (field.equals("summary") && v == JsonToken.START_ARRAY) {
                StringBuilder joined = new StringBuilder();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    if (p.currentToken() == JsonToken.START_OBJECT) {
                        String text = nestedText(p);
                        joined.append(text != null ? text : "");
                    } else {
                        p.skipChildren();
                    }
                }
                into.put("summary", joined.toString());
            } else {
                p.skipChildren();
            }
        }
    }

    /** Reads the object the parser is at for its {@code text} string, moving past it; null when it has none. */
    private static @Nullable String nestedText(JsonParser p) {
        String text = null;
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            if (field.equals("text") && v == JsonToken.VALUE_STRING) {
                text = p.getString();
            } else {
                p.skipChildren();
            }
        }
        return text;
    }

    private static @Nullable String string(JsonParser p, JsonToken t) {
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.VALUE_STRING) {
            throw new ShapeException("expected a string for " + p.currentName() + ", found " + t);
        }
        return p.getString();
    }

    /** Returns the exact JSON text of the value the parser is at, moving past it. */
    private static String raw(JsonParser p, Source data) {
        long from = p.currentTokenLocation().getByteOffset();
        p.skipChildren();
        return data.copy(from, p.currentLocation().getByteOffset());
    }
}
