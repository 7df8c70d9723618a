package dev.ruminate.providers.responses;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.providers.internal.FunctionTools;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.RequestBody;
import dev.ruminate.providers.internal.SamplingFields;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JsonGenerator;

/**
 * Writes a Responses request body with Jackson's streaming generator.
 *
 * <p>Field order: {@code model}, {@code instructions}, {@code input}, {@code tools},
 * {@code reasoning}, {@code include}, {@code store}, {@code stream}, {@code max_output_tokens},
 * {@code temperature}, {@code top_p}, extras. A field named in the request's extras is not written
 * by the encoder: the extra replaces it, whole. Stop sequences and seeds have no Responses field and
 * are not sent.
 *
 * <p>Stateful conversations: give {@code previous_response_id} as an extra (the id comes with the
 * earlier response's {@code ResponseStarted}). The server then holds everything up to that
 * response, reasoning items included, so {@code input} carries only the messages after the last
 * assistant turn, and the stateless {@code store: false} / {@code include} pair is not sent.
 */
final class ResponsesRequestEncoder {

    private static final SamplingFields SAMPLING = new SamplingFields("temperature", "top_p", null, null, null);

    private ResponsesRequestEncoder() {
    }

    static byte[] encode(ResponsesProfile profile, ChatRequest request, boolean stream) {
        Set<String> taken = request.extras().keySet();
        return RequestBody.write(request, 512, g -> {
            RequestBody.writeModel(g, request);
            String instructions = InputWriter.instructions(request.messages());
            if (instructions != null && !taken.contains("instructions")) {
                g.writeStringProperty("instructions", instructions);
            }
            // With previous_response_id the server holds the conversation up to that response, reasoning
            // items included: only what came after the last assistant turn goes, and stored state is used.
            boolean serverState = serverState(request);
            if (!taken.contains("input")) {
                g.writeName("input");
                List<Message> messages = request.messages();
                InputWriter.write(g, profile, messages.subList(firstSent(request), messages.size()));
            }
            if (!request.tools().isEmpty() && !taken.contains("tools")) {
                FunctionTools.writeFlat(g, request.tools());
            }
            if (!taken.contains("reasoning")) {
                writeReasoning(g, profile.reasoningStyle(), request.reasoning());
            }
            if (profile.statelessReasoning() && !serverState) {
                if (!taken.contains("include")) {
                    JsonWriting.writeStrings(g, "include", List.of("reasoning.encrypted_content"));
                }
                if (!taken.contains("store")) {
                    g.writeBooleanProperty("store", false);
                }
            }
            if (stream && !taken.contains("stream")) {
                g.writeBooleanProperty("stream", true);
            }
            writeSampling(g, request.sampling(), taken);
        });
    }

    /** Tells whether the server holds the conversation: {@code previous_response_id} is given as an extra. */
    static boolean serverState(ChatRequest request) {
        return request.extras().containsKey("previous_response_id");
    }

    /**
     * Returns the index of the first message {@code input} carries: with server state, the one after
     * the last assistant turn (tool results, the user's next words), else 0.
     */
    static int firstSent(ChatRequest request) {
        List<Message> messages = request.messages();
        if (serverState(request)) {
            for (int i = messages.size() - 1; i >= 0; i--) {
                if (messages.get(i) instanceof AssistantMessage) {
                    return i + 1;
                }
            }
        }
        return 0;
    }

    /**
     * Writes {@code reasoning: {effort, summary}} as the style allows: the effort when one is asked
     * for ({@code none} when reasoning is turned off), and, for servers with summaries, a summary
     * ({@code auto}) unless reasoning output is declined or reasoning is off. Nothing for default options.
     */
    private static void writeReasoning(JsonGenerator g, ResponsesReasoningStyle style, ReasoningOptions options) {
        if (style == ResponsesReasoningStyle.NONE || options.isDefault()) {
            return;
        }
        String effort = null;
        ReasoningEffort asked = options.effort();
        if (asked != null) {
            effort = effort(style, asked);
        } else if (Boolean.FALSE.equals(options.enabled())) {
            effort = "none";
        }
        boolean off = "none".equals(effort);
        boolean summary = style == ResponsesReasoningStyle.EFFORT_AND_SUMMARY && !off
                && !Boolean.FALSE.equals(options.includeReasoning());
        if (effort == null && !summary) {
            return;
        }
        g.writeObjectPropertyStart("reasoning");
        if (effort != null) {
            g.writeStringProperty("effort", effort);
        }
        if (summary) {
            g.writeStringProperty("summary", "auto");
        }
        g.writeEndObject();
    }

    /**
     * The wire effort: OpenAI's ladder ({@code none|minimal|low|medium|high|xhigh|max}) as asked for
     * servers with summaries (OpenAI, Azure, OpenRouter, Bedrock); servers that reason in the open
     * top out at {@code xhigh}, so {@code MAX} asks for that there (which levels each model takes is
     * the server's call: PROTOCOLS.md §19 says "per model subsets").
     */
    private static String effort(ResponsesReasoningStyle style, ReasoningEffort asked) {
        return asked == ReasoningEffort.MAX && style != ResponsesReasoningStyle.EFFORT_AND_SUMMARY ? "xhigh" : asked.wireName();
    }

    /** Responses puts the output limit first, and has no stop sequences and no seed. */
    private static void writeSampling(JsonGenerator g, SamplingOptions s, Set<String> taken) {
        if (s.maxOutputTokens() != null && !taken.contains("max_output_tokens")) {
            g.writeNumberProperty("max_output_tokens", s.maxOutputTokens());
        }
        SAMPLING.write(g, s, taken);
    }
}
