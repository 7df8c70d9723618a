package dev.ruminate.testkit;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Writes the steps of a {@link GeminiScript} as SSE chunks (one part each) or as one
 * {@code generateContent} body (one whole part per step).
 */
final class GeminiWriter {

    private static final String FORMAT = "Gemini";

    private final GeminiScript script;

    GeminiWriter(GeminiScript script) {
        this.script = script;
    }

    String sse() {
        StringBuilder sse = new StringBuilder();
        for (String json : chunks()) {
            event(sse, json);
        }
        GeminiScript.Error error = script.error();
        if (error != null) {
            event(sse, Json.object(g -> {
                g.writeObjectPropertyStart("error");
                g.writeNumberProperty("code", error.code());
                g.writeStringProperty("message", error.message());
                g.writeStringProperty("status", error.status());
                g.writeEndObject();
            }));
        }
        return sse.toString();
    }

    String whole() {
        List<String> parts = new ArrayList<>();
        for (Step step : script.steps()) {
            if (step instanceof Step.Reasoning r) {
                parts.add(thoughtPart(r.text()));
            } else if (step instanceof Step.Text t) {
                parts.add(textPart(t.text(), t.signature()));
            } else if (step instanceof Step.ToolCall call) {
                parts.add(wholeCallPart(call));
            } else {
                throw Step.unsupported(step, FORMAT);
            }
        }
        return response(parts, true, true);
    }

    private List<String> chunks() {
        String blockReason = script.blockReason();
        if (blockReason != null) {
            return List.of(Json.object(g -> {
                g.writeObjectPropertyStart("promptFeedback");
                g.writeStringProperty("blockReason", blockReason);
                g.writeEndObject();
                usage(g);
                tail(g);
            }));
        }
        // one part per chunk
        List<String> parts = new ArrayList<>();
        for (Step step : script.steps()) {
            if (step instanceof Step.Reasoning r) {
                for (String text : r.texts()) {
                    script.pieces(text).forEach(piece -> parts.add(thoughtPart(piece)));
                }
            } else if (step instanceof Step.Text t) {
                List<String> pieces = script.pieces(t.text());
                for (int i = 0; i < pieces.size(); i++) {
                    parts.add(textPart(pieces.get(i), i == 0 ? t.signature() : null));
                }
            } else if (step instanceof Step.ToolCall call) {
                if (call.streamedArgument() == null) {
                    parts.add(wholeCallPart(call));
                } else {
                    streamedCallParts(parts, call, call.streamedArgument());
                }
            } else {
                throw Step.unsupported(step, FORMAT);
            }
        }
        if (script.finishReason() != null) {
            parts.add(textPart("", null));
        }
        List<String> chunks = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            boolean last = i == parts.size() - 1;
            chunks.add(response(List.of(parts.get(i)), last, last || script.usageOnEveryChunk()));
        }
        return chunks;
    }

    private static String thoughtPart(String text) {
        return Json.object(g -> {
            g.writeStringProperty("text", text);
            g.writeBooleanProperty("thought", true);
        });
    }

    private static String textPart(String text, @Nullable String signature) {
        return Json.object(g -> {
            g.writeStringProperty("text", text);
            signature(g, signature);
        });
    }

    private static String wholeCallPart(Step.ToolCall call) {
        return Json.object(g -> {
            g.writeObjectPropertyStart("functionCall");
            g.writeStringProperty("name", call.name());
            g.writeName("args");
            g.writeRawValue(call.arguments());
            g.writeEndObject();
            signature(g, call.signature());
        });
    }

    /** Vertex AI's shape: the name with {@code willContinue}, the argument's fragments, an empty closing call. */
    private void streamedCallParts(List<String> parts, Step.ToolCall call, String argument) {
        parts.add(Json.object(g -> {
            g.writeObjectPropertyStart("functionCall");
            g.writeStringProperty("name", call.name());
            g.writeBooleanProperty("willContinue", true);
            g.writeEndObject();
            signature(g, call.signature());
        }));
        for (String piece : script.fragments(Json.onlyString(call.arguments()))) {
            parts.add(Json.object(g -> {
                g.writeObjectPropertyStart("functionCall");
                g.writeArrayPropertyStart("partialArgs");
                g.writeStartObject();
                g.writeStringProperty("jsonPath", "$." + argument);
                g.writeStringProperty("stringValue", piece);
                g.writeBooleanProperty("willContinue", true);
                g.writeEndObject();
                g.writeEndArray();
                g.writeBooleanProperty("willContinue", true);
                g.writeEndObject();
            }));
        }
        parts.add(Json.object(g -> {
            g.writeObjectPropertyStart("functionCall");
            g.writeEndObject();
        }));
    }

    private static void signature(JsonGenerator g, @Nullable String signature) {
        if (signature != null) {
            g.writeStringProperty("thoughtSignature", signature);
        }
    }

    private String response(List<String> parts, boolean finish, boolean withUsage) {
        String finishReason = script.finishReason();
        return Json.object(g -> {
            g.writeArrayPropertyStart("candidates");
            g.writeStartObject();
            g.writeObjectPropertyStart("content");
            g.writeArrayPropertyStart("parts");
            for (String p : parts) {
                g.writeRawValue(p);
            }
            g.writeEndArray();
            g.writeStringProperty("role", "model");
            g.writeEndObject();
            if (finish && finishReason != null) {
                g.writeStringProperty("finishReason", finishReason);
            }
            g.writeNumberProperty("index", 0);
            g.writeEndObject();
            g.writeEndArray();
            if (withUsage) {
                usage(g);
            }
            tail(g);
        });
    }

    private void usage(JsonGenerator g) {
        long prompt = script.promptTokens();
        long candidates = script.candidatesTokens();
        long thoughts = script.thoughtsTokens();
        g.writeObjectPropertyStart("usageMetadata");
        g.writeNumberProperty("promptTokenCount", prompt);
        g.writeNumberProperty("candidatesTokenCount", candidates);
        g.writeNumberProperty("totalTokenCount", prompt + candidates + thoughts);
        if (thoughts > 0) {
            g.writeNumberProperty("thoughtsTokenCount", thoughts);
        }
        g.writeEndObject();
    }

    private void tail(JsonGenerator g) {
        g.writeStringProperty("modelVersion", script.model());
        g.writeStringProperty("responseId", "emulator-response");
    }

    private static void event(StringBuilder sse, String json) {
        sse.append("data: ").append(json).append("\r\n\r\n");
    }
}
