package dev.ruminate.testkit;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Writes an OpenAI Responses API response ({@code POST /responses}), streamed or not, in the wire
 * shape OpenAI and the Responses-compatible servers produce: reasoning items with summary parts or
 * raw {@code reasoning_text} and {@code encrypted_content}, message items, function calls, usage and
 * a terminal {@code response.completed}, {@code response.incomplete} or {@code response.failed}.
 *
 * <p>Items are played in the order they are added:
 *
 * <pre>{@code
 * String sse = ResponsesScript.create()
 *         .model("o4-mini")
 *         .reasoning("rs_1", "gAAAAB…", "**Planning**\n\nFirst…", "**Checking**\n\nThen…")
 *         .functionCall("call_1", "weather", "{\"city\":\"Paris\"}")
 *         .usage(13, 120, 96, 0)
 *         .tokensOf(3)
 *         .toSse();
 * }</pre>
 *
 * <p>The stream ({@link #toSse()}): each event is an {@code event: <type>} line and a
 * {@code data: {"type":<type>,"sequence_number":n,…}} line, then a blank line, numbered from 0 as
 * the API does. It opens with {@code response.created} and {@code response.in_progress}; each item
 * comes as {@code response.output_item.added}, its part events ({@code reasoning_summary_part.added},
 * {@code reasoning_summary_text.delta}…, {@code reasoning_summary_text.done},
 * {@code reasoning_summary_part.done}; {@code content_part.added}, {@code reasoning_text.delta} or
 * {@code output_text.delta}…, {@code .done}, {@code content_part.done};
 * {@code function_call_arguments.delta}…, {@code function_call_arguments.done}) and
 * {@code response.output_item.done}; then the terminal event with the whole {@code response}. There
 * is no {@code [DONE]} unless {@link #doneSentinel(boolean)} asks for OpenRouter's. Like OpenAI, the
 * {@code encrypted_content} of {@code output_item.added} and of the terminal event differ from the
 * one of {@code output_item.done} (suffixes {@code -added} and {@code -final}) unless
 * {@link #reencrypt(boolean) reencrypt(false)}.
 *
 * <p>A script is a mutable builder: not thread-safe, but each {@code to…} method may be called any
 * number of times and renders the current items.
 *
 * @see <a href="https://platform.openai.com/docs/api-reference/responses-streaming">Responses streaming events</a>
 * @since 0.1
 */
public final class ResponsesScript extends Script<ResponsesScript> {

    /** How the stream ends. */
    enum Terminal { COMPLETED, INCOMPLETE, FAILED, NONE }

    private String id = "resp_emulator";
    private String model = "emulator-model";
    private long createdAt = 1_757_687_080L;
    private boolean argumentDeltas = true;
    private boolean reencrypt = true;
    private boolean doneSentinel;
    private @Nullable Usage usage;
    private Terminal terminal = Terminal.COMPLETED;
    private @Nullable String incompleteReason;
    private @Nullable String errorCode;
    private @Nullable String errorMessage;

    /** Token counts of a script. */
    record Usage(int input, int output, int reasoning, int cached) {
    }

    private ResponsesScript() {
    }

    /**
     * Starts an empty script: response id {@code resp_emulator}, model {@code emulator-model}, four
     * code points per delta, argument deltas, re-encrypted blobs, ending with {@code response.completed}.
     *
     * @return a new script
     * @since 0.1
     */
    public static ResponsesScript create() {
        return new ResponsesScript();
    }

    /**
     * Sets the response id.
     *
     * @param value the id, such as {@code resp_68c4…}
     * @return this script
     * @since 0.1
     */
    public ResponsesScript id(String value) {
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
    public ResponsesScript model(String value) {
        this.model = Objects.requireNonNull(value, "model");
        return this;
    }

    /**
     * Sets the {@code created_at} timestamp.
     *
     * @param epochSeconds seconds since the epoch
     * @return this script
     * @since 0.1
     */
    public ResponsesScript createdAt(long epochSeconds) {
        this.createdAt = epochSeconds;
        return this;
    }

    /**
     * Adds a reasoning item with summary parts, one per text, streamed with
     * {@code response.reasoning_summary_text.delta}; no texts gives an item without summary (hidden
     * reasoning, as with web search or MCP).
     *
     * @param itemId the item id, such as {@code rs_1}
     * @param encryptedContent the item's {@code encrypted_content} (as requested with
     *     {@code include: ["reasoning.encrypted_content"]}), or null for none
     * @param summaries the summary texts, in order
     * @return this script
     * @since 0.1
     */
    public ResponsesScript reasoning(String itemId, @Nullable String encryptedContent, String... summaries) {
        for (String s : summaries) {
            Objects.requireNonNull(s, "summary");
        }
        return add(new Step.Reasoning(Objects.requireNonNull(itemId, "itemId"), List.of(summaries), true,
                encryptedContent));
    }

    /**
     * Adds a reasoning item with raw reasoning text in one {@code reasoning_text} content part,
     * streamed with {@code response.reasoning_text.delta}, as gpt-oss on vLLM, LM Studio, Ollama and
     * DeepSeek's {@code /responses} send it.
     *
     * @param itemId the item id
     * @param text the reasoning text
     * @return this script
     * @since 0.1
     */
    public ResponsesScript rawReasoning(String itemId, String text) {
        return add(new Step.Reasoning(Objects.requireNonNull(itemId, "itemId"),
                List.of(Objects.requireNonNull(text, "text")), false, null));
    }

    /**
     * Adds a message item with one {@code output_text} part, streamed with
     * {@code response.output_text.delta}; its id is {@code msg_} and its position.
     *
     * @param text the answer text
     * @return this script
     * @since 0.1
     */
    public ResponsesScript text(String text) {
        return add(new Step.Text(text, null));
    }

    /**
     * Adds a {@code function_call} item, its arguments streamed with
     * {@code response.function_call_arguments.delta} (see {@link #argumentDeltas(boolean)}); its item
     * id is {@code fc_} and its position.
     *
     * @param callId the {@code call_id}, such as {@code call_1}
     * @param name the function name
     * @param arguments the arguments JSON text (it need not be valid JSON)
     * @return this script
     * @since 0.1
     */
    public ResponsesScript functionCall(String callId, String name, String arguments) {
        return add(Step.ToolCall.of(Objects.requireNonNull(callId, "callId"), name, arguments));
    }

    /**
     * Sets the usage of the terminal event; {@code total_tokens} is input plus output.
     *
     * @param input {@code input_tokens}
     * @param output {@code output_tokens}, reasoning included
     * @param reasoning {@code output_tokens_details.reasoning_tokens}
     * @param cached {@code input_tokens_details.cached_tokens}
     * @return this script
     * @throws IllegalArgumentException if a count is negative
     * @since 0.1
     */
    public ResponsesScript usage(int input, int output, int reasoning, int cached) {
        if (input < 0 || output < 0 || reasoning < 0 || cached < 0) {
            throw new IllegalArgumentException("token counts must not be negative");
        }
        this.usage = new Usage(input, output, reasoning, cached);
        return this;
    }

    /**
     * Chooses whether function-call arguments are streamed as deltas.
     *
     * @param value true (the default) for {@code function_call_arguments.delta} events; false to send
     *     the arguments only in {@code function_call_arguments.done}, as LM Studio does
     * @return this script
     * @since 0.1
     */
    public ResponsesScript argumentDeltas(boolean value) {
        this.argumentDeltas = value;
        return this;
    }

    /**
     * Chooses whether {@code encrypted_content} differs between events, as OpenAI re-encrypts it.
     *
     * @param value true (the default) for {@code <blob>-added} in {@code output_item.added} and
     *     {@code <blob>-final} in the terminal event; false for the same blob in {@code done} and the
     *     terminal event and none in {@code added}, as xAI sends it
     * @return this script
     * @since 0.1
     */
    public ResponsesScript reencrypt(boolean value) {
        this.reencrypt = value;
        return this;
    }

    /**
     * Chooses whether {@code data: [DONE]} follows the terminal event, as OpenRouter's
     * {@code /responses} sends it.
     *
     * @param value true to send it (default false)
     * @return this script
     * @since 0.1
     */
    public ResponsesScript doneSentinel(boolean value) {
        this.doneSentinel = value;
        return this;
    }

    /**
     * Ends the stream with {@code response.completed} (the default).
     *
     * @return this script
     * @since 0.1
     */
    public ResponsesScript completed() {
        this.terminal = Terminal.COMPLETED;
        return this;
    }

    /**
     * Ends the stream with {@code response.incomplete}.
     *
     * @param reason the {@code incomplete_details.reason}, such as {@code max_output_tokens} or
     *     {@code content_filter}
     * @return this script
     * @since 0.1
     */
    public ResponsesScript incomplete(String reason) {
        this.terminal = Terminal.INCOMPLETE;
        this.incompleteReason = Objects.requireNonNull(reason, "reason");
        return this;
    }

    /**
     * Ends the stream with {@code response.failed}.
     *
     * @param code the error's {@code code}, such as {@code server_error}
     * @param message the error's {@code message}
     * @return this script
     * @since 0.1
     */
    public ResponsesScript failed(String code, String message) {
        this.terminal = Terminal.FAILED;
        this.errorCode = Objects.requireNonNull(code, "code");
        this.errorMessage = Objects.requireNonNull(message, "message");
        return this;
    }

    /**
     * Ends the stream after the last item, without a terminal event (a stream cut short).
     *
     * @return this script
     * @since 0.1
     */
    public ResponsesScript noTerminal() {
        this.terminal = Terminal.NONE;
        return this;
    }

    /**
     * Renders the streamed response body.
     *
     * @return the SSE text
     * @since 0.1
     */
    public String toSse() {
        return new ResponsesWriter(this).sse();
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
     * Renders the equivalent non-streaming body: the {@code response} object of the terminal event
     * (status {@code completed}, {@code incomplete} or {@code failed}) with every output item, each
     * reasoning item with its {@code encrypted_content} as given.
     *
     * @return the JSON text
     * @since 0.1
     */
    public String toResponseJson() {
        return new ResponsesWriter(this).body();
    }

    /**
     * Renders the non-streaming body as a 200 {@code application/json} response.
     *
     * @return the response
     * @since 0.1
     */
    public EmulatorResponse toJsonResponse() {
        return EmulatorResponse.json(200, toResponseJson());
    }

    @Override
    ResponsesScript self() {
        return this;
    }

    String id() {
        return id;
    }

    String model() {
        return model;
    }

    long createdAt() {
        return createdAt;
    }

    boolean argumentDeltas() {
        return argumentDeltas;
    }

    boolean reencrypt() {
        return reencrypt;
    }

    boolean doneSentinel() {
        return doneSentinel;
    }

    @Nullable Usage usage() {
        return usage;
    }

    Terminal terminal() {
        return terminal;
    }

    @Nullable String incompleteReason() {
        return incompleteReason;
    }

    @Nullable String errorCode() {
        return errorCode;
    }

    @Nullable String errorMessage() {
        return errorMessage;
    }

    @Override
    public String toString() {
        return "ResponsesScript[" + steps().size() + " items, model " + model + ", ends " + terminal + "]";
    }
}
