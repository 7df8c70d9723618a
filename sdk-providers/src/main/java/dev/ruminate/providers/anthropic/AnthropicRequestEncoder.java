package dev.ruminate.providers.anthropic;

import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.internal.JsonWriting;
import java.io.ByteArrayOutputStream;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;

/**
 * Writes a Messages API request body with Jackson's streaming generator.
 *
 * <p>Field order: {@code model}, {@code max_tokens}, {@code system}, {@code messages},
 * {@code tools}, {@code stream}, {@code thinking}, {@code output_config}, sampling, extras. A field
 * named in the request's extras is not written by the encoder: the extra replaces it, whole.
 */
final class AnthropicRequestEncoder {

    private AnthropicRequestEncoder() {
    }

    static byte[] encode(ChatRequest request, boolean stream, int defaultMaxTokens, String provider) {
        Map<String, @Nullable Object> extras = request.extras();
        Set<String> taken = extras.keySet();
        SamplingOptions sampling = request.sampling();
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator g = JsonWriting.JSON.createGenerator(ObjectWriteContext.empty(), out)) {
            g.writeStartObject();
            if (!taken.contains("model")) {
                g.writeStringProperty("model", request.model());
            }
            if (!taken.contains("max_tokens")) {
                g.writeNumberProperty("max_tokens",
                        sampling.maxOutputTokens() != null ? sampling.maxOutputTokens() : defaultMaxTokens);
            }
            if (!taken.contains("system")) {
                AnthropicMessagesWriter.writeSystem(g, request.messages());
            }
            if (!taken.contains("messages")) {
                g.writeName("messages");
                AnthropicMessagesWriter.writeMessages(g, request.messages(), provider);
            }
            if (!request.tools().isEmpty() && !taken.contains("tools")) {
                writeTools(g, request);
            }
            if (stream && !taken.contains("stream")) {
                g.writeBooleanProperty("stream", true);
            }
            writeThinking(g, request.reasoning(), taken);
            writeSampling(g, sampling, taken);
            for (Map.Entry<String, @Nullable Object> extra : extras.entrySet()) {
                g.writeName(extra.getKey());
                JsonWriting.writeValue(g, extra.getValue());
            }
            g.writeEndObject();
        }
        return out.toByteArray();
    }

    private static void writeThinking(JsonGenerator g, ReasoningOptions r, Set<String> taken) {
        if (r.isDefault() || taken.contains("thinking")) {
            return;
        }
        boolean off = Boolean.FALSE.equals(r.enabled()) || r.effort() == ReasoningEffort.NONE;
        if (off) {
            g.writeObjectPropertyStart("thinking");
            g.writeStringProperty("type", "disabled");
            g.writeEndObject();
            return;
        }
        Integer budget = r.budgetTokens();
        boolean adaptive = budget == null;
        if (adaptive && r.effort() == null && !Boolean.TRUE.equals(r.enabled())) {
            return; // only includeReasoning was set: nothing to ask for
        }
        g.writeObjectPropertyStart("thinking");
        if (budget == null) {
            g.writeStringProperty("type", "adaptive");
        } else {
            g.writeStringProperty("type", "enabled");
            g.writeNumberProperty("budget_tokens", budget);
        }
        if (r.includeReasoning() != null) {
            g.writeStringProperty("display", r.includeReasoning() ? "summarized" : "omitted");
        }
        g.writeEndObject();
        if (adaptive && r.effort() != null && !taken.contains("output_config")) {
            g.writeObjectPropertyStart("output_config");
            g.writeStringProperty("effort", effort(r.effort()));
            g.writeEndObject();
        }
    }

    /** Anthropic's effort levels are low, medium, high and max; minimal has no own level. */
    private static String effort(ReasoningEffort effort) {
        return switch (effort) {
            case NONE, MINIMAL, LOW -> "low";
            case MEDIUM -> "medium";
            case HIGH -> "high";
            case MAX -> "max";
        };
    }

    private static void writeTools(JsonGenerator g, ChatRequest request) {
        g.writeArrayPropertyStart("tools");
        for (ToolDefinition tool : request.tools()) {
            g.writeStartObject();
            g.writeStringProperty("name", tool.name());
            g.writeStringProperty("description", tool.description());
            g.writeName("input_schema");
            copySchema(g, tool);
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** Copies the schema token by token: it is embedded as JSON, and invalid JSON is caught here. */
    private static void copySchema(JsonGenerator g, ToolDefinition tool) {
        try (JsonParser p = AnthropicEventParser.JSON.createParser(ObjectReadContext.empty(), tool.parametersSchema())) {
            if (p.nextToken() == null) {
                throw new IllegalArgumentException("tool " + tool.name() + " has an empty parameters schema");
            }
            g.copyCurrentStructure(p);
            if (p.nextToken() != null) {
                throw new IllegalArgumentException("tool " + tool.name() + " has text after its parameters schema");
            }
        } catch (JacksonException e) {
            throw new IllegalArgumentException("tool " + tool.name() + " has a parameters schema that is not valid JSON: "
                    + e.getOriginalMessage(), e);
        }
    }

    private static void writeSampling(JsonGenerator g, SamplingOptions s, Set<String> taken) {
        if (s.temperature() != null && !taken.contains("temperature")) {
            g.writeNumberProperty("temperature", s.temperature());
        }
        if (s.topP() != null && !taken.contains("top_p")) {
            g.writeNumberProperty("top_p", s.topP());
        }
        if (!s.stop().isEmpty() && !taken.contains("stop_sequences")) {
            g.writeArrayPropertyStart("stop_sequences");
            for (String stop : s.stop()) {
                g.writeString(stop);
            }
            g.writeEndArray();
        }
    }
}
