package dev.ruminate.providers.anthropic;

import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.internal.ClaudeEffort;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.RequestBody;
import dev.ruminate.providers.internal.SamplingFields;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JsonGenerator;

/**
 * Writes a Messages API request body with Jackson's streaming generator.
 *
 * <p>Field order: {@code model}, {@code max_tokens}, {@code system}, {@code messages},
 * {@code tools}, {@code stream}, {@code thinking}, {@code output_config}, sampling, extras. A field
 * named in the request's extras is not written by the encoder: the extra replaces it, whole.
 */
final class AnthropicRequestEncoder {

    /** The sampling fields after {@code thinking}; {@code max_tokens} is required and written first. */
    private static final SamplingFields SAMPLING =
            new SamplingFields("temperature", "top_p", null, "stop_sequences", null);

    private AnthropicRequestEncoder() {
    }

    static byte[] encode(ChatRequest request, boolean stream, int defaultMaxTokens, String provider) {
        Set<String> taken = request.extras().keySet();
        SamplingOptions sampling = request.sampling();
        return RequestBody.write(request, 512, g -> {
            RequestBody.writeModel(g, request);
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
                writeTools(g, request.tools());
            }
            if (stream && !taken.contains("stream")) {
                g.writeBooleanProperty("stream", true);
            }
            writeThinking(g, request.reasoning(), request.model(), taken);
            SAMPLING.write(g, sampling, taken);
        });
    }

    /**
     * Writes {@code thinking} (adaptive unless a budget is given) and, for an adaptive effort,
     * {@code output_config.effort} at the model's level ({@link ClaudeEffort}).
     */
    private static void writeThinking(JsonGenerator g, ReasoningOptions r, String model, Set<String> taken) {
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
            g.writeStringProperty("effort", ClaudeEffort.level(r.effort(), model));
            g.writeEndObject();
        }
    }

    private static void writeTools(JsonGenerator g, List<ToolDefinition> tools) {
        g.writeArrayPropertyStart("tools");
        for (ToolDefinition tool : tools) {
            g.writeStartObject();
            g.writeStringProperty("name", tool.name());
            g.writeStringProperty("description", tool.description());
            g.writeName("input_schema");
            JsonWriting.writeSchema(g, tool);
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
