package dev.ruminate.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/** Writes the steps of a {@link ChatCompletionsScript} as SSE chunks or as a non-streaming completion body. */
final class ChatCompletionsWriter {

    private static final String FORMAT = "Chat Completions";

    private final ChatCompletionsScript script;

    ChatCompletionsWriter(ChatCompletionsScript script) {
        this.script = script;
    }

    String sse() {
        Records records = new Records();
        records.add(event(chunk(delta -> {
            delta.writeStringProperty("role", "assistant");
            delta.writeStringProperty("content", "");
        }, null, false)));
        int toolIndex = 0;
        for (Step step : script.steps()) {
            if (step instanceof Step.Reasoning reasoning) {
                for (String piece : script.pieces(reasoning.text())) {
                    records.add(event(chunk(delta -> reasoningDelta(delta, piece), null, false)));
                }
            } else if (step instanceof Step.Text text) {
                List<String> pieces = script.pieces(text.text());
                for (int i = 0; i < pieces.size(); i++) {
                    String piece = pieces.get(i);
                    String signature = i == pieces.size() - 1 ? text.signature() : null;
                    records.add(event(chunk(delta -> {
                        contentDelta(delta, piece);
                        googleSignature(delta, signature);
                    }, null, false)));
                }
            } else if (step instanceof Step.ToolCall call) {
                toolCall(records, toolIndex++, call);
            } else if (step instanceof Step.KeepAlive keepAlive) {
                records.addUncounted(": " + keepAlive.comment() + "\n\n");
            } else {
                throw Step.unsupported(step, FORMAT);
            }
        }
        ChatCompletionsScript.Usage usage = script.usage();
        String finish = script.finishReason();
        if (finish != null) {
            records.add(event(chunk(delta -> { }, finish, usage != null && script.usageOnFinishChunk())));
        }
        if (usage != null && (finish == null || !script.usageOnFinishChunk())) {
            records.add(event(usageChunk(usage)));
        }
        String sse = records.join(script.malformedAt(), "chunk", () -> event(Json.half(
                chunk(delta -> delta.writeStringProperty("content", "malformed"), null, false))));
        return script.done() ? sse + event("[DONE]") : sse;
    }

    private void reasoningDelta(JsonGenerator delta, String piece) {
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
    }

    private void contentDelta(JsonGenerator delta, String piece) {
        if (script.thinkingChunks()) {
            delta.writeName("content");
            delta.writeStartArray();
            textChunk(delta, piece);
            delta.writeEndArray();
        } else {
            delta.writeStringProperty("content", piece);
        }
    }

    String completion() {
        StringBuilder reasoning = new StringBuilder();
        StringBuilder content = new StringBuilder();
        boolean hasReasoning = false;
        boolean hasContent = false;
        List<Step.ToolCall> calls = new ArrayList<>();
        String signature = null;
        for (Step step : script.steps()) {
            if (step instanceof Step.Reasoning r) {
                reasoning.append(r.text());
                hasReasoning = true;
            } else if (step instanceof Step.Text t) {
                content.append(t.text());
                hasContent = true;
                signature = t.signature() != null ? t.signature() : signature;
            } else if (step instanceof Step.ToolCall call) {
                calls.add(call);
            }
        }
        boolean withReasoning = hasReasoning;
        boolean withContent = hasContent;
        String messageSignature = signature;
        return Json.object(json -> {
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
                Json.stringOrNull(json, "content", withContent ? content.toString() : null);
            }
            if (withReasoning && !script.thinkingChunks()) {
                for (String field : script.reasoningFields()) {
                    json.writeStringProperty(field, reasoning.toString());
                }
            }
            if (!calls.isEmpty()) {
                json.writeName("tool_calls");
                json.writeStartArray();
                for (Step.ToolCall call : calls) {
                    json.writeStartObject();
                    json.writeStringProperty("id", call.id());
                    json.writeStringProperty("type", "function");
                    json.writeName("function");
                    json.writeStartObject();
                    json.writeStringProperty("name", call.name());
                    json.writeStringProperty("arguments", call.arguments());
                    json.writeEndObject();
                    googleSignature(json, call.signature());
                    json.writeEndObject();
                }
                json.writeEndArray();
            }
            googleSignature(json, messageSignature);
            json.writeEndObject();
            json.writeNullProperty("logprobs");
            Json.stringOrNull(json, "finish_reason", script.finishReason());
            json.writeEndObject();
            json.writeEndArray();
            ChatCompletionsScript.Usage usage = script.usage();
            if (usage != null) {
                usage(json, usage);
            }
        });
    }

    private void toolCall(Records records, int index, Step.ToolCall call) {
        if (script.wholeToolCalls()) {
            records.add(event(toolCallChunk(index, call.id(), call.name(), call.arguments(), call.signature())));
            return;
        }
        records.add(event(toolCallChunk(index, call.id(), call.name(), "", call.signature())));
        for (String piece : script.fragments(call.arguments())) {
            records.add(event(toolCallChunk(index, null, null, piece, null)));
        }
    }

    /** Writes Gemini's {@code "extra_content":{"google":{"thought_signature":…}}} when there is a signature. */
    private static void googleSignature(JsonGenerator json, @Nullable String signature) {
        if (signature == null) {
            return;
        }
        json.writeName("extra_content");
        json.writeStartObject();
        json.writeName("google");
        json.writeStartObject();
        json.writeStringProperty("thought_signature", signature);
        json.writeEndObject();
        json.writeEndObject();
    }

    private String toolCallChunk(int index, @Nullable String id, @Nullable String name, String arguments,
                                 @Nullable String signature) {
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
            googleSignature(delta, signature);
            delta.writeEndObject();
            delta.writeEndArray();
        }, null, false);
    }

    private String chunk(Consumer<JsonGenerator> delta, @Nullable String finishReason, boolean withUsage) {
        return Json.object(json -> {
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
            Json.stringOrNull(json, "finish_reason", finishReason);
            json.writeEndObject();
            json.writeEndArray();
            ChatCompletionsScript.Usage usage = script.usage();
            if (withUsage && usage != null) {
                usage(json, usage);
            }
        });
    }

    private String usageChunk(ChatCompletionsScript.Usage usage) {
        return Json.object(json -> {
            header(json, "chat.completion.chunk");
            json.writeName("choices");
            json.writeStartArray();
            json.writeEndArray();
            usage(json, usage);
        });
    }

    private void header(JsonGenerator json, String object) {
        json.writeStringProperty("id", script.id());
        json.writeStringProperty("object", object);
        json.writeNumberProperty("created", script.created());
        json.writeStringProperty("model", script.model());
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

    private static String event(String data) {
        return "data: " + data + "\n\n";
    }
}
