package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.internal.FunctionTools;
import dev.ruminate.providers.internal.RequestBody;
import dev.ruminate.providers.internal.SamplingFields;
import java.util.Set;

/**
 * Writes a Chat Completions request body with Jackson's streaming generator.
 *
 * <p>Field order: {@code model}, {@code messages}, {@code tools}, {@code stream},
 * {@code stream_options}, sampling, reasoning fields, extras. A field named in the request's extras
 * is not written by the encoder: the extra replaces it, whole.
 */
final class ChatCompletionsRequestEncoder {

    /** Chat Completions' sampling fields; the output limit's field comes from the profile. */
    private static final SamplingFields SAMPLING = new SamplingFields("temperature", "top_p", null, "stop", "seed");

    private ChatCompletionsRequestEncoder() {
    }

    static byte[] encode(CompatProfile profile, ChatRequest request, boolean stream) {
        Set<String> taken = request.extras().keySet();
        return RequestBody.write(request, 512, g -> {
            RequestBody.writeModel(g, request);
            if (!taken.contains("messages")) {
                g.writeName("messages");
                ChatCompletionsMessagesWriter.write(g, profile, request);
            }
            if (!request.tools().isEmpty() && !taken.contains("tools")) {
                FunctionTools.writeNested(g, request.tools());
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
            SAMPLING.withMaxOutputTokens(profile.maxTokensField()).write(g, request.sampling(), taken);
            ReasoningParams.write(g, profile.reasoningStyle(), request.reasoning(), request.model(), taken,
                    carriesReasoning(profile, request));
        });
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
