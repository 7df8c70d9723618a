package dev.ruminate.providers.ollama;

import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.providers.internal.FunctionTools;
import dev.ruminate.providers.internal.RequestBody;
import dev.ruminate.providers.internal.SamplingFields;
import java.util.Set;
import tools.jackson.core.JsonGenerator;

/**
 * Writes {@code /api/chat} and {@code /api/generate} request bodies with Jackson's streaming
 * generator.
 *
 * <p>Chat field order: {@code model}, {@code messages}, {@code tools}, {@code stream},
 * {@code think}, {@code options}, extras. Generate: {@code model}, {@code prompt}, {@code system},
 * {@code stream}, {@code think}, {@code options}, extras. A field named in the request's extras is not
 * written by the encoder: the extra replaces it, whole ({@code options} included).
 */
final class OllamaRequestEncoder {

    /** The sampling fields inside {@code options}, where the output limit is {@code num_predict}. */
    private static final SamplingFields OPTIONS =
            new SamplingFields("temperature", "top_p", "num_predict", "stop", "seed");

    private OllamaRequestEncoder() {
    }

    static byte[] chat(String provider, ChatRequest request, boolean stream) {
        Set<String> taken = request.extras().keySet();
        return RequestBody.write(request, 512, g -> {
            RequestBody.writeModel(g, request);
            if (!taken.contains("messages")) {
                g.writeName("messages");
                OllamaMessagesWriter.write(g, provider, request.messages());
            }
            if (!request.tools().isEmpty() && !taken.contains("tools")) {
                FunctionTools.writeNested(g, request.tools());
            }
            tail(g, request, stream, taken);
        });
    }

    static byte[] generate(ChatRequest request, boolean stream) {
        Set<String> taken = request.extras().keySet();
        StringBuilder system = new StringBuilder();
        String prompt = null;
        for (Message m : request.messages()) {
            if (m instanceof SystemMessage s) {
                system.append(system.length() > 0 ? "\n\n" : "").append(s.text());
            } else if (m instanceof UserMessage u && prompt == null) {
                prompt = u.text();
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
        String userPrompt = prompt;
        return RequestBody.write(request, 256, g -> {
            RequestBody.writeModel(g, request);
            if (!taken.contains("prompt")) {
                g.writeStringProperty("prompt", userPrompt);
            }
            if (system.length() > 0 && !taken.contains("system")) {
                g.writeStringProperty("system", system.toString());
            }
            tail(g, request, stream, taken);
        });
    }

    /** Writes {@code stream}, {@code think} and {@code options}. */
    private static void tail(JsonGenerator g, ChatRequest request, boolean stream, Set<String> taken) {
        if (!taken.contains("stream")) {
            // Ollama streams unless told not to: always say which
            g.writeBooleanProperty("stream", stream);
        }
        if (!taken.contains("think")) {
            think(g, request.reasoning());
        }
        if (!taken.contains("options")) {
            options(g, request.sampling());
        }
    }

    /**
     * Writes {@code think}: {@code false} when reasoning is disabled (or the effort is
     * {@code NONE}); a level {@code "low"|"medium"|"high"} for an effort ({@code MINIMAL} → low,
     * {@code MAX} → high), which gpt-oss models take; {@code true} when reasoning is enabled, or a
     * budget is given, without an effort. Nothing for the default options.
     */
    private static void think(JsonGenerator g, ReasoningOptions r) {
        if (r.isDefault()) {
            return;
        }
        ReasoningEffort effort = r.effort();
        if (Boolean.FALSE.equals(r.enabled()) || effort == ReasoningEffort.NONE) {
            g.writeBooleanProperty("think", false);
        } else if (effort != null) {
            g.writeStringProperty("think", switch (effort) {
                case NONE, MINIMAL, LOW -> "low";
                case MEDIUM -> "medium";
                case HIGH, XHIGH, MAX -> "high";
            });
        } else if (Boolean.TRUE.equals(r.enabled()) || r.budgetTokens() != null) {
            g.writeBooleanProperty("think", true);
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
