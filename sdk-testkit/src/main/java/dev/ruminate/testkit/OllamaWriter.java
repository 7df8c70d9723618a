package dev.ruminate.testkit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/** Writes the steps of an {@link OllamaScript} as NDJSON lines (one per piece or call) or as a non-streaming body. */
final class OllamaWriter {

    private static final String FORMAT = "Ollama";
    private static final Instant START = Instant.parse("2025-08-23T11:02:35.981493063Z");

    private final OllamaScript script;
    private int lineCount;

    OllamaWriter(OllamaScript script) {
        this.script = script;
    }

    String ndjson() {
        Records lines = new Records();
        boolean chat = script.endpoint() == OllamaScript.Endpoint.CHAT;
        for (Step step : script.steps()) {
            if (step instanceof Step.Reasoning thinking) {
                for (String piece : script.pieces(thinking.text())) {
                    lines.add(line(g -> text(g, chat, "", piece), false) + "\n");
                }
            } else if (step instanceof Step.Text content) {
                for (String piece : script.pieces(content.text())) {
                    lines.add(line(g -> text(g, chat, piece, null), false) + "\n");
                }
            } else if (step instanceof Step.ToolCall call) {
                requireChat(chat);
                lines.add(line(g -> message(g, "", null, List.of(call)), false) + "\n");
            } else if (step instanceof Step.Error error) {
                lines.add(Json.object(g -> g.writeStringProperty("error", error.message())) + "\n");
            } else {
                throw Step.unsupported(step, FORMAT);
            }
        }
        if (script.done()) {
            lines.add(line(g -> text(g, chat, "", null), true) + "\n");
        }
        return lines.join(script.malformedAt(), "line",
                () -> Json.half(line(g -> text(g, chat, "malformed", null), false)) + "\n");
    }

    String whole() {
        StringBuilder thinking = new StringBuilder();
        StringBuilder content = new StringBuilder();
        List<Step.ToolCall> calls = new ArrayList<>();
        for (Step step : script.steps()) {
            if (step instanceof Step.Reasoning t) {
                thinking.append(t.text());
            } else if (step instanceof Step.Text c) {
                content.append(c.text());
            } else if (step instanceof Step.ToolCall call) {
                calls.add(call);
            }
        }
        boolean chat = script.endpoint() == OllamaScript.Endpoint.CHAT;
        if (!chat) {
            requireNoCalls(calls);
        }
        String reasoning = thinking.length() > 0 ? thinking.toString() : null;
        return line(g -> {
            if (chat) {
                message(g, content.toString(), reasoning, calls);
            } else {
                g.writeStringProperty("response", content.toString());
                if (reasoning != null) {
                    g.writeStringProperty("thinking", reasoning);
                }
            }
        }, true);
    }

    private static void requireChat(boolean chat) {
        if (!chat) {
            throw new IllegalStateException("/api/generate responses have no tool calls");
        }
    }

    private static void requireNoCalls(List<Step.ToolCall> calls) {
        if (!calls.isEmpty()) {
            throw new IllegalStateException("/api/generate responses have no tool calls");
        }
    }

    private static void text(JsonGenerator g, boolean chat, String content, @Nullable String thinking) {
        if (chat) {
            message(g, content, thinking, List.of());
        } else {
            g.writeStringProperty("response", content);
            if (thinking != null) {
                g.writeStringProperty("thinking", thinking);
            }
        }
    }

    private static void message(JsonGenerator g, String content, @Nullable String thinking,
                                List<Step.ToolCall> calls) {
        g.writeObjectPropertyStart("message");
        g.writeStringProperty("role", "assistant");
        g.writeStringProperty("content", content);
        if (thinking != null) {
            g.writeStringProperty("thinking", thinking);
        }
        if (!calls.isEmpty()) {
            g.writeArrayPropertyStart("tool_calls");
            for (int i = 0; i < calls.size(); i++) {
                Step.ToolCall call = calls.get(i);
                g.writeStartObject();
                if (call.id() != null) {
                    g.writeStringProperty("id", call.id());
                }
                g.writeObjectPropertyStart("function");
                g.writeNumberProperty("index", i);
                g.writeStringProperty("name", call.name());
                g.writeName("arguments");
                g.writeRawValue(call.arguments());
                g.writeEndObject();
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    /** One object with the common head ({@code model}, {@code created_at}) and, when done, the tail. */
    private String line(Consumer<JsonGenerator> body, boolean last) {
        Instant at = START.plusMillis(lineCount++);
        return Json.object(g -> {
            g.writeStringProperty("model", script.model());
            g.writeStringProperty("created_at", at.toString());
            body.accept(g);
            g.writeBooleanProperty("done", last);
            if (last) {
                tail(g);
            }
        });
    }

    private void tail(JsonGenerator g) {
        if (script.doneReason() != null) {
            g.writeStringProperty("done_reason", script.doneReason());
        }
        if (script.endpoint() == OllamaScript.Endpoint.GENERATE) {
            g.writeArrayPropertyStart("context");
            g.writeNumber(151644);
            g.writeNumber(872);
            g.writeEndArray();
        }
        g.writeNumberProperty("total_duration", 602_776_194L);
        g.writeNumberProperty("load_duration", 1_300_471L);
        if (script.promptEvalCount() != null) {
            g.writeNumberProperty("prompt_eval_count", script.promptEvalCount());
        }
        g.writeNumberProperty("prompt_eval_duration", 130_558_167L);
        if (script.evalCount() != null) {
            g.writeNumberProperty("eval_count", script.evalCount());
        }
        g.writeNumberProperty("eval_duration", 321_716_191L);
    }
}
