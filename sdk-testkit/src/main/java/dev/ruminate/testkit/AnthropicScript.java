package dev.ruminate.testkit;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Writes an Anthropic Messages API response, streamed or not, in the API's wire shape: thinking
 * with its signature, redacted thinking, text, client tool calls, server-tool calls with their
 * results, {@code ping} and {@code error} events, usage and the stop reason.
 *
 * <p>Steps are played in the order they are added, one content block each (pings and errors are
 * events between blocks), so interleaved thinking comes out exactly as scripted:
 *
 * <pre>{@code
 * String sse = AnthropicScript.create()
 *         .model("claude-sonnet-4-5")
 *         .thinking("I should look up the weather.", "EqQBCkYIBxgCKkB…")
 *         .toolUse("toolu_01", "weather", "{\"city\":\"Paris\"}")
 *         .thinking("Then the time.", "EpUBCkYIBxgCKkA…")     // thinking after a tool call
 *         .toolUse("toolu_02", "time", "{\"city\":\"Paris\"}")
 *         .stopReason("tool_use")
 *         .usage(472, 190)
 *         .toSse();
 * }</pre>
 *
 * <p>The stream it writes ({@link #toSse()}): every event as {@code event: <type>} and
 * {@code data: {json}} lines and a blank line, the data repeating the type, as the API sends it.
 * First {@code message_start} (id, model, empty content, input tokens and one output token); then per
 * block {@code content_block_start}, its {@code content_block_delta}s and {@code content_block_stop},
 * with dense indices from 0; a thinking block streams its text in {@code thinking_delta}s and ends
 * with one {@code signature_delta}; a tool-use block starts with {@code "input":{}} and streams its
 * input in {@code input_json_delta}s, the first one empty as the API's is; then
 * {@code message_delta} with the stop reason and output tokens, and {@code message_stop}. An
 * {@link #error(String, String) error} step ends the stream where it stands; {@link #stop(boolean)
 * stop(false)} leaves out the closing events, as a cut connection would.
 *
 * <p>A script is a mutable builder: not thread-safe, but each {@code to…} method may be called
 * any number of times and renders the current steps.
 *
 * @see <a href="https://docs.anthropic.com/en/api/messages-streaming">Anthropic streaming messages</a>
 * @since 0.1
 */
public final class AnthropicScript extends Script<AnthropicScript> {

    private String id = "msg_emulator";
    private String model = "claude-emulator";
    private @Nullable String stopReason = "end_turn";
    private long inputTokens = 10;
    private long outputTokens = 20;
    private boolean stop = true;

    private AnthropicScript() {
    }

    /**
     * Starts an empty script: model {@code claude-emulator}, id {@code msg_emulator}, four code
     * points per delta, stop reason {@code end_turn}, 10 input and 20 output tokens, closing events
     * written.
     *
     * @return a new script
     * @since 0.1
     */
    public static AnthropicScript create() {
        return new AnthropicScript();
    }

    /**
     * Sets the message id.
     *
     * @param value the id, such as {@code msg_01XrsJCi8CQoLcnnWdY8RsJz}
     * @return this script
     * @since 0.1
     */
    public AnthropicScript id(String value) {
        this.id = Objects.requireNonNull(value, "id");
        return this;
    }

    /**
     * Sets the model name.
     *
     * @param value the model name
     * @return this script
     * @since 0.1
     */
    public AnthropicScript model(String value) {
        this.model = Objects.requireNonNull(value, "model");
        return this;
    }

    /**
     * Adds a thinking block: its text in {@code thinking_delta}s, then its signature in one
     * {@code signature_delta}.
     *
     * @param text the thinking text; empty text is one empty {@code thinking_delta}, which the API
     *     sometimes sends before the signature (for a block without one, see {@link #omittedThinking(String)})
     * @param signature the signature, sent as given
     * @return this script
     * @since 0.1
     */
    public AnthropicScript thinking(String text, String signature) {
        return add(Step.Reasoning.of(text, Objects.requireNonNull(signature, "signature")));
    }

    /**
     * Adds a thinking block whose text the API leaves out ({@code "display": "omitted"}, the default
     * on newer models): it opens with empty {@code thinking} and carries only its
     * {@code signature_delta}, no {@code thinking_delta}.
     *
     * @param signature the signature, sent as given
     * @return this script
     * @since 0.1
     */
    public AnthropicScript omittedThinking(String signature) {
        return add(new Step.Reasoning(null, List.of(), false, Objects.requireNonNull(signature, "signature")));
    }

    /**
     * Adds a redacted thinking block: its data whole in {@code content_block_start}, no delta.
     *
     * @param data the opaque data
     * @return this script
     * @since 0.1
     */
    public AnthropicScript redactedThinking(String data) {
        return add(new Step.Redacted(data));
    }

    /**
     * Adds a text block, streamed in {@code text_delta}s.
     *
     * @param text the answer text; empty text is one empty {@code text_delta}
     * @return this script
     * @since 0.1
     */
    public AnthropicScript text(String text) {
        return add(new Step.Text(text, null));
    }

    /**
     * Adds a client tool call ({@code tool_use}), its input streamed in {@code input_json_delta}s.
     *
     * @param id the call id, such as {@code toolu_01}
     * @param name the tool name
     * @param inputJson the input JSON text, cut into fragments as given (it need not be valid JSON)
     * @return this script
     * @since 0.1
     */
    public AnthropicScript toolUse(String id, String name, String inputJson) {
        return add(Step.ToolCall.of(Objects.requireNonNull(id, "id"), name, inputJson));
    }

    /**
     * Adds a call of a tool the provider runs ({@code server_tool_use}, such as {@code web_search}
     * or {@code bash_code_execution}), its input streamed like a client call's.
     *
     * @param id the call id, such as {@code srvtoolu_01}
     * @param name the tool name
     * @param inputJson the input JSON text
     * @return this script
     * @since 0.1
     */
    public AnthropicScript serverToolUse(String id, String name, String inputJson) {
        return add(new Step.ServerToolCall(Objects.requireNonNull(id, "id"), name, inputJson, null));
    }

    /**
     * Adds a call of a tool on an MCP server ({@code mcp_tool_use}, with {@code server_name}).
     *
     * @param id the call id, such as {@code mcptoolu_01}
     * @param name the tool name
     * @param serverName the MCP server's name
     * @param inputJson the input JSON text
     * @return this script
     * @since 0.1
     */
    public AnthropicScript mcpToolUse(String id, String name, String serverName, String inputJson) {
        return add(new Step.ServerToolCall(Objects.requireNonNull(id, "id"), name,
                inputJson, Objects.requireNonNull(serverName, "serverName")));
    }

    /**
     * Adds the result block of a provider-run tool, sent whole in {@code content_block_start} as
     * {@code {"type":…,"tool_use_id":…,"content":…}}.
     *
     * @param type the block type, such as {@code web_search_tool_result} or {@code mcp_tool_result}
     * @param toolUseId the id of the call it answers
     * @param contentJson the {@code content} value as JSON text, written unchanged
     * @return this script
     * @since 0.1
     */
    public AnthropicScript serverToolResult(String type, String toolUseId, String contentJson) {
        return add(new Step.ServerToolResult(Objects.requireNonNull(type, "type"), toolUseId, contentJson));
    }

    /**
     * Adds a {@code ping} event at this point of the stream (written as the API does,
     * {@code {"type": "ping"}}). The non-streaming body ignores it.
     *
     * @return this script
     * @since 0.1
     */
    public AnthropicScript ping() {
        return add(new Step.KeepAlive("ping"));
    }

    /**
     * Adds an {@code error} event at this point, {@code {"type":"error","error":{"type":…,"message":…}}},
     * and ends the stream there, as the API does when it gives up mid-stream.
     *
     * @param type the error type, such as {@code overloaded_error}
     * @param message the message, such as {@code Overloaded}
     * @return this script
     * @since 0.1
     */
    public AnthropicScript error(String type, String message) {
        return add(new Step.Error(Objects.requireNonNull(type, "type"), message));
    }

    /**
     * Sets the stop reason sent in {@code message_delta}.
     *
     * @param reason {@code end_turn}, {@code max_tokens}, {@code stop_sequence}, {@code tool_use},
     *     {@code pause_turn}, {@code refusal} or any other string; null for {@code "stop_reason":null}
     * @return this script
     * @since 0.1
     */
    public AnthropicScript stopReason(@Nullable String reason) {
        this.stopReason = reason;
        return this;
    }

    /**
     * Sets the token usage: input tokens in {@code message_start}, output tokens in
     * {@code message_delta} (thinking included, as the API counts it).
     *
     * @param input {@code input_tokens}
     * @param output {@code output_tokens}
     * @return this script
     * @throws IllegalArgumentException if a count is negative
     * @since 0.1
     */
    public AnthropicScript usage(long input, long output) {
        if (input < 0 || output < 0) {
            throw new IllegalArgumentException("token counts must not be negative, got " + input + ", " + output);
        }
        this.inputTokens = input;
        this.outputTokens = output;
        return this;
    }

    /**
     * Chooses whether the stream ends with {@code message_delta} and {@code message_stop}.
     *
     * @param value true (the default) to send them; false for a stream cut before its end
     * @return this script
     * @since 0.1
     */
    public AnthropicScript stop(boolean value) {
        this.stop = value;
        return this;
    }

    /**
     * Renders the streamed response body.
     *
     * @return the SSE text
     * @since 0.1
     */
    public String toSse() {
        return new AnthropicWriter(this).sse();
    }

    /**
     * Renders the streamed response as a 200 {@code text/event-stream} response.
     *
     * @return the response, chunked with {@link ChunkPlan#whole()}; refine it with {@link EmulatorResponse#chunked}
     * @since 0.1
     */
    @Override
    public EmulatorResponse toResponse() {
        return EmulatorResponse.sse(toSse());
    }

    /**
     * Renders the equivalent non-streaming message body: {@code id}, {@code type}, {@code role},
     * {@code model}, {@code content} with every block whole (tool input as JSON, which must then be
     * valid), {@code stop_reason}, {@code stop_sequence} and {@code usage}. Pings, errors and
     * {@link #stop(boolean)} do not apply to it.
     *
     * @return the JSON text
     * @throws IllegalArgumentException if a tool input or result content is not valid JSON
     * @since 0.1
     */
    public String toMessageJson() {
        return new AnthropicWriter(this).message();
    }

    /**
     * Renders the non-streaming body as a 200 {@code application/json} response.
     *
     * @return the response
     * @throws IllegalArgumentException if a tool input or result content is not valid JSON
     * @since 0.1
     */
    public EmulatorResponse toMessageResponse() {
        return EmulatorResponse.json(200, toMessageJson());
    }

    @Override
    AnthropicScript self() {
        return this;
    }

    String id() {
        return id;
    }

    String model() {
        return model;
    }

    @Nullable String stopReason() {
        return stopReason;
    }

    long inputTokens() {
        return inputTokens;
    }

    long outputTokens() {
        return outputTokens;
    }

    boolean stop() {
        return stop;
    }
}
