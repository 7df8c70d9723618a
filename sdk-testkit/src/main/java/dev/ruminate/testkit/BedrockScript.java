package dev.ruminate.testkit;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Writes an Amazon Bedrock Converse response: the binary ConverseStream body
 * ({@code application/vnd.amazon.eventstream}, real frames with both checksums) or the
 * non-streaming Converse JSON, in the shape Bedrock sends for Claude with reasoning.
 *
 * <pre>{@code
 * byte[] body = BedrockScript.create()
 *         .reasoning("The user wants the weather.", "EqQBCkYIBxAB…")   // text, then its signature
 *         .toolUse("tooluse_1", "weather", "{\"city\":\"Paris\"}")
 *         .stopReason("tool_use")
 *         .usage(51, 94)
 *         .toEventStream();
 * }</pre>
 *
 * <p>The stream: {@code messageStart}; per block, its deltas (reasoning text in pieces of
 * {@link #tokensOf(int)} code points, then its signature; redacted content whole; text in pieces;
 * a tool use as {@code contentBlockStart} then input fragments) and {@code contentBlockStop};
 * {@code messageStop} with the stop reason; {@code metadata} with usage. Like Bedrock, reasoning and
 * text blocks have no {@code contentBlockStart}, and every payload carries a {@code p} padding
 * field. Empty text is one delta with {@code ""}. {@link #exceptionAtEnd} replaces the end with an
 * exception frame.
 *
 * <p>A mutable builder: not thread-safe; each {@code to…} method renders the current steps.
 *
 * @since 0.1
 */
public final class BedrockScript extends Script<BedrockScript> {

    private String stopReason = "end_turn";
    private long inputTokens = 12;
    private long outputTokens = 34;
    private boolean stop = true;
    private @Nullable String exceptionType;
    private String exceptionMessage = "";

    private BedrockScript() {
    }

    /**
     * Starts an empty script: stop reason {@code end_turn}, usage 12 in and 34 out, four code points per delta.
     *
     * @return a new script
     */
    public static BedrockScript create() {
        return new BedrockScript();
    }

    /**
     * Adds a reasoning block with its signature (Claude's), or none for models that sign nothing.
     *
     * @param text the reasoning text
     * @param signature the signature, sent as the block's last delta, or null
     * @return this script
     */
    public BedrockScript reasoning(String text, @Nullable String signature) {
        return add(Step.Reasoning.of(text, signature));
    }

    /**
     * Adds a redacted reasoning block.
     *
     * @param data the opaque base64 data
     * @return this script
     */
    public BedrockScript redacted(String data) {
        return add(new Step.Redacted(data));
    }

    /**
     * Adds a text block.
     *
     * @param text the answer text
     * @return this script
     */
    public BedrockScript text(String text) {
        return add(new Step.Text(text, null));
    }

    /**
     * Adds a tool use block, its input sent in fragments.
     *
     * @param id the tool use id
     * @param name the tool name
     * @param inputJson the input JSON
     * @return this script
     */
    public BedrockScript toolUse(String id, String name, String inputJson) {
        return add(Step.ToolCall.of(Objects.requireNonNull(id, "id"), name, inputJson));
    }

    /**
     * Sets the stop reason ({@code end_turn}, {@code tool_use}, {@code max_tokens}, …).
     *
     * @param reason the reason
     * @return this script
     */
    public BedrockScript stopReason(String reason) {
        this.stopReason = Objects.requireNonNull(reason, "reason");
        return this;
    }

    /**
     * Sets the usage reported in {@code metadata}.
     *
     * @param input input tokens
     * @param output output tokens
     * @return this script
     */
    public BedrockScript usage(long input, long output) {
        this.inputTokens = input;
        this.outputTokens = output;
        return this;
    }

    /**
     * Leaves out {@code messageStop} and {@code metadata}, as a stream cut short would.
     *
     * @return this script
     */
    public BedrockScript withoutStop() {
        this.stop = false;
        return this;
    }

    /**
     * Ends the stream with an exception frame instead of {@code messageStop}, as Bedrock reports
     * throttling or a model error after the stream started.
     *
     * @param type the {@code :exception-type}, such as {@code throttlingException}
     * @param message the message
     * @return this script
     */
    public BedrockScript exceptionAtEnd(String type, String message) {
        this.exceptionType = Objects.requireNonNull(type, "type");
        this.exceptionMessage = Objects.requireNonNull(message, "message");
        return this;
    }

    /**
     * Renders the ConverseStream body.
     *
     * @return the binary event stream
     */
    public byte[] toEventStream() {
        return new BedrockWriter(this).eventStream();
    }

    /**
     * Renders the stream as an emulator response with Bedrock's content type.
     *
     * @return the response
     */
    @Override
    public EmulatorResponse toResponse() {
        return EmulatorResponse.bytes("application/vnd.amazon.eventstream", toEventStream());
    }

    /**
     * Renders the non-streaming Converse response body.
     *
     * @return the JSON body
     */
    public String toConverseJson() {
        return new BedrockWriter(this).converse();
    }

    @Override
    BedrockScript self() {
        return this;
    }

    String stopReason() {
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

    @Nullable String exceptionType() {
        return exceptionType;
    }

    String exceptionMessage() {
        return exceptionMessage;
    }
}
