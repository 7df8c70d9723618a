package dev.ruminate.testkit;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/** Renders an {@link AnthropicScript} as SSE text or as a non-streaming message body. */
final class AnthropicWriter {

    // The API does not escape '/', and a test comparing text with the wire is easier to read without it.
    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES)
            .build();

    private final AnthropicScript script;
    private final StringBuilder sse = new StringBuilder();

    AnthropicWriter(AnthropicScript script) {
        this.script = script;
    }

    String sse() {
        event("message_start", json(g -> {
            g.writeStartObject();
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
            g.writeEndObject();
        }));
        int index = 0;
        for (AnthropicStep step : script.steps()) {
            if (step instanceof AnthropicStep.Ping) {
                sse.append("event: ping\ndata: {\"type\": \"ping\"}\n\n");
                continue;
            }
            if (step instanceof AnthropicStep.Error error) {
                event("error", json(g -> {
                    g.writeStartObject();
                    g.writeStringProperty("type", "error");
                    g.writeObjectPropertyStart("error");
                    g.writeStringProperty("type", error.type());
                    g.writeStringProperty("message", error.message());
                    g.writeEndObject();
                    g.writeEndObject();
                }));
                return sse.toString();
            }
            block(index++, step);
        }
        if (script.stop()) {
            event("message_delta", json(g -> {
                g.writeStartObject();
                g.writeStringProperty("type", "message_delta");
                g.writeObjectPropertyStart("delta");
                nullable(g, "stop_reason", script.stopReason());
                g.writeNullProperty("stop_sequence");
                g.writeEndObject();
                g.writeObjectPropertyStart("usage");
                g.writeNumberProperty("output_tokens", script.outputTokens());
                g.writeEndObject();
                g.writeEndObject();
            }));
            event("message_stop", "{\"type\":\"message_stop\"}");
        }
        return sse.toString();
    }

    private void block(int index, AnthropicStep step) {
        if (step instanceof AnthropicStep.Thinking thinking) {
            start(index, g -> {
                g.writeStringProperty("type", "thinking");
                g.writeStringProperty("thinking", "");
                g.writeStringProperty("signature", "");
            });
            for (String piece : pieces(thinking.text())) {
                delta(index, "thinking_delta", "thinking", piece);
            }
            delta(index, "signature_delta", "signature", thinking.signature());
        } else if (step instanceof AnthropicStep.Redacted redacted) {
            start(index, g -> {
                g.writeStringProperty("type", "redacted_thinking");
                g.writeStringProperty("data", redacted.data());
            });
        } else if (step instanceof AnthropicStep.Text text) {
            start(index, g -> {
                g.writeStringProperty("type", "text");
                g.writeStringProperty("text", "");
            });
            for (String piece : pieces(text.text())) {
                delta(index, "text_delta", "text", piece);
            }
        } else if (step instanceof AnthropicStep.ToolUse use) {
            start(index, g -> {
                toolUseHead(g, use);
                g.writeObjectPropertyStart("input");
                g.writeEndObject();
                if (!use.serverName().isEmpty()) {
                    g.writeStringProperty("server_name", use.serverName());
                }
            });
            delta(index, "input_json_delta", "partial_json", "");
            for (String piece : pieces(use.inputJson())) {
                delta(index, "input_json_delta", "partial_json", piece);
            }
        } else if (step instanceof AnthropicStep.ToolResult result) {
            start(index, g -> toolResultFields(g, result));
        }
        event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":" + index + "}");
    }

    private void start(int index, Consumer<JsonGenerator> fields) {
        event("content_block_start", json(g -> {
            g.writeStartObject();
            g.writeStringProperty("type", "content_block_start");
            g.writeNumberProperty("index", index);
            g.writeObjectPropertyStart("content_block");
            fields.accept(g);
            g.writeEndObject();
            g.writeEndObject();
        }));
    }

    private void delta(int index, String type, String field, String value) {
        event("content_block_delta", json(g -> {
            g.writeStartObject();
            g.writeStringProperty("type", "content_block_delta");
            g.writeNumberProperty("index", index);
            g.writeObjectPropertyStart("delta");
            g.writeStringProperty("type", type);
            g.writeStringProperty(field, value);
            g.writeEndObject();
            g.writeEndObject();
        }));
    }

    String message() {
        return json(g -> {
            g.writeStartObject();
            g.writeStringProperty("id", script.id());
            g.writeStringProperty("type", "message");
            g.writeStringProperty("role", "assistant");
            g.writeStringProperty("model", script.model());
            g.writeArrayPropertyStart("content");
            for (AnthropicStep step : script.steps()) {
                wholeBlock(g, step);
            }
            g.writeEndArray();
            nullable(g, "stop_reason", script.stopReason());
            g.writeNullProperty("stop_sequence");
            g.writeObjectPropertyStart("usage");
            g.writeNumberProperty("input_tokens", script.inputTokens());
            g.writeNumberProperty("output_tokens", script.outputTokens());
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    private static void wholeBlock(JsonGenerator g, AnthropicStep step) {
        if (step instanceof AnthropicStep.Thinking thinking) {
            g.writeStartObject();
            g.writeStringProperty("type", "thinking");
            g.writeStringProperty("thinking", thinking.text());
            g.writeStringProperty("signature", thinking.signature());
            g.writeEndObject();
        } else if (step instanceof AnthropicStep.Redacted redacted) {
            g.writeStartObject();
            g.writeStringProperty("type", "redacted_thinking");
            g.writeStringProperty("data", redacted.data());
            g.writeEndObject();
        } else if (step instanceof AnthropicStep.Text text) {
            g.writeStartObject();
            g.writeStringProperty("type", "text");
            g.writeStringProperty("text", text.text());
            g.writeEndObject();
        } else if (step instanceof AnthropicStep.ToolUse use) {
            g.writeStartObject();
            toolUseHead(g, use);
            g.writeName("input");
            g.writeRawValue(valid(use.inputJson().isEmpty() ? "{}" : use.inputJson()));
            if (!use.serverName().isEmpty()) {
                g.writeStringProperty("server_name", use.serverName());
            }
            g.writeEndObject();
        } else if (step instanceof AnthropicStep.ToolResult result) {
            g.writeStartObject();
            toolResultFields(g, result);
            g.writeEndObject();
        }
    }

    private static void toolUseHead(JsonGenerator g, AnthropicStep.ToolUse use) {
        g.writeStringProperty("type", use.type());
        g.writeStringProperty("id", use.id());
        g.writeStringProperty("name", use.name());
    }

    private static void toolResultFields(JsonGenerator g, AnthropicStep.ToolResult result) {
        g.writeStringProperty("type", result.type());
        g.writeStringProperty("tool_use_id", result.toolUseId());
        g.writeName("content");
        g.writeRawValue(valid(result.contentJson()));
    }

    /** Checks that text is one JSON value, so that the body stays valid JSON. */
    private static String valid(String json) {
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), json)) {
            if (p.nextToken() == null) {
                throw new IllegalArgumentException("empty JSON value");
            }
            p.skipChildren();
            if (p.nextToken() != null) {
                throw new IllegalArgumentException("text after the JSON value: " + json);
            }
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not valid JSON: " + json, e);
        }
        return json;
    }

    private List<String> pieces(String text) {
        List<String> pieces = new ArrayList<>();
        int size = script.tokenSize();
        int start = 0;
        while (start < text.length()) {
            int end = start;
            for (int n = 0; n < size && end < text.length(); n++) {
                end = text.offsetByCodePoints(end, 1);
            }
            pieces.add(text.substring(start, end));
            start = end;
        }
        return pieces;
    }

    private static void nullable(JsonGenerator g, String name, @Nullable String value) {
        if (value == null) {
            g.writeNullProperty(name);
        } else {
            g.writeStringProperty(name, value);
        }
    }

    private void event(String type, String data) {
        sse.append("event: ").append(type).append("\ndata: ").append(data).append("\n\n");
    }

    private static String json(Consumer<JsonGenerator> body) {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(ObjectWriteContext.empty(), text)) {
            body.accept(json);
        }
        return text.toString();
    }
}
