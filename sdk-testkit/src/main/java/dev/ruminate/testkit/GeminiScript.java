package dev.ruminate.testkit;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Writes a Google Gemini response as {@code streamGenerateContent?alt=sse} streams it (one
 * {@code data: {GenerateContentResponse}} event per chunk, no event names, no {@code [DONE]}) or as
 * one {@code generateContent} body: thought summaries, answer text, thought signatures on the part
 * of your choice, function calls whole or in Vertex AI's {@code partialArgs} fragments, usage, the
 * finish reason, and a blocked prompt.
 *
 * <pre>{@code
 * String sse = GeminiScript.create()
 *         .thought("**Checking** the forecast first.")
 *         .functionCall("get_weather", "{\"city\":\"Paris\"}", "EpwICpkI…")   // signature on the call
 *         .usage(29, 10, 202)
 *         .toSse();
 * }</pre>
 *
 * <p>Text is cut into pieces of {@link #tokensOf(int)} code points, one chunk each; the last chunk
 * carries the finish reason (and, by default, usage; Gemini repeats usage on every chunk, which
 * {@link #usageOnEveryChunk(boolean)} reproduces). A mutable builder: not thread-safe.
 *
 * @since 0.1
 */
public final class GeminiScript {

    private static final JsonFactory JSON = new JsonFactory();

    private final List<Consumer<List<Chunk>>> steps = new ArrayList<>();
    private String model = "gemini-emulator";
    private String responseId = "emulator-response";
    private int tokenSize = 4;
    private @Nullable String finishReason = "STOP";
    private @Nullable String blockReason;
    private long prompt = 9;
    private long candidates = 12;
    private long thoughts;
    private boolean usageOnEveryChunk;
    private @Nullable String errorJson;

    /** One streamed chunk: its parts as JSON objects. */
    private record Chunk(List<String> parts) {
    }

    private GeminiScript() {
    }

    /**
     * Starts an empty script: finish reason {@code STOP}, four code points per chunk.
     *
     * @return a new script
     */
    public static GeminiScript create() {
        return new GeminiScript();
    }

    /**
     * Sets the {@code modelVersion} every chunk carries.
     *
     * @param value the model
     * @return this script
     */
    public GeminiScript model(String value) {
        this.model = value;
        return this;
    }

    /**
     * Adds a thought summary ({@code "thought": true} parts), in pieces.
     *
     * @param text the summary
     * @return this script
     */
    public GeminiScript thought(String text) {
        steps.add(chunks -> pieces(text).forEach(p -> chunks.add(new Chunk(List.of(part(g -> {
            g.writeStringProperty("text", p);
            g.writeBooleanProperty("thought", true);
        }))))));
        return this;
    }

    /**
     * Adds answer text, in pieces; a signature, if given, rides on the first piece (as Gemini 2.5 does).
     *
     * @param text the text
     * @param signature the thought signature, or null
     * @return this script
     */
    public GeminiScript text(String text, @Nullable String signature) {
        steps.add(chunks -> {
            List<String> pieces = pieces(text);
            for (int i = 0; i < pieces.size(); i++) {
                String p = pieces.get(i);
                String sig = i == 0 ? signature : null;
                chunks.add(new Chunk(List.of(part(g -> {
                    g.writeStringProperty("text", p);
                    if (sig != null) {
                        g.writeStringProperty("thoughtSignature", sig);
                    }
                }))));
            }
        });
        return this;
    }

    /**
     * Adds answer text without a signature.
     *
     * @param text the text
     * @return this script
     */
    public GeminiScript text(String text) {
        return text(text, null);
    }

    /**
     * Adds an empty text part carrying a signature, as Gemini 3 ends an answer.
     *
     * @param signature the signature
     * @return this script
     */
    public GeminiScript trailingSignature(String signature) {
        steps.add(chunks -> chunks.add(new Chunk(List.of(part(g -> {
            g.writeStringProperty("text", "");
            g.writeStringProperty("thoughtSignature", signature);
        })))));
        return this;
    }

    /**
     * Adds a whole function call in one part.
     *
     * @param name the function name
     * @param argsJson the arguments object
     * @param signature the thought signature on the call, or null
     * @return this script
     */
    public GeminiScript functionCall(String name, String argsJson, @Nullable String signature) {
        steps.add(chunks -> chunks.add(new Chunk(List.of(part(g -> {
            g.writeObjectPropertyStart("functionCall");
            g.writeStringProperty("name", name);
            g.writeName("args");
            g.writeRawValue(argsJson);
            g.writeEndObject();
            if (signature != null) {
                g.writeStringProperty("thoughtSignature", signature);
            }
        })))));
        return this;
    }

    /**
     * Adds a function call streamed as Vertex AI does: the name with {@code willContinue}, then one
     * string argument in {@code partialArgs} pieces, then the closing {@code {"functionCall":{}}}.
     *
     * @param name the function name
     * @param argument the argument's name (its JSON path is {@code $.argument})
     * @param value the string value, streamed in pieces
     * @param signature the thought signature on the first part, or null
     * @return this script
     */
    public GeminiScript streamedFunctionCall(String name, String argument, String value, @Nullable String signature) {
        steps.add(chunks -> {
            chunks.add(new Chunk(List.of(part(g -> {
                g.writeObjectPropertyStart("functionCall");
                g.writeStringProperty("name", name);
                g.writeBooleanProperty("willContinue", true);
                g.writeEndObject();
                if (signature != null) {
                    g.writeStringProperty("thoughtSignature", signature);
                }
            }))));
            for (String p : pieces(value)) {
                chunks.add(new Chunk(List.of(part(g -> {
                    g.writeObjectPropertyStart("functionCall");
                    g.writeArrayPropertyStart("partialArgs");
                    g.writeStartObject();
                    g.writeStringProperty("jsonPath", "$." + argument);
                    g.writeStringProperty("stringValue", p);
                    g.writeBooleanProperty("willContinue", true);
                    g.writeEndObject();
                    g.writeEndArray();
                    g.writeBooleanProperty("willContinue", true);
                    g.writeEndObject();
                }))));
            }
            chunks.add(new Chunk(List.of(part(g -> {
                g.writeObjectPropertyStart("functionCall");
                g.writeEndObject();
            }))));
        });
        return this;
    }

    /**
     * Sets the token counts of {@code usageMetadata}.
     *
     * @param promptTokens {@code promptTokenCount}
     * @param candidatesTokens {@code candidatesTokenCount}
     * @param thoughtsTokens {@code thoughtsTokenCount}
     * @return this script
     */
    public GeminiScript usage(long promptTokens, long candidatesTokens, long thoughtsTokens) {
        this.prompt = promptTokens;
        this.candidates = candidatesTokens;
        this.thoughts = thoughtsTokens;
        return this;
    }

    /**
     * Repeats usage on every chunk, as the Gemini API does.
     *
     * @param value true to repeat it
     * @return this script
     */
    public GeminiScript usageOnEveryChunk(boolean value) {
        this.usageOnEveryChunk = value;
        return this;
    }

    /**
     * Sets the finish reason of the last chunk, or null to end the stream without one (cut short).
     *
     * @param reason {@code STOP}, {@code MAX_TOKENS}, {@code SAFETY}, … or null
     * @return this script
     */
    public GeminiScript finishReason(@Nullable String reason) {
        this.finishReason = reason;
        return this;
    }

    /**
     * Answers with a blocked prompt: no candidates, {@code promptFeedback.blockReason}.
     *
     * @param reason such as {@code SAFETY}
     * @return this script
     */
    public GeminiScript blocked(String reason) {
        this.blockReason = reason;
        return this;
    }

    /**
     * Ends the stream with an {@code error} object after the scripted chunks.
     *
     * @param code the HTTP-style code
     * @param status the status, such as {@code RESOURCE_EXHAUSTED}
     * @param message the message
     * @return this script
     */
    public GeminiScript errorAtEnd(int code, String status, String message) {
        this.errorJson = render(g -> {
            g.writeStartObject();
            g.writeObjectPropertyStart("error");
            g.writeNumberProperty("code", code);
            g.writeStringProperty("message", message);
            g.writeStringProperty("status", status);
            g.writeEndObject();
            g.writeEndObject();
        });
        return this;
    }

    /**
     * Sets how many code points each text piece carries.
     *
     * @param codePoints at least 1
     * @return this script
     */
    public GeminiScript tokensOf(int codePoints) {
        if (codePoints < 1) {
            throw new IllegalArgumentException("codePoints must be >= 1");
        }
        this.tokenSize = codePoints;
        return this;
    }

    /**
     * Renders the stream.
     *
     * @return the SSE body
     */
    public String toSse() {
        StringBuilder sb = new StringBuilder();
        for (String json : chunksJson()) {
            sb.append("data: ").append(json).append("\r\n\r\n");
        }
        if (errorJson != null) {
            sb.append("data: ").append(errorJson).append("\r\n\r\n");
        }
        return sb.toString();
    }

    /**
     * Renders the stream as an emulator response.
     *
     * @return the response
     */
    public EmulatorResponse toResponse() {
        return EmulatorResponse.sse(toSse());
    }

    /**
     * Renders the non-streaming body: every part of the script, one per text piece, in one
     * candidate with the finish reason and usage (a blocked prompt is rendered by the stream only).
     *
     * @return the JSON body
     */
    public String toJson() {
        List<Chunk> chunks = new ArrayList<>();
        steps.forEach(s -> s.accept(chunks));
        List<String> parts = new ArrayList<>();
        chunks.forEach(c -> parts.addAll(c.parts()));
        return response(parts, true, true);
    }

    /**
     * Renders the body as an emulator response.
     *
     * @return the response
     */
    public EmulatorResponse toJsonResponse() {
        return EmulatorResponse.json(200, toJson());
    }

    private List<String> chunksJson() {
        List<String> out = new ArrayList<>();
        if (blockReason != null) {
            out.add(render(g -> {
                g.writeStartObject();
                g.writeObjectPropertyStart("promptFeedback");
                g.writeStringProperty("blockReason", blockReason);
                g.writeEndObject();
                writeUsage(g);
                g.writeStringProperty("modelVersion", model);
                g.writeStringProperty("responseId", responseId);
                g.writeEndObject();
            }));
            return out;
        }
        List<Chunk> chunks = new ArrayList<>();
        steps.forEach(s -> s.accept(chunks));
        if (finishReason != null) {
            chunks.add(new Chunk(List.of(part(g -> g.writeStringProperty("text", "")))));
        }
        for (int i = 0; i < chunks.size(); i++) {
            boolean last = i == chunks.size() - 1;
            out.add(response(chunks.get(i).parts(), last && finishReason != null, last || usageOnEveryChunk));
        }
        return out;
    }

    private String response(List<String> parts, boolean finish, boolean usage) {
        return render(g -> {
            g.writeStartObject();
            g.writeArrayPropertyStart("candidates");
            g.writeStartObject();
            g.writeObjectPropertyStart("content");
            g.writeArrayPropertyStart("parts");
            for (String p : parts) {
                g.writeRawValue(p);
            }
            g.writeEndArray();
            g.writeStringProperty("role", "model");
            g.writeEndObject();
            if (finish && finishReason != null) {
                g.writeStringProperty("finishReason", finishReason);
            }
            g.writeNumberProperty("index", 0);
            g.writeEndObject();
            g.writeEndArray();
            if (usage) {
                writeUsage(g);
            }
            g.writeStringProperty("modelVersion", model);
            g.writeStringProperty("responseId", responseId);
            g.writeEndObject();
        });
    }

    private void writeUsage(JsonGenerator g) {
        g.writeObjectPropertyStart("usageMetadata");
        g.writeNumberProperty("promptTokenCount", prompt);
        g.writeNumberProperty("candidatesTokenCount", candidates);
        g.writeNumberProperty("totalTokenCount", prompt + candidates + thoughts);
        if (thoughts > 0) {
            g.writeNumberProperty("thoughtsTokenCount", thoughts);
        }
        g.writeEndObject();
    }

    private static String part(Consumer<JsonGenerator> fields) {
        return render(g -> {
            g.writeStartObject();
            fields.accept(g);
            g.writeEndObject();
        });
    }

    private static String render(Consumer<JsonGenerator> body) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), w)) {
            body.accept(g);
        }
        return w.toString();
    }

    private List<String> pieces(String text) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            int end = text.offsetByCodePoints(i, Math.min(tokenSize, text.codePointCount(i, text.length())));
            out.add(text.substring(i, end));
            i = end;
        }
        return out;
    }
}
