package dev.ruminate.testkit;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

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
 * <p>Text is cut into pieces of {@link #tokensOf(int)} code points, one chunk each (empty text is one
 * chunk with {@code ""}); then, unless {@link #finishReason(String) finishReason(null)}, a last chunk
 * with an empty text part carries the finish reason (and, by default, usage; Gemini repeats usage on
 * every chunk, which {@link #usageOnEveryChunk(boolean)} reproduces). A mutable builder: not
 * thread-safe.
 *
 * @since 0.1
 */
public final class GeminiScript extends Script<GeminiScript> {

    private String model = "gemini-emulator";
    private @Nullable String finishReason = "STOP";
    private @Nullable String blockReason;
    private long prompt = 9;
    private long candidates = 12;
    private long thoughts;
    private boolean usageOnEveryChunk;
    private @Nullable Error error;

    /** The error object that ends a stream. */
    record Error(int code, String status, String message) {
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
        this.model = Objects.requireNonNull(value, "model");
        return this;
    }

    /**
     * Adds a thought summary ({@code "thought": true} parts), in pieces.
     *
     * @param text the summary
     * @return this script
     */
    public GeminiScript thought(String text) {
        return add(Step.Reasoning.of(text, null));
    }

    /**
     * Adds answer text, in pieces; a signature, if given, rides on the first piece (as Gemini 2.5 does).
     *
     * @param text the text; empty text is one part {@code {"text":""}}, with the signature if given
     * @param signature the thought signature, or null
     * @return this script
     */
    public GeminiScript text(String text, @Nullable String signature) {
        return add(new Step.Text(text, signature));
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
     * Adds an empty text part carrying a signature, as Gemini 3 ends an answer; the same as
     * {@code text("", signature)}.
     *
     * @param signature the signature
     * @return this script
     */
    public GeminiScript trailingSignature(String signature) {
        return text("", Objects.requireNonNull(signature, "signature"));
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
        return add(new Step.ToolCall(null, name, argsJson, signature, null));
    }

    /**
     * Adds a function call streamed as Vertex AI does: the name with {@code willContinue}, then one
     * string argument in {@code partialArgs} pieces, then the closing {@code {"functionCall":{}}}.
     * The non-streaming body has the whole call.
     *
     * @param name the function name
     * @param argument the argument's name (its JSON path is {@code $.argument})
     * @param value the string value, streamed in pieces
     * @param signature the thought signature on the first part, or null
     * @return this script
     */
    public GeminiScript streamedFunctionCall(String name, String argument, String value, @Nullable String signature) {
        Objects.requireNonNull(argument, "argument");
        Objects.requireNonNull(value, "value");
        String args = Json.object(g -> g.writeStringProperty(argument, value));
        return add(new Step.ToolCall(null, name, args, signature, argument));
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
        this.blockReason = Objects.requireNonNull(reason, "reason");
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
        this.error = new Error(code, Objects.requireNonNull(status, "status"),
                Objects.requireNonNull(message, "message"));
        return this;
    }

    /**
     * Renders the stream.
     *
     * @return the SSE body
     */
    public String toSse() {
        return new GeminiWriter(this).sse();
    }

    /**
     * Renders the stream as an emulator response.
     *
     * @return the response
     */
    @Override
    public EmulatorResponse toResponse() {
        return EmulatorResponse.sse(toSse());
    }

    /**
     * Renders the non-streaming body: one part per step, whole, in one candidate with the finish
     * reason and usage (a blocked prompt is rendered by the stream only).
     *
     * @return the JSON body
     */
    public String toJson() {
        return new GeminiWriter(this).whole();
    }

    /**
     * Renders the body as an emulator response.
     *
     * @return the response
     */
    public EmulatorResponse toJsonResponse() {
        return EmulatorResponse.json(200, toJson());
    }

    @Override
    GeminiScript self() {
        return this;
    }

    String model() {
        return model;
    }

    @Nullable String finishReason() {
        return finishReason;
    }

    @Nullable String blockReason() {
        return blockReason;
    }

    long promptTokens() {
        return prompt;
    }

    long candidatesTokens() {
        return candidates;
    }

    long thoughtsTokens() {
        return thoughts;
    }

    boolean usageOnEveryChunk() {
        return usageOnEveryChunk;
    }

    @Nullable Error error() {
        return error;
    }
}
