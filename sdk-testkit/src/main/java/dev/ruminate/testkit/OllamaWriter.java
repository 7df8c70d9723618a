package dev.ruminate.testkit;

import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/** Renders an {@link OllamaScript} as NDJSON lines or as a non-streaming body. */
final class OllamaWriter {

    // Ollama (Go's encoding/json) does not escape '/'.
    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES)
            .build();
    private static final Instant START = Instant.parse("2025-08-23T11:02:35.981493063Z");

    private final OllamaScript script;
    private int lineCount;

    OllamaWriter(OllamaScript script) {
        this.script = script;
    }

    String ndjson() {
        List<String> lines = new ArrayList<>();
        boolean chat = script.endpoint() == OllamaScript.Endpoint.CHAT;
        for (OllamaScript.Step step : script.steps()) {
            if (step instanceof OllamaScript.Thinking thinking) {
                for (String piece : pieces(thinking.text())) {
                    lines.add(line(g -> text(g, chat, "", piece), false));
                }
            } else if (step instanceof OllamaScript.Content content) {
                for (String piece : pieces(content.text())) {
                    lines.add(line(g -> text(g, chat, piece, null), false));
                }
            } else if (step instanceof OllamaScript.ToolCall call) {
                requireChat(chat);
                lines.add(line(g -> message(g, "", null, List.of(call)), false));
            } else if (step instanceof OllamaScript.Error error) {
                lines.add(json(g -> {
                    g.writeStartObject();
                    g.writeStringProperty("error", error.message());
                    g.writeEndObject();
                }));
            }
        }
        if (script.done()) {
            lines.add(line(g -> text(g, chat, "", null), true));
        }
        for (int position : script.malformedAt()) {
            if (position > lines.size()) {
                throw new IllegalStateException("malformed line index " + position + " is past the end: the stream has "
                        + lines.size() + " lines");
            }
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i <= lines.size(); i++) {
            for (int position : script.malformedAt()) {
                if (position == i) {
                    String whole = line(g -> text(g, chat, "malformed", null), false);
                    out.append(whole, 0, whole.offsetByCodePoints(0, whole.codePointCount(0, whole.length()) / 2)).append('\n');
                }
            }
            if (i < lines.size()) {
                out.append(lines.get(i)).append('\n');
            }
        }
        return out.toString();
    }

    String whole() {
        StringBuilder thinking = new StringBuilder();
        StringBuilder content = new StringBuilder();
        List<OllamaScript.ToolCall> calls = new ArrayList<>();
        for (OllamaScript.Step step : script.steps()) {
            if (step instanceof OllamaScript.Thinking t) {
                thinking.append(t.text());
            } else if (step instanceof OllamaScript.Content c) {
                content.append(c.text());
            } else if (step instanceof OllamaScript.ToolCall call) {
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

    private static void requireNoCalls(List<OllamaScript.ToolCall> calls) {
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
                                List<OllamaScript.ToolCall> calls) {
        g.writeObjectPropertyStart("message");
        g.writeStringProperty("role", "assistant");
        g.writeStringProperty("content", content);
        if (thinking != null) {
            g.writeStringProperty("thinking", thinking);
        }
        if (!calls.isEmpty()) {
            g.writeArrayPropertyStart("tool_calls");
            for (int i = 0; i < calls.size(); i++) {
                OllamaScript.ToolCall call = calls.get(i);
                g.writeStartObject();
                if (call.id() != null) {
                    g.writeStringProperty("id", call.id());
                }
                g.writeObjectPropertyStart("function");
                g.writeNumberProperty("index", i);
                g.writeStringProperty("name", call.name());
                g.writeName("arguments");
                g.writeRawValue(call.argumentsJson());
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
        return json(g -> {
            g.writeStartObject();
            g.writeStringProperty("model", script.model());
            g.writeStringProperty("created_at", at.toString());
            body.accept(g);
            g.writeBooleanProperty("done", last);
            if (last) {
                tail(g);
            }
            g.writeEndObject();
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

    // Cuts by code points so that no line ends in half a surrogate pair.
    private List<String> pieces(String text) {
        List<String> pieces = new ArrayList<>();
        if (text.isEmpty()) {
            pieces.add("");
            return pieces;
        }
        int start = 0;
        while (start < text.length()) {
            int end = start;
            for (int n = 0; n < script.tokenSize() && end < text.length(); n++) {
                end += Character.charCount(text.codePointAt(end));
            }
            pieces.add(text.substring(start, end));
            start = end;
        }
        return pieces;
    }

    private static String json(Consumer<JsonGenerator> body) {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(ObjectWriteContext.empty(), text)) {
            body.accept(json);
        }
        return text.toString();
    }
}
