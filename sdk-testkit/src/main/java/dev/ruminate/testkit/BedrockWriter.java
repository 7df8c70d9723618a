package dev.ruminate.testkit;

import java.io.ByteArrayOutputStream;
import java.util.function.Consumer;
import tools.jackson.core.JsonGenerator;

/**
 * Writes the steps of a {@link BedrockScript} as ConverseStream event frames (one content block
 * each) or as a non-streaming Converse body.
 */
final class BedrockWriter {

    private static final String FORMAT = "Bedrock Converse";
    private static final String PADDING = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    private final BedrockScript script;
    private final ByteArrayOutputStream frames = new ByteArrayOutputStream();
    private int payloads;

    BedrockWriter(BedrockScript script) {
        this.script = script;
    }

    byte[] eventStream() {
        event("messageStart", g -> g.writeStringProperty("role", "assistant"));
        int index = 0;
        for (Step step : script.steps()) {
            block(index++, step);
        }
        String exceptionType = script.exceptionType();
        if (exceptionType != null) {
            frames.writeBytes(EventStreamFrames.exception(exceptionType, script.exceptionMessage()));
        } else if (script.stop()) {
            event("messageStop", g -> g.writeStringProperty("stopReason", script.stopReason()));
            event("metadata", g -> {
                usage(g);
                g.writeObjectPropertyStart("metrics");
                g.writeNumberProperty("latencyMs", 1234);
                g.writeEndObject();
            });
        }
        return frames.toByteArray();
    }

    private void block(int index, Step step) {
        if (step instanceof Step.Reasoning reasoning) {
            for (String text : reasoning.texts()) {
                for (String piece : script.pieces(text)) {
                    delta(index, g -> reasoningContent(g, "text", piece));
                }
            }
            String signature = reasoning.signature();
            if (signature != null) {
                delta(index, g -> reasoningContent(g, "signature", signature));
            }
        } else if (step instanceof Step.Redacted redacted) {
            delta(index, g -> reasoningContent(g, "redactedContent", redacted.data()));
        } else if (step instanceof Step.Text text) {
            for (String piece : script.pieces(text.text())) {
                delta(index, g -> g.writeStringProperty("text", piece));
            }
        } else if (step instanceof Step.ToolCall call) {
            event("contentBlockStart", g -> {
                g.writeNumberProperty("contentBlockIndex", index);
                g.writeObjectPropertyStart("start");
                g.writeObjectPropertyStart("toolUse");
                g.writeStringProperty("toolUseId", call.id());
                g.writeStringProperty("name", call.name());
                g.writeEndObject();
                g.writeEndObject();
            });
            for (String piece : script.fragments(call.arguments())) {
                delta(index, g -> {
                    g.writeObjectPropertyStart("toolUse");
                    g.writeStringProperty("input", piece);
                    g.writeEndObject();
                });
            }
        } else {
            throw Step.unsupported(step, FORMAT);
        }
        event("contentBlockStop", g -> g.writeNumberProperty("contentBlockIndex", index));
    }

    String converse() {
        return Json.object(g -> {
            g.writeObjectPropertyStart("output");
            g.writeObjectPropertyStart("message");
            g.writeStringProperty("role", "assistant");
            g.writeArrayPropertyStart("content");
            for (Step step : script.steps()) {
                g.writeStartObject();
                wholeBlock(g, step);
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
            g.writeStringProperty("stopReason", script.stopReason());
            usage(g);
        });
    }

    private static void wholeBlock(JsonGenerator g, Step step) {
        if (step instanceof Step.Reasoning reasoning) {
            g.writeObjectPropertyStart("reasoningContent");
            g.writeObjectPropertyStart("reasoningText");
            g.writeStringProperty("text", reasoning.text());
            String signature = reasoning.signature();
            if (signature != null) {
                g.writeStringProperty("signature", signature);
            }
            g.writeEndObject();
            g.writeEndObject();
        } else if (step instanceof Step.Redacted redacted) {
            reasoningContent(g, "redactedContent", redacted.data());
        } else if (step instanceof Step.Text text) {
            g.writeStringProperty("text", text.text());
        } else if (step instanceof Step.ToolCall call) {
            g.writeObjectPropertyStart("toolUse");
            g.writeStringProperty("toolUseId", call.id());
            g.writeStringProperty("name", call.name());
            g.writeName("input");
            g.writeRawValue(call.arguments());
            g.writeEndObject();
        } else {
            throw Step.unsupported(step, FORMAT);
        }
    }

    private static void reasoningContent(JsonGenerator g, String field, String value) {
        g.writeObjectPropertyStart("reasoningContent");
        g.writeStringProperty(field, value);
        g.writeEndObject();
    }

    private void usage(JsonGenerator g) {
        g.writeObjectPropertyStart("usage");
        g.writeNumberProperty("inputTokens", script.inputTokens());
        g.writeNumberProperty("outputTokens", script.outputTokens());
        g.writeNumberProperty("totalTokens", script.inputTokens() + script.outputTokens());
        g.writeEndObject();
    }

    private void delta(int index, Consumer<JsonGenerator> body) {
        event("contentBlockDelta", g -> {
            g.writeNumberProperty("contentBlockIndex", index);
            g.writeObjectPropertyStart("delta");
            body.accept(g);
            g.writeEndObject();
        });
    }

    /** Writes one event frame, its payload padded like Bedrock's random-length {@code p} field (a cycle of lengths). */
    private void event(String type, Consumer<JsonGenerator> fields) {
        int n = payloads++;
        frames.writeBytes(EventStreamFrames.event(type, Json.object(g -> {
            fields.accept(g);
            g.writeStringProperty("p", PADDING.substring(0, 1 + (n * 7) % PADDING.length()));
        })));
    }
}
