package dev.ruminate.providers.responses;

import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A client's {@code POST /responses} request as {@link ResponsesRequestReader} read it: the fields a
 * service needs to answer it with any provider, and those it repeats in its response object
 * ({@link #echo()}).
 *
 * <p>{@link #inputItems()} holds each input item as its exact JSON text, so that a service can put
 * stored items in place of {@code item_reference} items and before the input (for
 * {@code previous_response_id}), then read the whole with
 * {@link ResponsesInput#readItems(List, String)}, and store the client's items byte for byte.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}; the
 * {@code …Json} components are JSON text as the client sent it.
 *
 * @param model the requested model name
 * @param inputItems the input items, each its JSON text, in order; a string {@code input} is one
 *     user message item; empty when the request had no {@code input}
 * @param referencedItemIds the ids of the {@code item_reference} items in {@link #inputItems()}
 * @param instructions the {@code instructions}, or null
 * @param tools the function tools
 * @param toolsJson the {@code tools} array as sent ({@code []} when absent), for the echo
 * @param toolChoice the {@code tool_choice} ({@link ToolChoice#AUTO} when absent)
 * @param reasoningEffort {@code reasoning.effort} as sent ({@code none}, {@code minimal},
 *     {@code low}, {@code medium}, {@code high}, {@code xhigh}, {@code max}), or null
 * @param reasoningSummary {@code reasoning.summary} as sent ({@code auto}, {@code concise},
 *     {@code detailed}), or null
 * @param maxOutputTokens {@code max_output_tokens}, or null
 * @param temperature {@code temperature}, or null
 * @param topP {@code top_p}, or null
 * @param store {@code store}; true when absent, as OpenAI's default
 * @param previousResponseId {@code previous_response_id}, or null
 * @param stream {@code stream}; false when absent
 * @param include the {@code include} values, such as {@code reasoning.encrypted_content}
 * @param metadataJson the {@code metadata} object, or null
 * @param parallelToolCalls {@code parallel_tool_calls}; true when absent
 * @param user {@code user}, or null
 * @param safetyIdentifier {@code safety_identifier}, or null
 * @param promptCacheKey {@code prompt_cache_key}, or null
 * @param textJson the {@code text} object (output format and verbosity), or null
 * @param truncation {@code truncation} ({@code auto} or {@code disabled}), or null
 * @param serviceTier {@code service_tier}, or null
 * @param streamOptionsJson the {@code stream_options} object, or null
 * @since 0.2
 */
public record ResponsesCall(String model, List<String> inputItems, Set<String> referencedItemIds,
                            @Nullable String instructions, List<FunctionTool> tools, String toolsJson,
                            ToolChoice toolChoice, @Nullable String reasoningEffort, @Nullable String reasoningSummary,
                            @Nullable Integer maxOutputTokens, @Nullable Double temperature, @Nullable Double topP,
                            boolean store, @Nullable String previousResponseId, boolean stream, List<String> include,
                            @Nullable String metadataJson, boolean parallelToolCalls, @Nullable String user,
                            @Nullable String safetyIdentifier, @Nullable String promptCacheKey,
                            @Nullable String textJson, @Nullable String truncation, @Nullable String serviceTier,
                            @Nullable String streamOptionsJson) {

    /**
     * Creates the value, checking and copying its components.
     *
     * @param model see {@link #model()}
     * @param inputItems see {@link #inputItems()}
     * @param referencedItemIds see {@link #referencedItemIds()}
     * @param instructions see {@link #instructions()}
     * @param tools see {@link #tools()}
     * @param toolsJson see {@link #toolsJson()}
     * @param toolChoice see {@link #toolChoice()}
     * @param reasoningEffort see {@link #reasoningEffort()}
     * @param reasoningSummary see {@link #reasoningSummary()}
     * @param maxOutputTokens see {@link #maxOutputTokens()}
     * @param temperature see {@link #temperature()}
     * @param topP see {@link #topP()}
     * @param store see {@link #store()}
     * @param previousResponseId see {@link #previousResponseId()}
     * @param stream see {@link #stream()}
     * @param include see {@link #include()}
     * @param metadataJson see {@link #metadataJson()}
     * @param parallelToolCalls see {@link #parallelToolCalls()}
     * @param user see {@link #user()}
     * @param safetyIdentifier see {@link #safetyIdentifier()}
     * @param promptCacheKey see {@link #promptCacheKey()}
     * @param textJson see {@link #textJson()}
     * @param truncation see {@link #truncation()}
     * @param serviceTier see {@link #serviceTier()}
     * @param streamOptionsJson see {@link #streamOptionsJson()}
     */
    public ResponsesCall {
        Objects.requireNonNull(model, "model");
        inputItems = List.copyOf(inputItems);
        referencedItemIds = Set.copyOf(referencedItemIds);
        tools = List.copyOf(tools);
        Objects.requireNonNull(toolsJson, "toolsJson");
        Objects.requireNonNull(toolChoice, "toolChoice");
        include = List.copyOf(include);
    }

    /**
     * Returns the request fields the response object repeats, for
     * {@link ResponsesStreamOptions#withEcho(ResponseEcho)}.
     *
     * @return the echo
     */
    public ResponseEcho echo() {
        ResponseEcho none = ResponseEcho.NONE;
        return new ResponseEcho(instructions, maxOutputTokens == null ? null : maxOutputTokens.longValue(),
                metadataJson != null ? metadataJson : none.metadataJson(), parallelToolCalls, previousResponseId,
                reasoningEffort, reasoningSummary, store, temperature, topP,
                textJson != null ? textJson : none.textJson(), toolChoice.echoJson(), toolsJson,
                truncation != null ? truncation : none.truncation(), serviceTier, user, safetyIdentifier, promptCacheKey);
    }

    /**
     * Returns the request for the provider that answers this call.
     *
     * <p>Mapped: the tools (as {@link FunctionTool#toDefinition()}); a json_schema
     * {@code text.format} (as {@link #outputSchema()}); {@code reasoning.effort} (as
     * {@link ReasoningOptions#effort}, {@code xhigh} as {@link ReasoningEffort#XHIGH}, {@code none}
     * turning reasoning off); {@code max_output_tokens}, {@code temperature} and {@code top_p} (as
     * {@link SamplingOptions}). {@code tool_choice} {@code none} sends no tools, so no tool can be
     * called; {@code auto} is every provider's default. {@code required} and a named function have no
     * neutral form and each wire spells them differently: add
     * {@code toBuilder().extra("tool_choice", toolChoice().chatCompletionsValue())} (or
     * {@link ToolChoice#responsesValue()}, {@link ToolChoice#anthropicValue()}) for the upstream's wire.
     * Not sent on: {@code reasoning.summary} (Ruminate streams whatever reasoning the provider gives),
     * {@code parallel_tool_calls}, {@code strict}, {@code metadata}, {@code user},
     * {@code safety_identifier}, {@code prompt_cache_key}, {@code service_tier}, {@code truncation}
     * (identifiers of the client's users stay with this service).
     *
     * @param upstreamModel the model name as the provider knows it
     * @param messages the conversation to send, for example {@link ResponsesInput#readItems}'s
     * @return the request
     */
    public ChatRequest toChatRequest(String upstreamModel, List<Message> messages) {
        Objects.requireNonNull(upstreamModel, "upstreamModel");
        ChatRequest.Builder b = ChatRequest.builder(upstreamModel).messages(messages).output(outputSchema());
        if (!ToolChoice.NONE_MODE.equals(toolChoice.mode())) {
            for (FunctionTool t : tools) {
                b.tool(t.toDefinition());
            }
        }
        ReasoningEffort effort = effort(reasoningEffort);
        if (effort != null) {
            b.reasoning(ReasoningOptions.effort(effort));
        }
        if (maxOutputTokens != null || temperature != null || topP != null) {
            b.sampling(new SamplingOptions(temperature, topP, maxOutputTokens, List.of(), null));
        }
        return b.build();
    }

    /**
     * Returns the structured output the client asked for: a {@code text.format} of type
     * {@code json_schema} (checked by {@link ResponsesRequestReader}) as an {@link OutputSchema} with
     * its name, schema, description and {@code strict} (false when absent, OpenAI's default), carried
     * the upstream's best way ({@link OutputSchema.Strategy#AUTO}).
     *
     * @return the schema, or null for free text
     * @throws IllegalArgumentException if {@link #textJson()} holds a json_schema format the reader
     *     would have refused (a call built by hand)
     * @since 0.3
     */
    public @Nullable OutputSchema outputSchema() {
        if (textJson == null) {
            return null;
        }
        JsonTree.Obj text = JsonTree.parseObject(textJson, "text");
        JsonTree.Obj format = text.object("format");
        if (format == null || !"json_schema".equals(format.get("type"))) {
            return null;
        }
        JsonTree.Obj schema = format.object("schema");
        if (schema == null) {
            throw new IllegalArgumentException("text.format has no schema object");
        }
        return new OutputSchema(format.requireString("name"), schema.raw(), format.string("description"),
                format.bool("strict", false), OutputSchema.Strategy.AUTO);
    }

    /** Maps a wire effort, already checked by the reader, to Ruminate's. */
    static @Nullable ReasoningEffort effort(@Nullable String wire) {
        if (wire == null) {
            return null;
        }
        return ReasoningEffort.valueOf(wire.toUpperCase(Locale.ROOT));
    }
}
