package dev.ruminate.testkit;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/** Renders a {@link ChatCompletionsScript} as SSE text or as a non-streaming completion body. */
final class ChatCompletionsWriter {

    // Providers do not escape '/', and a test comparing text with the wire is easier to read without it.
    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES)
            .build();

    private final ChatCompletionsScript script;

    ChatCompletionsWriter(ChatCompletionsScript script) {
        this.script = script;
    }

    String sse() {
        List<String> chunks = new ArrayList<>();
        // Comments sit between chunks; remember after how many chunks each one comes.
        List<Integer> commentPositions = new ArrayList<>();
        List<String> comments = new ArrayList<>();
        chunks.add(chunk(delta -> {
            delta.writeStringProperty("role", "assistant");
            delta.writeStringProperty("content", "");
        }, null, false));
        int toolIndex = 0;
        for (ScriptStep step : script.steps()) {
            if (step instanceof ScriptStep.Reasoning reasoning) {
                for (String piece : pieces(reasoning.text())) {
                    chunks.add(chunk(delta -> {
                        if (script.thinkingChunks()) {
                            delta.writeName("content");
                            delta.writeStartArray();
                            thinkingChunk(delta, piece);
                            delta.writeEndArray();
                            return;
                        }
                        for (String field : script.reasoningFields()) {
                            delta.writeStringProperty(field, piece);
                        }
                    }, null, false));
                }
            } else if (step instanceof ScriptStep.Content content) {
                for (String piece : pieces(content.text())) {
                    chunks.add(chunk(delta -> {
                        if (script.thinkingChunks()) {
                            delta.writeName("content");
                            delta.writeStartArray();
                            textChunk(delta, piece);
                            delta.writeEndArray();
                        } else {
                            delta.writeStringProperty("content", piece);
                        }
                    }, null, false));
                }
            } else if (step instanceof ScriptStep.ToolCall call) {
                addToolCall(chunks, toolIndex++, call);
            } else if (step instanceof ScriptStep.Comment comment) {
                commentPositions.add(chunks.size());
                comments.add(comment.text());
            }
        }
        ChatCompletionsScript.Usage usage = script.usage();
        String finish = script.finishReason();
        if (finish != null) {
            chunks.add(chunk(delta -> { }, finish, usage != null && script.usageOnFinishChunk()));
        }
        if (usage != null && (finish == null || !script.usageOnFinishChunk())) {
            chunks.add(usageChunk(usage));
        }
        for (int position : script.malformedAt()) {
            if (position > chunks.size()) {
                throw new IllegalStateException("malformed chunk index " + position + " is past the end: the stream has "
                        + chunks.size() + " chunks");
            }
        }
        StringBuilder sse = new StringBuilder();
        int comment = 0;
        for (int i = 0; i <= chunks.size(); i++) {
            while (comment < comments.size() && commentPositions.get(comment) == i) {
                sse.append(": ").append(comments.get(comment++)).append("\n\n");
            }
            for (int position : script.malformedAt()) {
                if (position == i) {
                    event(sse, malformed());
                }
            }
            if (i < chunks.size()) {
                event(sse, chunks.get(i));
            }
        }
        if (script.done()) {
            event(sse, "[DONE]");
        }
        return sse.toString();
    }

    String completion() {
        StringBuilder reasoning = new StringBuilder();
        StringBuilder content = new StringBuilder();
        boolean hasReasoning = false;
        boolean hasContent = false;
        List<ScriptStep.ToolCall> calls = new ArrayList<>();
        for (ScriptStep step : script.steps()) {
            if (step instanceof ScriptStep.Reasoning r) {
                reasoning.append(r.text());
                hasReasoning = true;
            } else if (step instanceof ScriptStep.Content c) {
                content.append(c.text());
                hasContent = true;
            } else if (step instanceof ScriptStep.ToolCall call) {
                calls.add(call);
            }
        }
        boolean withReasoning = hasReasoning;
        boolean withContent = hasContent;
        return json(json -> {
            json.writeStartObject();
            header(json, "chat.completion");
            json.writeName("choices");
            json.writeStartArray();
            json.writeStartObject();
            json.writeNumberProperty("index", 0);
            json.writeName("message");
            json.writeStartObject();
            json.writeStringProperty("role", "assistant");
            if (script.thinkingChunks() && (withReasoning || withContent)) {
                json.writeName("content");
                json.writeStartArray();
                if (withReasoning) {
                    thinkingChunk(json, reasoning.toString());
                }
                if (withContent) {
                    textChunk(json, content.toString());
                }
                json.writeEndArray();
            } else {
                stringOrNull(json, "content", withContent ? content.toString() : null);
            }
            if (withReasoning && !script.thinkingChunks()) {
                for (String field : script.reasoningFields()) {
                    json.writeStringProperty(field, reasoning.toString());
                }
            }
            if (!calls.isEmpty()) {
                json.writeName("tool_calls");
                json.writeStartArray();
                for (ScriptStep.ToolCall call : calls) {
                    json.writeStartObject();
                    json.writeStringProperty("id", call.id());
                    json.writeStringProperty("type", "function");
                    function(json, call.name(), call.argumentsJson());
                    json.writeEndObject();
                }
                json.writeEndArray();
            }
            json.writeEndObject();
            json.writeNullProperty("logprobs");
            stringOrNull(json, "finish_reason", script.finishReason());
            json.writeEndObject();
            json.writeEndArray();
            ChatCompletionsScript.Usage usage = script.usage();
            if (usage != null) {
                usage(json, usage);
            }
            json.writeEndObject();
        });
    }

    private void addToolCall(List<String> chunks, int index, ScriptStep.ToolCall call) {
        if (script.wholeToolCalls()) {
            chunks.add(toolCallChunk(index, call.id(), call.name(), call.argumentsJson()));
            return;
        }
        chunks.add(toolCallChunk(index, call.id(), call.name(), ""));
        if (!call.argumentsJson().isEmpty()) {
            for (String piece : pieces(call.argumentsJson())) {
                chunks.add(toolCallChunk(index, null, null, piece));
            }
        }
    }

    private String toolCallChunk(int index, @Nullable String id, @Nullable String name, String arguments) {
        return chunk(delta -> {
            delta.writeName("tool_calls");
            delta.writeStartArray();
            delta.writeStartObject();
            delta.writeNumberProperty("index", index);
            if (id != null) {
                delta.writeStringProperty("id", id);
                delta.writeStringProperty("type", "function");
            }
            delta.writeName("function");
            delta.writeStartObject();
            if (name != null) {
                delta.writeStringProperty("name", name);
            }
            delta.writeStringProperty("arguments", arguments);
            delta.writeEndObject();
            delta.writeEndObject();
            delta.writeEndArray();
        }, null, false);
    }

    private String chunk(Consumer<JsonGenerator> delta, @Nullable String finishReason, boolean withUsage) {
        return json(json -> {
            json.writeStartObject();
            header(json, "chat.completion.chunk");
            json.writeName("choices");
            json.writeStartArray();
            json.writeStartObject();
            json.writeNumberProperty("index", 0);
            json.writeName("delta");
            json.writeStartObject();
            delta.accept(json);
            json.writeEndObject();
            json.writeNullProperty("logprobs");
            stringOrNull(json, "finish_reason", finishReason);
            json.writeEndObject();
            json.writeEndArray();
            ChatCompletionsScript.Usage usage = script.usage();
            if (withUsage && usage != null) {
                usage(json, usage);
            }
            json.writeEndObject();
        });
    }

    private String usageChunk(ChatCompletionsScript.Usage usage) {
        return json(json -> {
            json.writeStartObject();
            header(json, "chat.completion.chunk");
            json.writeName("choices");
            json.writeStartArray();
            json.writeEndArray();
            usage(json, usage);
            json.writeEndObject();
        });
    }

    // A content chunk cut in half: a strict prefix of a JSON object is never valid JSON.
    private String malformed() {
        String whole = chunk(delta -> delta.writeStringProperty("content", "malformed"), null, false);
        return whole.substring(0, whole.offsetByCodePoints(0, whole.codePointCount(0, whole.length()) / 2));
    }

    private void header(JsonGenerator json, String object) {
        json.writeStringProperty("id", script.id());
        json.writeStringProperty("object", object);
        json.writeNumberProperty("created", script.created());
        json.writeStringProperty("model", script.model());
    }

    private static void function(JsonGenerator json, String name, String arguments) {
        json.writeName("function");
        json.writeStartObject();
        json.writeStringProperty("name", name);
        json.writeStringProperty("arguments", arguments);
        json.writeEndObject();
    }

    private static void usage(JsonGenerator json, ChatCompletionsScript.Usage usage) {
        json.writeName("usage");
        json.writeStartObject();
        json.writeNumberProperty("prompt_tokens", usage.prompt());
        json.writeNumberProperty("completion_tokens", usage.completion());
        json.writeNumberProperty("total_tokens", (long) usage.prompt() + usage.completion());
        json.writeName("completion_tokens_details");
        json.writeStartObject();
        json.writeNumberProperty("reasoning_tokens", usage.reasoning());
        json.writeEndObject();
        json.writeEndObject();
    }

    // Cuts by code points so that no delta ends in half a surrogate pair.
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

    private static void thinkingChunk(JsonGenerator json, String text) {
        json.writeStartObject();
        json.writeStringProperty("type", "thinking");
        json.writeName("thinking");
        json.writeStartArray();
        textChunk(json, text);
        json.writeEndArray();
        json.writeEndObject();
    }

    private static void textChunk(JsonGenerator json, String text) {
        json.writeStartObject();
        json.writeStringProperty("type", "text");
        json.writeStringProperty("text", text);
        json.writeEndObject();
    }

    private static void stringOrNull(JsonGenerator json, String name, @Nullable String value) {
        if (value == null) {
            json.writeNullProperty(name);
        } else {
            json.writeStringProperty(name, value);
        }
    }

    private static void event(StringBuilder sse, String data) {
        sse.append("data: ").append(data).append("\n\n");
    }

    private static String json(Consumer<JsonGenerator> body) {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(ObjectWriteContext.empty(), text)) {
            body.accept(json);
        }
        return text.toString();
    }
}
