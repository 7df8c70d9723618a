package dev.ruminate.testkit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Writes an Ollama native API response, streamed (NDJSON, one JSON object per line) or not, in the
 * shape {@code ollama serve} produces for {@code /api/chat} or {@code /api/generate}.
 *
 * <p>Steps are played in the order they are added:
 *
 * <pre>{@code
 * byte[] ndjson = OllamaScript.create()
 *         .model("gpt-oss:20b")
 *         .thinking("The user wants the weather.")
 *         .toolCall("get_weather", "{\"city\":\"Paris\"}")
 *         .usage(81, 53)
 *         .tokensOf(3)
 *         .toNdjson();
 * }</pre>
 *
 * <p>The stream ({@link #toNdjson()}): one line per delta, each
 * {@code {"model","created_at","message":{"role":"assistant","content":…[,"thinking":…]},"done":false}}
 * on chat, or {@code {"model","created_at","response":…[,"thinking":…],"done":false}} on generate;
 * a tool call is one line holding the whole call ({@code message.tool_calls}, arguments as a JSON
 * object); an {@linkplain #error(String) error} step is a line {@code {"error":"…"}}; then, unless
 * {@link #done(boolean) done(false)}, the last line with empty text, {@code "done":true},
 * {@code done_reason}, the durations and, when set, {@code prompt_eval_count} and
 * {@code eval_count} (generate adds a {@code context} array). Each line ends with {@code \n};
 * {@code created_at} advances by a millisecond per line.
 *
 * <p>A script is a mutable builder: not thread-safe, but each {@code to…} method may be called any
 * number of times and renders the current steps.
 *
 * @see <a href="https://github.com/ollama/ollama/blob/main/docs/api.md">Ollama API</a>
 * @since 0.1
 */
public final class OllamaScript extends Script<OllamaScript> {

    /** The endpoint whose response shape the script writes. */
    public enum Endpoint {
        /** {@code /api/chat}: text and thinking inside {@code message}. */
        CHAT,
        /** {@code /api/generate}: {@code response} and {@code thinking} at the top level; no tool calls. */
        GENERATE
    }

    private final List<Integer> malformedAt = new ArrayList<>();
    private Endpoint endpoint = Endpoint.CHAT;
    private String model = "emulator-model";
    private @Nullable String doneReason = "stop";
    private @Nullable Long promptEvalCount;
    private @Nullable Long evalCount;
    private boolean done = true;

    private OllamaScript() {
    }

    /**
     * Starts an empty {@code /api/chat} script: model {@code emulator-model}, four code points per
     * delta, {@code done_reason} {@code stop}, no eval counts, a {@code done} line at the end.
     *
     * @return a new script
     * @since 0.1
     */
    public static OllamaScript create() {
        return new OllamaScript();
    }

    /**
     * Sets the endpoint whose shape is written.
     *
     * @param value {@link Endpoint#CHAT} (the default) or {@link Endpoint#GENERATE}
     * @return this script
     * @since 0.1
     */
    public OllamaScript endpoint(Endpoint value) {
        this.endpoint = Objects.requireNonNull(value, "endpoint");
        return this;
    }

    /**
     * Sets the model name every line carries.
     *
     * @param value the model, such as {@code qwen3:1.7b}
     * @return this script
     * @since 0.1
     */
    public OllamaScript model(String value) {
        this.model = Objects.requireNonNull(value, "model");
        return this;
    }

    /**
     * Adds thinking text ({@code message.thinking}, or {@code thinking} on generate).
     *
     * @param text the reasoning text; empty text still produces one line
     * @return this script
     * @since 0.1
     */
    public OllamaScript thinking(String text) {
        return add(Step.Reasoning.of(text, null));
    }

    /**
     * Adds answer text ({@code message.content}, or {@code response} on generate). Tags such as
     * {@code <think>} in it go out as given, as models asked without {@code think} write them.
     *
     * @param text the answer text; empty text still produces one line
     * @return this script
     * @since 0.1
     */
    public OllamaScript content(String text) {
        return add(new Step.Text(text, null));
    }

    /**
     * Adds a whole tool call without an id, in a line of its own.
     *
     * @param name the function name
     * @param argumentsJson the arguments, a JSON object written into the line as is (it must be valid
     *     JSON, on one line)
     * @return this script
     * @throws IllegalArgumentException if the arguments hold a line break
     * @since 0.1
     */
    public OllamaScript toolCall(String name, String argumentsJson) {
        return add(Step.ToolCall.of(null, name, oneLine(argumentsJson)));
    }

    /**
     * Adds a whole tool call with an id, as newer servers send it.
     *
     * @param id the call id
     * @param name the function name
     * @param argumentsJson the arguments, a JSON object written into the line as is, on one line
     * @return this script
     * @throws IllegalArgumentException if the arguments hold a line break
     * @since 0.1
     */
    public OllamaScript toolCall(String id, String name, String argumentsJson) {
        return add(Step.ToolCall.of(Objects.requireNonNull(id, "id"), name, oneLine(argumentsJson)));
    }

    /** A line break would end the NDJSON line: Ollama never writes one inside a value. */
    private static String oneLine(String argumentsJson) {
        Objects.requireNonNull(argumentsJson, "argumentsJson");
        if (argumentsJson.indexOf('\n') >= 0 || argumentsJson.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("arguments go inside one NDJSON line: no line breaks, got "
                    + argumentsJson);
        }
        return argumentsJson;
    }

    /**
     * Adds a line {@code {"error":"message"}}, Ollama's report of a failure after the stream began.
     *
     * @param message the error message
     * @return this script
     * @since 0.1
     */
    public OllamaScript error(String message) {
        return add(new Step.Error(null, message));
    }

    /**
     * Sets the {@code done_reason} of the last line.
     *
     * @param reason {@code stop}, {@code length}, {@code load}, …; null to leave the field out
     * @return this script
     * @since 0.1
     */
    public OllamaScript doneReason(@Nullable String reason) {
        this.doneReason = reason;
        return this;
    }

    /**
     * Sets the eval counts of the last line.
     *
     * @param promptEvalCount {@code prompt_eval_count}, the input tokens
     * @param evalCount {@code eval_count}, the output tokens, thinking included
     * @return this script
     * @throws IllegalArgumentException if a count is negative
     * @since 0.1
     */
    public OllamaScript usage(long promptEvalCount, long evalCount) {
        if (promptEvalCount < 0 || evalCount < 0) {
            throw new IllegalArgumentException("counts must not be negative, got " + promptEvalCount + ", " + evalCount);
        }
        this.promptEvalCount = promptEvalCount;
        this.evalCount = evalCount;
        return this;
    }

    /**
     * Chooses whether the stream ends with the {@code "done": true} line.
     *
     * @param value true (the default) to send it; false for a stream cut short
     * @return this script
     * @since 0.1
     */
    public OllamaScript done(boolean value) {
        this.done = value;
        return this;
    }

    /**
     * Inserts a malformed line (a JSON object cut off halfway) before the {@code lineIndex}-th line.
     *
     * <p>Lines are counted from 0 and include error lines and the {@code done} line; an index equal
     * to the number of lines puts it last. May be called more than once.
     *
     * @param lineIndex where to insert it, at least 0
     * @return this script
     * @throws IllegalArgumentException if {@code lineIndex < 0}; an index past the end fails when rendering
     * @since 0.1
     */
    public OllamaScript malformedLineAt(int lineIndex) {
        if (lineIndex < 0) {
            throw new IllegalArgumentException("line index must not be negative, got " + lineIndex);
        }
        malformedAt.add(lineIndex);
        return this;
    }

    /**
     * Renders the streamed body.
     *
     * @return the NDJSON text, every line ended by {@code \n}
     * @throws IllegalStateException if a malformed line index is past the end
     * @since 0.1
     */
    public String toNdjsonText() {
        return new OllamaWriter(this).ndjson();
    }

    /**
     * Renders the streamed body as UTF-8 bytes.
     *
     * @return the NDJSON bytes
     * @throws IllegalStateException if a malformed line index is past the end
     * @since 0.1
     */
    public byte[] toNdjson() {
        return toNdjsonText().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Renders the streamed body as a 200 {@code application/x-ndjson} response.
     *
     * @return the response, chunked with {@link ChunkPlan#whole()}; refine it with {@link EmulatorResponse#chunked}
     * @since 0.1
     */
    @Override
    public EmulatorResponse toResponse() {
        return EmulatorResponse.bytes("application/x-ndjson", toNdjson());
    }

    /**
     * Renders the equivalent non-streaming body ({@code "stream": false}): one object with all
     * thinking and text (and tool calls, on chat) and the {@code done} fields. Error steps are left out.
     *
     * @return the JSON text
     * @since 0.1
     */
    public String toJson() {
        return new OllamaWriter(this).whole();
    }

    /**
     * Renders the non-streaming body as a 200 {@code application/json} response.
     *
     * @return the response
     * @since 0.1
     */
    public EmulatorResponse toJsonResponse() {
        return EmulatorResponse.json(200, toJson());
    }

    @Override
    OllamaScript self() {
        return this;
    }

    List<Integer> malformedAt() {
        return malformedAt;
    }

    Endpoint endpoint() {
        return endpoint;
    }

    String model() {
        return model;
    }

    @Nullable String doneReason() {
        return doneReason;
    }

    @Nullable Long promptEvalCount() {
        return promptEvalCount;
    }

    @Nullable Long evalCount() {
        return evalCount;
    }

    boolean done() {
        return done;
    }
}
