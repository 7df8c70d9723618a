package dev.ruminate.providers.responses;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.internal.FunctionTools;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.OpenAiModels;
import dev.ruminate.providers.internal.RequestBody;
import dev.ruminate.providers.internal.StructuredOutputs;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Writes a Responses request body with Jackson's streaming generator.
 *
 * <p>Field order: {@code model}, {@code instructions}, {@code input}, {@code tools},
 * {@code tool_choice}, {@code text}, {@code reasoning}, {@code include}, {@code store},
 * {@code background} (streamed calls of a provider that resumes them), {@code stream}, {@code max_output_tokens}, {@code temperature}, {@code top_p},
 * {@code prompt_cache_key}, extras. A field named in the request's extras is not written by the
 * encoder: the extra replaces it, whole; the one merge is an extra {@code text} object without a
 * {@code format} (such as {@code {"verbosity": "low"}}) while the schema goes natively, which gets the
 * format added.
 *
 * <p>Structured output ({@link ResponsesStructuredOutput}): natively as {@code text.format}; or as a
 * function tool after the request's own, with {@code tool_choice} forcing it, or {@code auto} plus an
 * instruction after the user's system text in {@code instructions}.
 *
 * <p>What is not sent as asked is reported to the {@link RequestWarnings}, never dropped silently:
 * stop sequences and seeds (Responses has neither field), a reasoning token budget, efforts a model
 * lacks ({@link ResponsesReasoning}), {@code temperature}/{@code top_p} on reasoning models that refuse
 * them ({@link OpenAiModels}; left out), cache breakpoints (OpenAI caches prompt prefixes by itself),
 * a cache time to live (OpenAI's {@code prompt_cache_retention} has no five-minute or one-hour value),
 * and a cache key on a server without {@code prompt_cache_key}. Media the server does not take are
 * refused ({@link ResponsesMedia}) before anything is written.
 *
 * <p>Stateful conversations: give {@code previous_response_id} as an extra (the id comes with the
 * earlier response's {@code ResponseStarted}). The server then holds everything up to that
 * response, reasoning items included, so {@code input} carries only the messages after the last
 * assistant turn, and the stateless {@code store: false} / {@code include} pair is not sent.
 */
final class ResponsesRequestEncoder {

    private ResponsesRequestEncoder() {
    }

    static byte[] encode(ResponsesProfile profile, ChatRequest given, boolean stream, RequestWarnings warnings) {
        return encode(profile, given, stream, warnings, false);
    }

    /**
     * Encodes a request; with {@code background} a streamed one also asks for background mode
     * ({@code "background": true}, which needs {@code "store": true} in place of the stateless
     * profile's {@code false}; the {@code include} of encrypted reasoning stays, so send-back works as
     * without it). A whole-body call is never sent in background mode: the answer would be a queued
     * response without output.
     */
    static byte[] encode(ResponsesProfile profile, ChatRequest given, boolean stream, RequestWarnings warnings,
                         boolean backgroundMode) {
        boolean background = backgroundMode && stream;
        StructuredOutputMethod method = ResponsesStructuredOutput.method(profile, given);
        OutputSchema output = given.output();
        ChatRequest request = given;
        @Nullable Map<String, @Nullable Object> mergedText = null;
        if (method == StructuredOutputMethod.NATIVE && given.extras().get("text") instanceof Map<?, ?> text
                && !text.containsKey("format")) {
            // text.verbosity and the like given as an extra: the format joins them instead of being replaced
            mergedText = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : text.entrySet()) {
                mergedText.put(String.valueOf(e.getKey()), e.getValue());
            }
            ChatRequest.Builder without = ChatRequest.builder(given.model()).messages(given.messages())
                    .reasoning(given.reasoning()).sampling(given.sampling()).output(output).caching(given.caching());
            given.tools().forEach(without::tool);
            given.extras().forEach((name, value) -> {
                if (!name.equals("text")) {
                    without.extra(name, value);
                }
            });
            request = without.build();
        }
        ChatRequest r = request;
        Set<String> taken = r.extras().keySet();
        int first = firstSent(r);
        ResponsesMedia.check(profile.capabilities(), r.messages(), first);
        ResponsesReasoning reasoning = taken.contains("reasoning") ? ResponsesReasoning.NONE
                : ResponsesReasoning.decide(profile.reasoningStyle(), r.model(), r.reasoning(), warnings);
        @Nullable Map<String, @Nullable Object> textExtras = mergedText;
        return RequestBody.write(r, 512, g -> {
            RequestBody.writeModel(g, r);
            writeInstructions(g, r, output, method, taken);
            // With previous_response_id the server holds the conversation up to that response, reasoning
            // items included: only what came after the last assistant turn goes, and stored state is used.
            boolean serverState = serverState(r);
            if (!taken.contains("input")) {
                g.writeName("input");
                List<Message> messages = r.messages();
                InputWriter.write(g, profile, messages.subList(first, messages.size()), first);
            }
            writeTools(g, r, output, method, taken);
            if (output != null && method == StructuredOutputMethod.NATIVE && !taken.contains("text")) {
                g.writeObjectPropertyStart("text");
                g.writeName("format");
                ResponsesStructuredOutput.writeFormat(g, output);
                if (textExtras != null) {
                    for (Map.Entry<String, @Nullable Object> e : textExtras.entrySet()) {
                        g.writeName(e.getKey());
                        JsonWriting.writeValue(g, e.getValue());
                    }
                }
                g.writeEndObject();
            }
            reasoning.write(g);
            if (profile.statelessReasoning() && !serverState) {
                if (!taken.contains("include")) {
                    JsonWriting.writeStrings(g, "include", List.of("reasoning.encrypted_content"));
                }
                if (!taken.contains("store")) {
                    g.writeBooleanProperty("store", background);
                }
            } else if (background && !taken.contains("store")) {
                g.writeBooleanProperty("store", true);
            }
            if (background && !taken.contains("background")) {
                g.writeBooleanProperty("background", true);
            }
            if (stream && !taken.contains("stream")) {
                g.writeBooleanProperty("stream", true);
            }
            writeSampling(g, r, reasoning, taken, warnings);
            writeCaching(g, profile, r.caching(), taken, warnings);
        });
    }

    /** The leading system messages' text, then the structured-output instruction of a method that needs one. */
    private static void writeInstructions(JsonGenerator g, ChatRequest request, @Nullable OutputSchema output,
                                          @Nullable StructuredOutputMethod method, Set<String> taken) {
        if (taken.contains("instructions")) {
            return;
        }
        String instructions = InputWriter.instructions(request.messages());
        String extra = StructuredOutputs.instruction(request, method);
        if (extra != null) {
            instructions = instructions == null ? extra : instructions + "\n\n" + extra;
        }
        if (instructions != null) {
            g.writeStringProperty("instructions", instructions);
        }
    }

    /** The request's tools, then the output tool of a tool method and its {@code tool_choice}. */
    private static void writeTools(JsonGenerator g, ChatRequest request, @Nullable OutputSchema output,
                                   @Nullable StructuredOutputMethod method, Set<String> taken) {
        OutputSchema tool = StructuredOutputs.isTool(method) ? output : null;
        List<ToolDefinition> tools = StructuredOutputs.tools(request, method);
        if (!tools.isEmpty() && !taken.contains("tools")) {
            FunctionTools.writeFlat(g, tools);
        }
        if (tool != null && !taken.contains("tool_choice")) {
            if (method == StructuredOutputMethod.TOOL_FORCED) {
                g.writeObjectPropertyStart("tool_choice");
                g.writeStringProperty("type", "function");
                g.writeStringProperty("name", tool.name());
                g.writeEndObject();
            } else {
                g.writeStringProperty("tool_choice", "auto");
            }
        }
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
     * Responses puts the output limit first, and has no stop sequences and no seed; reasoning models
     * refuse {@code temperature} and {@code top_p}, which are then left out.
     */
    private static void writeSampling(JsonGenerator g, ChatRequest request, ResponsesReasoning reasoning,
                                      Set<String> taken, RequestWarnings warnings) {
        SamplingOptions s = request.sampling();
        if (s.maxOutputTokens() != null && !taken.contains("max_output_tokens")) {
            g.writeNumberProperty("max_output_tokens", s.maxOutputTokens());
        }
        String effort = reasoning.effort();
        if (request.extras().get("reasoning") instanceof Map<?, ?> given && given.get("effort") instanceof String e) {
            effort = e; // a reasoning object given as an extra is what the server sees
        }
        boolean refused = OpenAiModels.refusesSampling(OpenAiModels.line(request.model()), effort);
        if (s.temperature() != null && !taken.contains("temperature")) {
            if (refused) {
                warnings.ignored(refusal("temperature", request.model()));
            } else {
                g.writeNumberProperty("temperature", s.temperature());
            }
        }
        if (s.topP() != null && !taken.contains("top_p")) {
            if (refused) {
                warnings.ignored(refusal("top_p", request.model()));
            } else {
                g.writeNumberProperty("top_p", s.topP());
            }
        }
        if (!s.stop().isEmpty()) {
            warnings.ignored("stop sequences: the Responses API has no stop parameter; they were not sent");
        }
        if (s.seed() != null) {
            warnings.ignored("seed: the Responses API has no seed parameter; it was not sent");
        }
    }

    private static String refusal(String field, String model) {
        return field + ": the reasoning model " + model + " refuses it (400 \"Unsupported parameter\"; gpt-5.1 and later"
                + " take it with reasoning effort none only); it was not sent";
    }

    /**
     * {@code prompt_cache_key} where the server takes it; a warning for breakpoints (the Responses
     * API caches prompt prefixes by itself and has no breakpoints), for a time to live (OpenAI's
     * {@code prompt_cache_retention} is {@code in-memory}, its default, or {@code 24h} on some models:
     * neither is five minutes or one hour, and none is invented) and for a key the server does not take.
     */
    private static void writeCaching(JsonGenerator g, ResponsesProfile profile, PromptCaching caching,
                                     Set<String> taken, RequestWarnings warnings) {
        if (caching.hasBreakpoints()) {
            warnings.ignored("prompt cache breakpoints: the Responses API takes none (OpenAI caches prompt prefixes"
                    + " automatically); they were not sent");
        }
        if (caching.ttl() != PromptCaching.Ttl.DEFAULT) {
            warnings.ignored("prompt cache ttl " + caching.ttl() + ": OpenAI's prompt_cache_retention has no such value"
                    + " (only \"in-memory\", the default, and \"24h\" on some models); the server's default retention"
                    + " applies (give prompt_cache_retention as an extra to choose)");
        }
        String key = caching.key();
        if (key != null && !taken.contains("prompt_cache_key")) {
            if (profile.capabilities().promptCacheKey()) {
                g.writeStringProperty("prompt_cache_key", key);
            } else {
                warnings.ignored("prompt cache key: this server takes no prompt_cache_key; it was not sent");
            }
        }
    }
}
