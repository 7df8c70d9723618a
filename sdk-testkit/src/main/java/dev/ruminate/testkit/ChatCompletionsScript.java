package dev.ruminate.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Writes an OpenAI Chat Completions response, streamed or not, in the wire shape that OpenAI and
 * the OpenAI-compatible servers (DeepSeek, OpenRouter, xAI, vLLM, …) produce, with the reasoning
 * field and the quirks a test needs.
 *
 * <p>Steps are played in the order they are added, so interleaved reasoning, answer text and tool
 * calls come out exactly as scripted:
 *
 * <pre>{@code
 * String sse = ChatCompletionsScript.create()
 *         .model("deepseek-reasoner")
 *         .reasoning("The user asks for the weather.")
 *         .toolCall("call_1", "weather", "{\"city\":\"Paris\"}")
 *         .finish("tool_calls")
 *         .usage(339, 83, 39)
 *         .usageOnFinishChunk(true)           // DeepSeek puts usage on the finish chunk
 *         .tokensOf(3)                         // three code points per delta
 *         .toSse();
 * }</pre>
 *
 * <p>The stream it writes ({@link #toSse()}): one {@code data: {json}} event per chunk, each
 * followed by a blank line; first a chunk with {@code "role":"assistant","content":""}; then the
 * steps' deltas; then, unless {@link #finish(String) finish(null)}, a chunk with an empty delta and
 * the finish reason; then the usage, if set, in its own {@code "choices":[]} chunk (OpenAI) or on
 * the finish chunk (DeepSeek); then {@code data: [DONE]} unless {@link #done(boolean) done(false)}.
 * Every chunk carries {@code id}, {@code object:"chat.completion.chunk"}, {@code created} and
 * {@code model}. Tool calls are numbered by {@code index} in the order they are added.
 *
 * <p>A script is a mutable builder: not thread-safe, but each {@code to…} method may be called
 * any number of times and renders the current steps.
 *
 * @see <a href="https://platform.openai.com/docs/api-reference/chat/streaming">OpenAI chat completion chunk</a>
 * @since 0.1
 */
public final class ChatCompletionsScript extends Script<ChatCompletionsScript> {

    private final List<Integer> malformedAt = new ArrayList<>();
    private String id = "chatcmpl-emulator";
    private String model = "emulator-model";
    private long created = 1_762_317_021L;
    private List<String> reasoningFields = List.of("reasoning_content");
    private boolean wholeToolCalls;
    private boolean thinkingChunks;
    private @Nullable String finishReason = "stop";
    private @Nullable Usage usage;
    private boolean usageOnFinishChunk;
    private boolean done = true;

    /** Token counts of a script. */
    record Usage(int prompt, int completion, int reasoning) {
    }

    private ChatCompletionsScript() {
    }

    /**
     * Starts an empty script: model {@code emulator-model}, reasoning field
     * {@code reasoning_content}, four code points per delta, finish reason {@code stop},
     * no usage, {@code [DONE]} at the end.
     *
     * @return a new script
     * @since 0.1
     */
    public static ChatCompletionsScript create() {
        return new ChatCompletionsScript();
    }

    /**
     * Sets the response id every chunk carries.
     *
     * @param value the id, such as {@code chatcmpl-abc123}
     * @return this script
     * @since 0.1
     */
    public ChatCompletionsScript id(String value) {
        this.id = Objects.requireNonNull(value, "id");
        return this;
    }

    /**
     * Sets the model name every chunk carries.
     *
     * @param value the model name
     * @return this script
     * @since 0.1
     */
    public ChatCompletionsScript model(String value) {
        this.model = Objects.requireNonNull(value, "model");
        return this;
    }

    /**
     * Sets the {@code created} timestamp every chunk carries.
     *
     * @param epochSeconds seconds since the epoch
     * @return this script
     * @since 0.1
     */
    public ChatCompletionsScript created(long epochSeconds) {
        this.created = epochSeconds;
        return this;
    }

    /**
     * Sets the delta fields that carry reasoning text; each reasoning delta carries the same
     * fragment in every field named.
     *
     * <p>{@code reasoning_content} (DeepSeek, llama.cpp, GLM: the default), {@code reasoning}
     * (OpenRouter, Ollama, Groq, newer vLLM), {@code reasoning_text}; or two of them, such as
     * {@code reasoningFields("reasoning_content", "reasoning")}, to emulate a server that duplicates
     * the text. The non-streaming message uses the same fields.
     *
     * @param first the first field name
     * @param more further field names
     * @return this script
     * @throws IllegalArgumentException if a name is repeated
     * @since 0.1
     */
    public ChatCompletionsScript reasoningFields(String first, String... more) {
        List<String> fields = new ArrayList<>(1 + more.length);
        fields.add(Objects.requireNonNull(first, "first"));
        for (String field : more) {
            if (fields.contains(field)) {
                throw new IllegalArgumentException("reasoning field named twice: " + field);
            }
            fields.add(Objects.requireNonNull(field, "field"));
        }
        this.reasoningFields = List.copyOf(fields);
        return this;
    }

    /**
     * Adds reasoning text, streamed in the reasoning fields.
     *
     * <p>Empty text still produces one delta with {@code ""}, as DeepSeek's first chunk does.
     *
     * @param text the reasoning text
     * @return this script
     * @since 0.1
     */
    public ChatCompletionsScript reasoning(String text) {
        return add(Step.Reasoning.of(text, null));
    }

    /**
     * Adds answer text, streamed in {@code delta.content}.
     *
     * <p>The text goes out as given: {@code <think>…</think>} in it stays in the content, as
     * servers that tag reasoning inline send it.
     *
     * @param text the answer text; empty text still produces one delta with {@code ""}
     * @return this script
     * @since 0.1
     */
    public ChatCompletionsScript content(String text) {
        return add(new Step.Text(text, null));
    }

    /**
     * Adds answer text signed as Gemini's OpenAI-compatible endpoint signs a reply: the last delta
     * of the text (or, in a whole body, the message) carries
     * {@code "extra_content":{"google":{"thought_signature":…}}}.
     *
     * @param text the answer text
     * @param thoughtSignature the signature, written as given
     * @return this script
     * @since 0.1
     */
    public ChatCompletionsScript signedContent(String text, String thoughtSignature) {
        return add(new Step.Text(text, Objects.requireNonNull(thoughtSignature, "thoughtSignature")));
    }

    /**
     * Adds a function call signed as Gemini's OpenAI-compatible endpoint signs one: its first
     * fragment (or, in a whole body, the call) carries
     * {@code "extra_content":{"google":{"thought_signature":…}}}. The id is written as given, so
     * an empty string gives Gemini's id-less calls.
     *
     * @param id the call id, possibly empty
     * @param name the function name
     * @param argumentsJson the arguments JSON text
     * @param thoughtSignature the signature, written as given
     * @return this script
     * @since 0.1
     */
    public ChatCompletionsScript signedToolCall(String id, String name, String argumentsJson, String thoughtSignature) {
        return add(new Step.ToolCall(Objects.requireNonNull(id, "id"), name, argumentsJson,
                Objects.requireNonNull(thoughtSignature, "thoughtSignature"), null));
    }

    /**
     * Adds a function call.
     *
     * <p>Streamed as OpenAI does: a first fragment with {@code index}, {@code id},
     * {@code "type":"function"}, the name and {@code "arguments":""}, then fragments of the
     * arguments cut like texts (see {@link #tokensOf(int)}); or whole in one delta with
     * {@link #wholeToolCalls(boolean)}.
     *
     * @param id the call id, such as {@code call_abc}
     * @param name the function name
     * @param argumentsJson the arguments JSON text, written as a JSON string (it need not be valid JSON)
     * @return this script
     * @since 0.1
     */
    public ChatCompletionsScript toolCall(String id, String name, String argumentsJson) {
        return add(Step.ToolCall.of(Objects.requireNonNull(id, "id"), name, argumentsJson));
    }

    /**
     * Chooses whether each tool call is streamed whole in one delta (id, name and all arguments),
     * as xAI does, instead of in fragments.
     *
     * @param value true for one delta per call; false (the default) for OpenAI-style fragments
     * @return this script
     * @since 0.1
     */
    public ChatCompletionsScript wholeToolCalls(boolean value) {
        this.wholeToolCalls = value;
        return this;
    }

    /**
     * Chooses Mistral's content chunks (Magistral and the adjustable-reasoning models): reasoning
     * deltas become {@code "content":[{"type":"thinking","thinking":[{"type":"text","text":…}]}]}
     * instead of the reasoning fields, and answer deltas {@code "content":[{"type":"text","text":…}]};
     * the non-streaming message's {@code content} is the array of one thinking chunk (all reasoning)
     * and one text chunk (all answer text).
     *
     * @param value true for thinking chunks; false (the default) for reasoning fields and string content
     * @return this script
     * @see <a href="https://docs.mistral.ai/capabilities/reasoning/">Mistral reasoning</a>
     * @since 0.1
     */
    public ChatCompletionsScript thinkingChunks(boolean value) {
        this.thinkingChunks = value;
        return this;
    }

    /**
     * Adds an SSE comment line ({@code : text}) at this point of the stream, like OpenRouter's
     * {@code : OPENROUTER PROCESSING} keep-alives.
     *
     * @param text the comment text
     * @return this script
     * @throws IllegalArgumentException if the text holds a line break
     * @since 0.1
     */
    public ChatCompletionsScript comment(String text) {
        if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("an SSE comment is one line, got " + text);
        }
        return add(new Step.KeepAlive(text));
    }

    /**
     * Sets the finish reason sent on the finish chunk.
     *
     * @param reason {@code stop}, {@code length}, {@code tool_calls}, {@code content_filter} or any
     *     other string; {@code null} to send no finish chunk at all (a stream cut short)
     * @return this script
     * @since 0.1
     */
    public ChatCompletionsScript finish(@Nullable String reason) {
        this.finishReason = reason;
        return this;
    }

    /**
     * Sets the token usage to report; {@code total_tokens} is prompt plus completion.
     *
     * @param promptTokens {@code prompt_tokens}
     * @param completionTokens {@code completion_tokens}, reasoning included
     * @param reasoningTokens {@code completion_tokens_details.reasoning_tokens}
     * @return this script
     * @throws IllegalArgumentException if a count is negative
     * @since 0.1
     */
    public ChatCompletionsScript usage(int promptTokens, int completionTokens, int reasoningTokens) {
        if (promptTokens < 0 || completionTokens < 0 || reasoningTokens < 0) {
            throw new IllegalArgumentException("token counts must not be negative, got " + promptTokens + ", "
                    + completionTokens + ", " + reasoningTokens);
        }
        this.usage = new Usage(promptTokens, completionTokens, reasoningTokens);
        return this;
    }

    /**
     * Chooses where the usage goes in the stream.
     *
     * @param value true to put {@code usage} on the finish chunk, as DeepSeek does; false (the
     *     default) for a separate chunk with {@code "choices":[]} after it, as OpenAI does with
     *     {@code stream_options.include_usage}. Without a finish chunk the usage always goes in its
     *     own chunk.
     * @return this script
     * @since 0.1
     */
    public ChatCompletionsScript usageOnFinishChunk(boolean value) {
        this.usageOnFinishChunk = value;
        return this;
    }

    /**
     * Chooses whether the stream ends with {@code data: [DONE]}.
     *
     * @param value true (the default) to send it
     * @return this script
     * @since 0.1
     */
    public ChatCompletionsScript done(boolean value) {
        this.done = value;
        return this;
    }

    /**
     * Inserts a malformed data event (a JSON chunk cut off halfway) before the
     * {@code chunkIndex}-th JSON chunk of the stream.
     *
     * <p>Chunks are counted from 0 and include the opening role chunk, the finish chunk and the
     * usage chunk, but neither comments nor {@code [DONE]}; an index equal to the number of chunks
     * puts the malformed event after the last one. May be called more than once.
     *
     * @param chunkIndex where to insert it, at least 0
     * @return this script
     * @throws IllegalArgumentException if {@code chunkIndex < 0}; an index past the end fails when rendering
     * @since 0.1
     */
    public ChatCompletionsScript malformedChunkAt(int chunkIndex) {
        if (chunkIndex < 0) {
            throw new IllegalArgumentException("chunk index must not be negative, got " + chunkIndex);
        }
        malformedAt.add(chunkIndex);
        return this;
    }

    /**
     * Renders the streamed response body.
     *
     * @return the SSE text
     * @throws IllegalStateException if a {@link #malformedChunkAt(int) malformed chunk} index is past the end
     * @since 0.1
     */
    public String toSse() {
        return new ChatCompletionsWriter(this).sse();
    }

    /**
     * Renders the streamed response as a 200 {@code text/event-stream} response.
     *
     * @return the response, chunked with {@link ChunkPlan#whole()}; refine it with {@link EmulatorResponse#chunked}
     * @throws IllegalStateException if a malformed chunk index is past the end
     * @since 0.1
     */
    @Override
    public EmulatorResponse toResponse() {
        return EmulatorResponse.sse(toSse());
    }

    /**
     * Renders the equivalent non-streaming {@code chat.completion} body.
     *
     * <p>The message holds {@code role}, {@code content} (all answer text, or {@code null} when
     * there is none), each reasoning field with all reasoning text (when there is any), and
     * {@code tool_calls} with whole arguments (when there are any); then {@code finish_reason} and
     * {@code usage} with {@code completion_tokens_details.reasoning_tokens} (when set).
     *
     * @return the JSON text
     * @since 0.1
     */
    public String toCompletionJson() {
        return new ChatCompletionsWriter(this).completion();
    }

    /**
     * Renders the non-streaming body as a 200 {@code application/json} response.
     *
     * @return the response
     * @since 0.1
     */
    public EmulatorResponse toCompletionResponse() {
        return EmulatorResponse.json(200, toCompletionJson());
    }

    @Override
    ChatCompletionsScript self() {
        return this;
    }

    List<Integer> malformedAt() {
        return malformedAt;
    }

    String id() {
        return id;
    }

    String model() {
        return model;
    }

    long created() {
        return created;
    }

    List<String> reasoningFields() {
        return reasoningFields;
    }

    boolean wholeToolCalls() {
        return wholeToolCalls;
    }

    boolean thinkingChunks() {
        return thinkingChunks;
    }

    @Nullable String finishReason() {
        return finishReason;
    }

    @Nullable Usage usage() {
        return usage;
    }

    boolean usageOnFinishChunk() {
        return usageOnFinishChunk;
    }

    boolean done() {
        return done;
    }
}
