package dev.ruminate.providers.ollama;

import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.internal.FunctionTools;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.RequestBody;
import dev.ruminate.providers.internal.SamplingFields;
import dev.ruminate.providers.internal.StructuredOutputs;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Writes {@code /api/chat} and {@code /api/generate} request bodies with Jackson's streaming
 * generator.
 *
 * <p>Chat field order: {@code model}, {@code messages}, {@code tools}, {@code format},
 * {@code stream}, {@code think}, {@code options}, extras. Generate: {@code model}, {@code prompt},
 * {@code system}, {@code images}, {@code format}, {@code stream}, {@code think}, {@code options},
 * extras. The output schema goes as {@code format} (the schema object) unless its strategy asks for
 * a tool, which {@code /api/chat} offers with an instruction (Ollama cannot force a tool) and
 * {@code /api/generate} refuses. Images: {@link OllamaMedia}; {@code think}: {@link OllamaThink}. A field named in the request's extras is not
 * written by the encoder: the extra replaces it, whole ({@code options} included).
 */
final class OllamaRequestEncoder {

    /** The sampling fields inside {@code options}, where the output limit is {@code num_predict}. */
    private static final SamplingFields OPTIONS =
            new SamplingFields("temperature", "top_p", "num_predict", "stop", "seed");

    private OllamaRequestEncoder() {
    }

    /**
     * What Ollama can do for structured output: {@code format} with a schema (both endpoints), tools
     * on {@code /api/chat} only and never forced (Ollama has no tool choice), {@code format: "json"}.
     */
    static StructuredOutputs structuredOutputs(boolean generate) {
        return new StructuredOutputs(true, !generate, false, true);
    }

    /** The structured-output method of a request, or null without an output schema; the one decision. */
    static @Nullable StructuredOutputMethod method(ChatRequest request, boolean generate) {
        OutputSchema output = request.output();
        return output == null ? null : structuredOutputs(generate).method(output);
    }

    static byte[] chat(String provider, ChatRequest request, boolean stream, RequestWarnings warnings) {
        Set<String> taken = request.extras().keySet();
        OllamaMedia.check(request.messages());
        OutputSchema output = request.output();
        StructuredOutputMethod method = method(request, false);
        // Ollama has no tool choice, so its only tool method is TOOL_AUTO
        List<ToolDefinition> tools = StructuredOutputs.tools(request, method);
        String instruction = StructuredOutputs.instruction(request, method);
        warn(request, method, taken, warnings);
        return RequestBody.write(request, 512, g -> {
            RequestBody.writeModel(g, request);
            if (!taken.contains("messages")) {
                g.writeName("messages");
                OllamaMessagesWriter.write(g, provider, request.messages(), instruction);
            }
            if (!tools.isEmpty() && !taken.contains("tools")) {
                FunctionTools.writeNested(g, tools);
            }
            tail(g, request, method, stream, taken, warnings);
        });
    }

    static byte[] generate(ChatRequest request, boolean stream, RequestWarnings warnings) {
        Set<String> taken = request.extras().keySet();
        StringBuilder system = new StringBuilder();
        UserMessage prompt = null;
        for (Message m : request.messages()) {
            if (m instanceof SystemMessage s) {
                system.append(system.length() > 0 ? "\n\n" : "").append(s.text());
            } else if (m instanceof UserMessage u && prompt == null) {
                prompt = u;
            } else {
                throw new IllegalArgumentException("/api/generate takes system messages and one user message as its "
                        + "prompt, found " + m.getClass().getSimpleName() + "; use /api/chat for a conversation");
            }
        }
        if (prompt == null) {
            throw new IllegalArgumentException("/api/generate needs a user message as its prompt");
        }
        if (!request.tools().isEmpty()) {
            throw new IllegalArgumentException("/api/generate takes no tools; use /api/chat");
        }
        OllamaMedia.check(request.messages());
        StructuredOutputMethod method = method(request, true);
        OutputSchema output = request.output();
        String instruction = StructuredOutputs.instruction(request, method);
        if (instruction != null) {
            system.append(system.length() > 0 ? "\n\n" : "").append(instruction);
        }
        warn(request, method, taken, warnings);
        UserMessage userPrompt = prompt;
        return RequestBody.write(request, 256, g -> {
            RequestBody.writeModel(g, request);
            if (!taken.contains("prompt")) {
                g.writeStringProperty("prompt", userPrompt.text());
            }
            if (system.length() > 0 && !taken.contains("system")) {
                g.writeStringProperty("system", system.toString());
            }
            if (!taken.contains("images")) {
                OllamaMedia.write(g, userPrompt.media());
            }
            tail(g, request, method, stream, taken, warnings);
        });
    }

    /** Reports what Ollama has no field for (prompt-cache breakpoints, a cache key) and extras that replace written fields. */
    private static void warn(ChatRequest request, @Nullable StructuredOutputMethod method, Set<String> taken,
                             RequestWarnings warnings) {
        PromptCaching caching = request.caching();
        if (caching.hasBreakpoints() || caching.key() != null) {
            warnings.ignored("Ollama: prompt-cache breakpoints and keys are ignored (Ollama reuses the loaded model's "
                    + "context cache by itself and has no cache fields)");
        }
        if (taken.contains("format") && (method == StructuredOutputMethod.NATIVE || method == StructuredOutputMethod.JSON_MODE)) {
            warnings.ignored("Ollama: the format extra replaces the output schema's format");
        }
        OutputSchema output = request.output();
        if (output != null && output.description() != null && method == StructuredOutputMethod.NATIVE) {
            // format constrains the sampling only: the model never reads the schema, nor a description in it
            warnings.ignored("Ollama: the output schema's description is not sent (format constrains the output, "
                    + "the model does not read it; put guidance in the prompt)");
        }
    }

    /** Writes {@code format}, {@code stream}, {@code think} and {@code options}. */
    private static void tail(JsonGenerator g, ChatRequest request, @Nullable StructuredOutputMethod method, boolean stream,
                             Set<String> taken, RequestWarnings warnings) {
        OutputSchema output = request.output();
        if (output != null && !taken.contains("format")) {
            if (method == StructuredOutputMethod.NATIVE) {
                g.writeName("format");
                JsonWriting.copyJson(g, output.schema(), "the output schema " + output.name());
            } else if (method == StructuredOutputMethod.JSON_MODE) {
                g.writeStringProperty("format", "json");
            }
        }
        if (!taken.contains("stream")) {
            // Ollama streams unless told not to: always say which
            g.writeBooleanProperty("stream", stream);
        }
        if (!taken.contains("think")) {
            OllamaThink.write(g, request.model(), request.reasoning(), warnings);
        }
        if (!taken.contains("options")) {
            options(g, request.sampling());
        }
    }

    private static void options(JsonGenerator g, SamplingOptions s) {
        if (!OPTIONS.anySet(s)) {
            return;
        }
        g.writeObjectPropertyStart("options");
        OPTIONS.write(g, s, Set.of());
        g.writeEndObject();
    }
}
