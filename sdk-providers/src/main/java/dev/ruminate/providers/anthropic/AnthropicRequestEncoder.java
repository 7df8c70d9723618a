package dev.ruminate.providers.anthropic;

import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.internal.ClaudeSampling;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.RequestBody;
import dev.ruminate.providers.internal.SamplingFields;
import dev.ruminate.providers.internal.StructuredOutputs;
import dev.ruminate.providers.internal.SystemTexts;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Writes a Messages API request body with Jackson's streaming generator.
 *
 * <p>Field order: {@code model}, {@code max_tokens}, {@code system}, {@code messages},
 * {@code tools}, {@code tool_choice}, {@code stream}, {@code thinking}, {@code output_config},
 * sampling, extras. A field named in the request's extras is not written by the encoder: the extra
 * replaces it, whole.
 *
 * <p>What it decides on the way, each change reported to the {@link RequestWarnings}: the thinking
 * fields ({@link ClaudeThinking}); the sampling options Claude refuses with thinking on, left out
 * ({@link ClaudeSampling}); the seed, which the API has no field for; the output schema's form
 * ({@link AnthropicStructuredOutput}); the cache breakpoints ({@link AnthropicCaching}); media are
 * checked before anything is written ({@link AnthropicMedia}).
 */
final class AnthropicRequestEncoder {

    /** The sampling fields after {@code thinking}; {@code max_tokens} is required and written first. */
    private static final SamplingFields SAMPLING =
            new SamplingFields("temperature", "top_p", null, "stop_sequences", null);

    private AnthropicRequestEncoder() {
    }

    static byte[] encode(ChatRequest request, boolean stream, int defaultMaxTokens, String provider,
                         RequestWarnings warnings) {
        AnthropicMedia.check(request.messages());
        Set<String> taken = request.extras().keySet();
        ClaudeThinking thinking = ClaudeThinking.of(request, warnings);
        OutputSchema output = request.output();
        StructuredOutputMethod method = AnthropicStructuredOutput.method(request, thinking);
        boolean toolMethod = StructuredOutputs.isTool(method);
        List<ToolDefinition> tools = StructuredOutputs.tools(request, method);
        List<String> system = new ArrayList<>(SystemTexts.of(request.messages()));
        String instruction = StructuredOutputs.instruction(request, method);
        if (instruction != null) {
            system.add(instruction);
        }
        boolean writesTools = !tools.isEmpty() && !taken.contains("tools");
        boolean writesSystem = !system.isEmpty() && !taken.contains("system");
        AnthropicCaching caching = AnthropicCaching.decide(request.caching(), request.messages(), writesTools, writesSystem,
                taken.contains("messages") ? Map.of()
                        : AnthropicMessagesWriter.lastBlockCacheable(request.messages(), provider), warnings);
        Consumer<JsonGenerator> cacheControl = caching.control();

        SamplingOptions sampling = thinking.on() ? ClaudeSampling.underThinking(request.sampling(), warnings)
                : request.sampling();
        if (sampling.seed() != null) {
            warnings.ignored("seed not sent: the Messages API has no seed");
        }
        ChatRequest body = thinking.on() && taken.contains("top_k")
                ? withExtras(request, ClaudeSampling.withoutTopK(request.extras(), "top_k", warnings))
                : request;
        noteReplaced(method, taken, warnings);
        return RequestBody.write(body, 512, g -> {
            RequestBody.writeModel(g, body);
            if (!taken.contains("max_tokens")) {
                g.writeNumberProperty("max_tokens",
                        sampling.maxOutputTokens() != null ? sampling.maxOutputTokens() : defaultMaxTokens);
            }
            if (writesSystem) {
                AnthropicMessagesWriter.writeSystem(g, system, caching.system() ? cacheControl : null);
            }
            if (!taken.contains("messages")) {
                g.writeName("messages");
                AnthropicMessagesWriter.writeMessages(g, request.messages(), provider, caching.messages(), cacheControl);
            }
            if (writesTools) {
                writeTools(g, tools, caching.tools() ? cacheControl : null);
            }
            if (method != null && toolMethod && output != null && !taken.contains("tool_choice")) {
                writeToolChoice(g, method, output);
            }
            if (stream && !taken.contains("stream")) {
                g.writeBooleanProperty("stream", true);
            }
            writeThinking(g, thinking);
            if (!taken.contains("output_config")) {
                writeOutputConfig(g, thinking.effort(), method == StructuredOutputMethod.NATIVE ? output : null);
            }
            SAMPLING.write(g, sampling, taken);
        });
    }

    /** The request with other extras (null values allowed, as in the request's own). */
    @SuppressWarnings("NullAway") // NullAway reads the record's Map<String, @Nullable Object> parameter without the annotation
    private static ChatRequest withExtras(ChatRequest request, Map<String, @Nullable Object> extras) {
        return new ChatRequest(request.model(), request.messages(), request.tools(), request.reasoning(), request.sampling(),
                extras, request.output(), request.caching());
    }

    /** Reports an extra that replaces a field the output schema's form needs. */
    private static void noteReplaced(@Nullable StructuredOutputMethod method, Set<String> taken, RequestWarnings warnings) {
        if (method == null) {
            return;
        }
        String field = switch (method) {
            case NATIVE -> "output_config";
            case TOOL_FORCED -> taken.contains("tools") ? "tools" : "tool_choice";
            case TOOL_AUTO -> taken.contains("tools") ? "tools" : "system";
            default -> "system";
        };
        if (taken.contains(field)) {
            warnings.ignored("output schema's " + field + " not sent: the request's extra " + field + " replaces it");
        }
    }

    /** Writes {@code thinking}, when the decision has a type. */
    private static void writeThinking(JsonGenerator g, ClaudeThinking thinking) {
        if (thinking.type() == null) {
            return;
        }
        g.writeObjectPropertyStart("thinking");
        g.writeStringProperty("type", thinking.type());
        if (thinking.budget() != null) {
            g.writeNumberProperty("budget_tokens", thinking.budget());
        }
        if (thinking.display() != null) {
            g.writeStringProperty("display", thinking.display());
        }
        g.writeEndObject();
    }

    /**
     * Writes {@code output_config} with the effort of adaptive thinking and the native output format,
     * whichever there are: {@code "format": {"type": "json_schema", "schema": {…}}} (UNVERIFIED: the
     * generally available form; the November 2025 beta had a top-level {@code output_format}).
     */
    private static void writeOutputConfig(JsonGenerator g, @Nullable String effort, @Nullable OutputSchema format) {
        if (effort == null && format == null) {
            return;
        }
        g.writeObjectPropertyStart("output_config");
        if (effort != null) {
            g.writeStringProperty("effort", effort);
        }
        if (format != null) {
            g.writeObjectPropertyStart("format");
            g.writeStringProperty("type", "json_schema");
            g.writeName("schema");
            JsonWriting.writeSchema(g, StructuredOutputs.tool(format));
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /** Forced to the output tool while thinking is off; {@code auto} (with the instruction) while it is on. */
    private static void writeToolChoice(JsonGenerator g, StructuredOutputMethod method, OutputSchema output) {
        g.writeObjectPropertyStart("tool_choice");
        if (method == StructuredOutputMethod.TOOL_FORCED) {
            g.writeStringProperty("type", "tool");
            g.writeStringProperty("name", output.name());
        } else {
            g.writeStringProperty("type", "auto");
        }
        g.writeEndObject();
    }

    private static void writeTools(JsonGenerator g, List<ToolDefinition> tools, @Nullable Consumer<JsonGenerator> cacheControl) {
        g.writeArrayPropertyStart("tools");
        for (int i = 0; i < tools.size(); i++) {
            ToolDefinition tool = tools.get(i);
            g.writeStartObject();
            g.writeStringProperty("name", tool.name());
            g.writeStringProperty("description", tool.description());
            g.writeName("input_schema");
            JsonWriting.writeSchema(g, tool);
            if (cacheControl != null && i == tools.size() - 1) {
                cacheControl.accept(g);
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
