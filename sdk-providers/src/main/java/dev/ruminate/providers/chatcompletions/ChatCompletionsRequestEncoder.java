package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.internal.JsonWriting;
import java.io.ByteArrayOutputStream;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;

/**
 * Writes a Chat Completions request body with Jackson's streaming generator.
 *
 * <p>Field order: {@code model}, {@code messages}, {@code tools}, {@code stream},
 * {@code stream_options}, sampling, reasoning fields, extras. A field named in the request's extras
 * is not written by the encoder: the extra replaces it, whole.
 */
final class ChatCompletionsRequestEncoder {

    private ChatCompletionsRequestEncoder() {
    }

    static byte[] encode(CompatProfile profile, ChatRequest request, boolean stream) {
        Map<String, @Nullable Object> extras = request.extras();
        Set<String> taken = extras.keySet();
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator g = JsonWriting.JSON.createGenerator(ObjectWriteContext.empty(), out)) {
            g.writeStartObject();
            if (!taken.contains("model")) {
                g.writeStringProperty("model", request.model());
            }
            if (!taken.contains("messages")) {
                g.writeName("messages");
                ChatCompletionsMessagesWriter.write(g, profile, request);
            }
            if (!request.tools().isEmpty() && !taken.contains("tools")) {
                writeTools(g, request);
            }
            if (stream) {
                if (!taken.contains("stream")) {
                    g.writeBooleanProperty("stream", true);
                }
                if (profile.streamUsage() && !taken.contains("stream_options")) {
                    g.writeObjectPropertyStart("stream_options");
                    g.writeBooleanProperty("include_usage", true);
                    g.writeEndObject();
                }
            }
            writeSampling(g, profile, request.sampling(), taken);
            ReasoningParams.write(g, profile.reasoningStyle(), request.reasoning(), request.model(), taken,
                    carriesReasoning(profile, request));
            for (Map.Entry<String, @Nullable Object> extra : extras.entrySet()) {
                g.writeName(extra.getKey());
                JsonWriting.writeValue(g, extra.getValue());
            }
            g.writeEndObject();
        }
        return out.toByteArray();
    }

    /** Whether an earlier assistant turn of this profile has reasoning its rule sends back. */
    private static boolean carriesReasoning(CompatProfile profile, ChatRequest request) {
        if (profile.sendBackFor(request.model()).mode() == ReasoningSendBack.Mode.DROP) {
            return false;
        }
        for (Message m : request.messages()) {
            if (m instanceof AssistantMessage a && (a.provider() == null || a.provider().equals(profile.name()))) {
                for (Part p : a.parts()) {
                    if (p instanceof ReasoningPart r && !r.text().isEmpty()) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static void writeTools(JsonGenerator g, ChatRequest request) {
        g.writeArrayPropertyStart("tools");
        for (ToolDefinition tool : request.tools()) {
            g.writeStartObject();
            g.writeStringProperty("type", "function");
            g.writeObjectPropertyStart("function");
            g.writeStringProperty("name", tool.name());
            if (!tool.description().isEmpty()) {
                g.writeStringProperty("description", tool.description());
            }
            g.writeName("parameters");
            JsonWriting.copyJson(g, tool.parametersSchema(), "tool " + tool.name() + " has a parameters schema that");
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void writeSampling(JsonGenerator g, CompatProfile profile, SamplingOptions s, Set<String> taken) {
        if (s.temperature() != null && !taken.contains("temperature")) {
            g.writeNumberProperty("temperature", s.temperature());
        }
        if (s.topP() != null && !taken.contains("top_p")) {
            g.writeNumberProperty("top_p", s.topP());
        }
        if (s.maxOutputTokens() != null && !taken.contains(profile.maxTokensField())) {
            g.writeNumberProperty(profile.maxTokensField(), s.maxOutputTokens());
        }
        if (!s.stop().isEmpty() && !taken.contains("stop")) {
            g.writeArrayPropertyStart("stop");
            for (String stop : s.stop()) {
                g.writeString(stop);
            }
            g.writeEndArray();
        }
        if (s.seed() != null && !taken.contains("seed")) {
            g.writeNumberProperty("seed", s.seed());
        }
    }
}
