package dev.ruminate.testkit;

import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Writes the steps of an {@link AnthropicScript} as SSE events or as a non-streaming message body:
 * each step is one content block, except keep-alives and errors, which are events between blocks.
 */
final class AnthropicWriter {

    private static final String FORMAT = "Anthropic Messages";

    private final AnthropicScript script;
    private final StringBuilder sse = new StringBuilder();

    AnthropicWriter(AnthropicScript script) {
        this.script = script;
    }

    String sse() {
        event("message_start", Json.object(g -> {
            g.writeStringProperty("type", "message_start");
            g.writeObjectPropertyStart("message");
            g.writeStringProperty("id", script.id());
            g.writeStringProperty("type", "message");
            g.writeStringProperty("role", "assistant");
            g.writeStringProperty("model", script.model());
            g.writeArrayPropertyStart("content");
            g.writeEndArray();
            g.writeNullProperty("stop_reason");
            g.writeNullProperty("stop_sequence");
            g.writeObjectPropertyStart("usage");
            g.writeNumberProperty("input_tokens", script.inputTokens());
            g.writeNumberProperty("output_tokens", 1);
            g.writeEndObject();
            g.writeEndObject();
        }));
        int index = 0;
        for (Step step : script.steps()) {
            if (step instanceof Step.KeepAlive) {
                // written as the API writes it, with a space after the colon
                sse.append("event: ping\ndata: {\"type\": \"ping\"}\n\n");
                continue;
            }
            if (step instanceof Step.Error error) {
                event("error", Json.object(g -> {
                    g.writeStringProperty("type", "error");
                    g.writeObjectPropertyStart("error");
                    g.writeStringProperty("type", error.type());
                    g.writeStringProperty("message", error.message());
                    g.writeEndObject();
                }));
                return sse.toString();
            }
            block(index++, step);
        }
        if (script.stop()) {
            event("message_delta", Json.object(g -> {
                g.writeStringProperty("type", "message_delta");
                g.writeObjectPropertyStart("delta");
                Json.stringOrNull(g, "stop_reason", script.stopReason());
                g.writeNullProperty("stop_sequence");
                g.writeEndObject();
                g.writeObjectPropertyStart("usage");
                g.writeNumberProperty("output_tokens", script.outputTokens());
                g.writeEndObject();
            }));
            event("message_stop", "{\"type\":\"message_stop\"}");
        }
        return sse.toString();
    }

    private void block(int index, Step step) {
        if (step instanceof Step.Reasoning thinking) {
            start(index, g -> {
                g.writeStringProperty("type", "thinking");
                g.writeStringProperty("thinking", "");
                g.writeStringProperty("signature", "");
            });
            for (String text : thinking.texts()) {
                for (String piece : script.pieces(text)) {
                    delta(index, "thinking_delta", "thinking", piece);
                }
            }
            delta(index, "signature_delta", "signature", signature(thinking));
        } else if (step instanceof Step.Redacted redacted) {
            start(index, g -> {
                g.writeStringProperty("type", "redacted_thinking");
                g.writeStringProperty("data", redacted.data());
            });
        } else if (step instanceof Step.Text text) {
            start(index, g -> {
                g.writeStringProperty("type", "text");
                g.writeStringProperty("text", "");
            });
            for (String piece : script.pieces(text.text())) {
                delta(index, "text_delta", "text", piece);
            }
        } else if (step instanceof Step.ToolCall || step instanceof Step.ServerToolCall) {
            ToolUse use = ToolUse.of(step);
            start(index, g -> {
                use.head(g);
                g.writeObjectPropertyStart("input");
                g.writeEndObject();
                use.server(g);
            });
            // the API's first input fragment is always empty
            delta(index, "input_json_delta", "partial_json", "");
            for (String piece : script.fragments(use.input())) {
                delta(index, "input_json_delta", "partial_json", piece);
            }
        } else if (step instanceof Step.ServerToolResult result) {
            start(index, g -> toolResultFields(g, result));
        } else {
            throw Step.unsupported(step, FORMAT);
        }
        event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":" + index + "}");
    }

    private void start(int index, Consumer<JsonGenerator> fields) {
        event("content_block_start", Json.object(g -> {
            g.writeStringProperty("type", "content_block_start");
            g.writeNumberProperty("index", index);
            g.writeObjectPropertyStart("content_block");
            fields.accept(g);
            g.writeEndObject();
        }));
    }

    private void delta(int index, String type, String field, String value) {
        event("content_block_delta", Json.object(g -> {
            g.writeStringProperty("type", "content_block_delta");
            g.writeNumberProperty("index", index);
            g.writeObjectPropertyStart("delta");
            g.writeStringProperty("type", type);
            g.writeStringProperty(field, value);
            g.writeEndObject();
        }));
    }

    String message() {
        return Json.object(g -> {
            g.writeStringProperty("id", script.id());
            g.writeStringProperty("type", "message");
            g.writeStringProperty("role", "assistant");
            g.writeStringProperty("model", script.model());
            g.writeArrayPropertyStart("content");
            for (Step step : script.steps()) {
                wholeBlock(g, step);
            }
            g.writeEndArray();
            Json.stringOrNull(g, "stop_reason", script.stopReason());
            g.writeNullProperty("stop_sequence");
            g.writeObjectPropertyStart("usage");
            g.writeNumberProperty("input_tokens", script.inputTokens());
            g.writeNumberProperty("output_tokens", script.outputTokens());
            g.writeEndObject();
        });
    }

    private static void wholeBlock(JsonGenerator g, Step step) {
        if (step instanceof Step.Reasoning thinking) {
            g.writeStartObject();
            g.writeStringProperty("type", "thinking");
            g.writeStringProperty("thinking", thinking.text());
            g.writeStringProperty("signature", signature(thinking));
            g.writeEndObject();
        } else if (step instanceof Step.Redacted redacted) {
            g.writeStartObject();
            g.writeStringProperty("type", "redacted_thinking");
            g.writeStringProperty("data", redacted.data());
            g.writeEndObject();
        } else if (step instanceof Step.Text text) {
            g.writeStartObject();
            g.writeStringProperty("type", "text");
            g.writeStringProperty("text", text.text());
            g.writeEndObject();
        } else if (step instanceof Step.ToolCall || step instanceof Step.ServerToolCall) {
            ToolUse use = ToolUse.of(step);
            g.writeStartObject();
            use.head(g);
            g.writeName("input");
            g.writeRawValue(Json.valid(use.input().isEmpty() ? "{}" : use.input()));
            use.server(g);
            g.writeEndObject();
        } else if (step instanceof Step.ServerToolResult result) {
            g.writeStartObject();
            toolResultFields(g, result);
            g.writeEndObject();
        }
    }

    private static String signature(Step.Reasoning thinking) {
        String signature = thinking.signature();
        return signature == null ? "" : signature;
    }

    /** A block with streamed input: {@code tool_use}, {@code server_tool_use} or {@code mcp_tool_use}. */
    private record ToolUse(String type, String id, String name, String input, @Nullable String server) {

        static ToolUse of(Step step) {
            if (step instanceof Step.ServerToolCall call) {
                String type = call.mcpServer() == null ? "server_tool_use" : "mcp_tool_use";
                return new ToolUse(type, call.id(), call.name(), call.arguments(), call.mcpServer());
            }
            Step.ToolCall call = (Step.ToolCall) step;
            return new ToolUse("tool_use", String.valueOf(call.id()), call.name(), call.arguments(), null);
        }

        void head(JsonGenerator g) {
            g.writeStringProperty("type", type);
            g.writeStringProperty("id", id);
            g.writeStringProperty("name", name);
        }

        void server(JsonGenerator g) {
            if (server != null) {
                g.writeStringProperty("server_name", server);
            }
        }
    }

    private static void toolResultFields(JsonGenerator g, Step.ServerToolResult result) {
        g.writeStringProperty("type", result.type());
        g.writeStringProperty("tool_use_id", result.toolUseId());
        g.writeName("content");
        g.writeRawValue(Json.valid(result.contentJson()));
    }

    private void event(String type, String data) {
        sse.append("event: ").append(type).append("\ndata: ").append(data).append("\n\n");
    }
}
