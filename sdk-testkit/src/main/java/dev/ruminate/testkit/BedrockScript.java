package dev.ruminate.testkit;

import java.io.ByteArrayOutputStream;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

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
 * field. {@link #exceptionAtEnd} replaces the end with an exception frame.
 *
 * <p>A mutable builder: not thread-safe; each {@code to…} method renders the current steps.
 *
 * @since 0.1
 */
public final class BedrockScript {

    private static final JsonFactory JSON = new JsonFactory();
    private static final String PADDING = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    private final List<Block> blocks = new ArrayList<>();
    private String stopReason = "end_turn";
    private long inputTokens = 12;
    private long outputTokens = 34;
    private int tokenSize = 4;
    private boolean stop = true;
    private @Nullable String exceptionType;
    private String exceptionMessage = "";

    private record Block(String kind, String text, @Nullable String signature, @Nullable String id, @Nullable String name) {
    }

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
        blocks.add(new Block("reasoning", text, signature, null, null));
        return this;
    }

    /**
     * Adds a redacted reasoning block.
     *
     * @param data the opaque base64 data
     * @return this script
     */
    public BedrockScript redacted(String data) {
        blocks.add(new Block("redacted", data, null, null, null));
        return this;
    }

    /**
     * Adds a text block.
     *
     * @param text the answer text
     * @return this script
     */
    public BedrockScript text(String text) {
        blocks.add(new Block("text", text, null, null, null));
        return this;
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
        blocks.add(new Block("toolUse", inputJson, null, id, name));
        return this;
    }

    /**
     * Sets the stop reason ({@code end_turn}, {@code tool_use}, {@code max_tokens}, …).
     *
     * @param reason the reason
     * @return this script
     */
    public BedrockScript stopReason(String reason) {
        this.stopReason = reason;
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
     * Sets how many code points each text or reasoning delta carries.
     *
     * @param codePoints at least 1
     * @return this script
     */
    public BedrockScript tokensOf(int codePoints) {
        if (codePoints < 1) {
            throw new IllegalArgumentException("codePoints must be >= 1");
        }
        this.tokenSize = codePoints;
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
        this.exceptionType = type;
        this.exceptionMessage = message;
        return this;
    }

    /**
     * Renders the ConverseStream body.
     *
     * @return the binary event stream
     */
    public byte[] toEventStream() {
        List<byte[]> frames = new ArrayList<>();
        int[] padding = {0};
        frames.add(EventStreamFrames.event("messageStart", json(g -> g.writeStringProperty("role", "assistant"), padding)));
        for (int index = 0; index < blocks.size(); index++) {
            Block b = blocks.get(index);
            int block = index;
            switch (b.kind()) {
                case "reasoning" -> {
                    for (String piece : pieces(b.text())) {
                        frames.add(delta(block, g -> {
                            g.writeObjectPropertyStart("reasoningContent");
                            g.writeStringProperty("text", piece);
                            g.writeEndObject();
                        }, padding));
                    }
                    if (b.signature() != null) {
                        frames.add(delta(block, g -> {
                            g.writeObjectPropertyStart("reasoningContent");
                            g.writeStringProperty("signature", b.signature());
                            g.writeEndObject();
                        }, padding));
                    }
                }
                case "redacted" -> frames.add(delta(block, g -> {
                    g.writeObjectPropertyStart("reasoningContent");
                    g.writeStringProperty("redactedContent", b.text());
                    g.writeEndObject();
                }, padding));
                case "text" -> {
                    for (String piece : pieces(b.text())) {
                        frames.add(delta(block, g -> g.writeStringProperty("text", piece), padding));
                    }
                }
                default -> {
                    frames.add(EventStreamFrames.event("contentBlockStart", json(g -> {
                        g.writeNumberProperty("contentBlockIndex", block);
                        g.writeObjectPropertyStart("start");
                        g.writeObjectPropertyStart("toolUse");
                        g.writeStringProperty("toolUseId", b.id());
                        g.writeStringProperty("name", b.name());
                        g.writeEndObject();
                        g.writeEndObject();
                    }, padding)));
                    for (String piece : pieces(b.text())) {
                        frames.add(delta(block, g -> {
                            g.writeObjectPropertyStart("toolUse");
                            g.writeStringProperty("input", piece);
                            g.writeEndObject();
                        }, padding));
                    }
                }
            }
            frames.add(EventStreamFrames.event("contentBlockStop",
                    json(g -> g.writeNumberProperty("contentBlockIndex", block), padding)));
        }
        if (exceptionType != null) {
            frames.add(EventStreamFrames.exception(exceptionType, exceptionMessage));
        } else if (stop) {
            frames.add(EventStreamFrames.event("messageStop", json(g -> g.writeStringProperty("stopReason", stopReason),
                    padding)));
            frames.add(EventStreamFrames.event("metadata", json(g -> {
                g.writeObjectPropertyStart("usage");
                g.writeNumberProperty("inputTokens", inputTokens);
                g.writeNumberProperty("outputTokens", outputTokens);
                g.writeNumberProperty("totalTokens", inputTokens + outputTokens);
                g.writeEndObject();
                g.writeObjectPropertyStart("metrics");
                g.writeNumberProperty("latencyMs", 1234);
                g.writeEndObject();
            }, padding)));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] f : frames) {
            out.writeBytes(f);
        }
        return out.toByteArray();
    }

    /**
     * Renders the stream as an emulator response with Bedrock's content type.
     *
     * @return the response
     */
    public EmulatorResponse toResponse() {
        return EmulatorResponse.bytes("application/vnd.amazon.eventstream", toEventStream());
    }

    /**
     * Renders the non-streaming Converse response body.
     *
     * @return the JSON body
     */
    public String toConverseJson() {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), w)) {
            g.writeStartObject();
            g.writeObjectPropertyStart("output");
            g.writeObjectPropertyStart("message");
            g.writeStringProperty("role", "assistant");
            g.writeArrayPropertyStart("content");
            for (Block b : blocks) {
                g.writeStartObject();
                switch (b.kind()) {
                    case "reasoning" -> {
                        g.writeObjectPropertyStart("reasoningContent");
                        g.writeObjectPropertyStart("reasoningText");
                        g.writeStringProperty("text", b.text());
                        if (b.signature() != null) {
                            g.writeStringProperty("signature", b.signature());
                        }
                        g.writeEndObject();
                        g.writeEndObject();
                    }
                    case "redacted" -> {
                        g.writeObjectPropertyStart("reasoningContent");
                        g.writeStringProperty("redactedContent", b.text());
                        g.writeEndObject();
                    }
                    case "text" -> g.writeStringProperty("text", b.text());
                    default -> {
                        g.writeObjectPropertyStart("toolUse");
                        g.writeStringProperty("toolUseId", b.id());
                        g.writeStringProperty("name", b.name());
                        g.writeName("input");
                        g.writeRawValue(b.text());
                        g.writeEndObject();
                    }
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
            g.writeStringProperty("stopReason", stopReason);
            g.writeObjectPropertyStart("usage");
            g.writeNumberProperty("inputTokens", inputTokens);
            g.writeNumberProperty("outputTokens", outputTokens);
            g.writeNumberProperty("totalTokens", inputTokens + outputTokens);
            g.writeEndObject();
            g.writeEndObject();
        }
        return w.toString();
    }

    private byte[] delta(int block, Consumer<JsonGenerator> body, int[] padding) {
        return EventStreamFrames.event("contentBlockDelta", json(g -> {
            g.writeNumberProperty("contentBlockIndex", block);
            g.writeObjectPropertyStart("delta");
            body.accept(g);
            g.writeEndObject();
        }, padding));
    }

    /** Writes one payload object, with Bedrock's random-length {@code p} padding (here: a cycle of lengths). */
    private static String json(Consumer<JsonGenerator> fields, int[] padding) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), w)) {
            g.writeStartObject();
            fields.accept(g);
            g.writeStringProperty("p", PADDING.substring(0, 1 + (padding[0]++ * 7) % PADDING.length()));
            g.writeEndObject();
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
