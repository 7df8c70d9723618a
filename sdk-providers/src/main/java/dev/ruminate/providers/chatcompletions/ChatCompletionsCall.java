package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A Chat Completions request as a client sent it to a service that answers with any provider, read
 * by {@link ChatCompletionsRequestReader}: the conversation in Ruminate's neutral messages, and the
 * parameters the service acts on.
 *
 * <p>Assistant turns read from the request carry no provider ({@code provider()} is null) and no
 * opaque state: where they came from is for the service to say, by relabelling them before it
 * builds the upstream request.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}; lists and
 * maps are unmodifiable copies.
 *
 * @param model the model the client asked for (a route name, for a gateway)
 * @param messages the conversation, oldest first; never empty
 * @param tools the functions the model may call
 * @param toolChoice the client's {@code tool_choice}; {@link ChatCompletionsToolChoice#AUTO} when absent
 * @param reasoningEffort the client's {@code reasoning_effort} ({@code xhigh} read as
 *     {@link ReasoningEffort#XHIGH}, {@code max} as {@link ReasoningEffort#MAX}), if any
 * @param maxOutputTokens {@code max_completion_tokens}, else {@code max_tokens}, if any
 * @param temperature {@code temperature}, if any
 * @param topP {@code top_p}, if any
 * @param stop the stop sequences, empty when none
 * @param seed {@code seed}, if any
 * @param stream whether the client asked for a stream
 * @param includeUsage whether {@code stream_options.include_usage} is true (a streamed answer then ends
 *     with a usage chunk)
 * @param parallelToolCalls the client's {@code parallel_tool_calls}, if any
 * @param user the client's {@code user} (an end-user id, which a service may log), if any
 * @param metadata the client's {@code metadata}, empty when none
 * @param ignoredParameters the names of the top-level parameters that were accepted and ignored, in
 *     the order of the body (names only, for a service's diagnostics; never their values)
 * @since 0.2
 */
public record ChatCompletionsCall(String model, List<Message> messages, List<ToolDefinition> tools,
                                  ChatCompletionsToolChoice toolChoice, @Nullable ReasoningEffort reasoningEffort,
                                  @Nullable Integer maxOutputTokens, @Nullable Double temperature,
                                  @Nullable Double topP, List<String> stop, @Nullable Long seed, boolean stream,
                                  boolean includeUsage, @Nullable Boolean parallelToolCalls, @Nullable String user,
                                  Map<String, String> metadata, List<String> ignoredParameters) {

    /**
     * Creates the value, checking its components.
     *
     * @param model see {@link #model()}
     * @param messages see {@link #messages()}
     * @param tools see {@link #tools()}
     * @param toolChoice see {@link #toolChoice()}
     * @param reasoningEffort see {@link #reasoningEffort()}
     * @param maxOutputTokens see {@link #maxOutputTokens()}
     * @param temperature see {@link #temperature()}
     * @param topP see {@link #topP()}
     * @param stop see {@link #stop()}
     * @param seed see {@link #seed()}
     * @param stream see {@link #stream()}
     * @param includeUsage see {@link #includeUsage()}
     * @param parallelToolCalls see {@link #parallelToolCalls()}
     * @param user see {@link #user()}
     * @param metadata see {@link #metadata()}
     * @param ignoredParameters see {@link #ignoredParameters()}
     * @throws IllegalArgumentException when there is no message or {@code maxOutputTokens} is not positive
     */
    public ChatCompletionsCall {
        Objects.requireNonNull(model, "model");
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
        Objects.requireNonNull(toolChoice, "toolChoice");
        stop = List.copyOf(stop);
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        ignoredParameters = List.copyOf(ignoredParameters);
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a call needs at least one message");
        }
        if (maxOutputTokens != null && maxOutputTokens <= 0) {
            throw new IllegalArgumentException("maxOutputTokens must be > 0, was " + maxOutputTokens);
        }
    }

    /**
     * Builds the neutral request to send upstream.
     *
     * <p>What goes: the messages as read, the tools, the reasoning effort (as
     * {@link ReasoningOptions#effort}; none leaves the provider's default), temperature, top_p, the
     * output limit, stop sequences and seed. What stays behind, because the neutral request has no
     * place for it and each provider has its own: {@code tool_choice} other than {@code none},
     * {@code parallel_tool_calls}, {@code user} and {@code metadata} (the client's identifiers are not
     * passed to a provider unasked). A service fronting a Chat Completions server may add them as
     * extras ({@link ChatCompletionsToolChoice#toChatCompletionsValue()}).
     *
     * <p>{@code tool_choice: "none"} is honoured by offering no tools, unless the conversation holds
     * tool calls or results: some providers (Anthropic) refuse those without the tools' definitions,
     * so then the tools go and the choice is left to the service.
     *
     * @param upstreamModel the model name as the upstream provider knows it
     * @return the request; its assistant turns carry no provider until the service relabels them
     */
    public ChatRequest toChatRequest(String upstreamModel) {
        Objects.requireNonNull(upstreamModel, "upstreamModel");
        ChatRequest.Builder b = ChatRequest.builder(upstreamModel).messages(messages);
        if (toolChoice.mode() != ChatCompletionsToolChoice.Mode.NONE || holdsToolTurns()) {
            tools.forEach(b::tool);
        }
        if (reasoningEffort != null) {
            b.reasoning(ReasoningOptions.effort(reasoningEffort));
        }
        b.sampling(new SamplingOptions(temperature, topP, maxOutputTokens, stop, seed));
        return b.build();
    }

    private boolean holdsToolTurns() {
        for (Message m : messages) {
            if (m instanceof ToolResultMessage
                    || m instanceof AssistantMessage a && a.parts().stream().anyMatch(ToolCallPart.class::isInstance)) {
                return true;
            }
        }
        return false;
    }
}
