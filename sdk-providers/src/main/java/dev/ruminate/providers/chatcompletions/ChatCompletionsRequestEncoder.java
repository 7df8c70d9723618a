package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.internal.FunctionTools;
import dev.ruminate.providers.internal.OpenAiModels;
import dev.ruminate.providers.internal.RequestBody;
import dev.ruminate.providers.internal.SamplingFields;
import dev.ruminate.providers.internal.StructuredOutputs;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Writes a Chat Completions request body with Jackson's streaming generator.
 *
 * <p>Field order: {@code model}, {@code messages}, {@code tools}, {@code tool_choice},
 * {@code response_format}, {@code stream}, {@code stream_options}, sampling, reasoning fields,
 * {@code prompt_cache_key}, {@code prompt_cache_retention}, extras. A field named in the request's
 * extras is not written by the encoder: the extra replaces it, whole.
 *
 * <p>Media and the structured-output strategy are checked before anything is written: what the
 * profile does not take ends in an {@link dev.ruminate.providers.spi.UnsupportedInput}. Options left
 * out or mapped are reported to the {@link RequestWarnings}.
 */
final class ChatCompletionsRequestEncoder {

    private ChatCompletionsRequestEncoder() {
    }

    static byte[] encode(CompatProfile profile, ChatRequest request, boolean stream, RequestWarnings warnings) {
        Set<String> taken = request.extras().keySet();
        StructuredOutputMethod method = ChatCompletionsStructuredOutput.method(profile, request);
        ChatCompletionsMedia.check(profile, request);
        OutputSchema output = request.output();
        String instruction = StructuredOutputs.instruction(request, method);
        int instructionAt = ChatCompletionsStructuredOutput.instructionAt(request, method);
        boolean[] cacheMarks = ChatCompletionsCaching.marks(profile, request, warnings);
        List<ToolDefinition> tools = StructuredOutputs.tools(request, method);
        return RequestBody.write(request, 512, g -> {
            RequestBody.writeModel(g, request);
            if (!taken.contains("messages")) {
                g.writeName("messages");
                ChatCompletionsMessagesWriter.write(g, profile, request, instruction, instructionAt, cacheMarks);
            }
            if (!tools.isEmpty() && !taken.contains("tools")) {
                FunctionTools.writeNested(g, tools);
            }
            if (output != null && method != null) {
                ChatCompletionsStructuredOutput.writeControls(g, output, method, taken);
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
            sampling(profile, request, warnings).write(g, request.sampling(), taken);
            ReasoningParams.write(g, profile, request.reasoning(), request.model(), taken,
                    carriesReasoning(profile, request), warnings);
            ChatCompletionsCaching.writeFields(g, profile, request.caching(), taken, warnings);
        });
    }

    /**
     * Returns the sampling fields this request may carry: the profile's output-limit and seed
     * fields; temperature and top-p left out for OpenAI's reasoning models, which refuse them; each
     * option left out reported, as is DeepSeek's thinking mode ignoring temperature and top-p (sent
     * as asked: the API accepts and ignores them).
     */
    private static SamplingFields sampling(CompatProfile profile, ChatRequest request, RequestWarnings warnings) {
        SamplingOptions s = request.sampling();
        Set<String> taken = request.extras().keySet();
        boolean sampled = (s.temperature() != null && !taken.contains("temperature"))
                || (s.topP() != null && !taken.contains("top_p"));
        @Nullable String temperature = "temperature";
        @Nullable String topP = "top_p";
        if (sampled && refusesSampling(profile, request)) {
            temperature = null;
            topP = null;
            warnings.ignored(request.model() + " is an OpenAI reasoning model, which refuses temperature and top_p: "
                    + "they are left out");
        } else if (sampled && profile.reasoningStyle() == ReasoningRequestStyle.DEEPSEEK_THINKING
                && ChatCompletionsStructuredOutput.thinkingOn(profile, request)) {
            warnings.ignored("DeepSeek's thinking mode ignores temperature and top_p");
        }
        if (s.seed() != null && profile.seedField() == null && !taken.contains("seed")) {
            warnings.ignored(profile.name() + " takes no seed; it is left out");
        }
        return new SamplingFields(temperature, topP, profile.maxTokensField(), "stop", profile.seedField());
    }

    /**
     * Whether the model is an OpenAI reasoning model that refuses sampling with the reasoning asked,
     * at OpenAI or Azure: the rules the Responses encoder uses too ({@link OpenAiModels}), reasoning
     * turned off being effort {@code none}.
     */
    private static boolean refusesSampling(CompatProfile profile, ChatRequest request) {
        if (profile.reasoningStyle() != ReasoningRequestStyle.OPENAI_EFFORT) {
            return false;
        }
        boolean off = Boolean.FALSE.equals(request.reasoning().enabled()) || request.reasoning().effort() == ReasoningEffort.NONE;
        return OpenAiModels.refusesSampling(OpenAiModels.line(request.model()), off ? "none" : null);
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
}
