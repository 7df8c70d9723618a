package dev.ruminate.providers.responses;

import dev.ruminate.core.internal.JsonValidity;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The request fields a Responses response object repeats back to its client ({@code instructions},
 * {@code tools}, {@code tool_choice}, {@code temperature}, …), which {@link ResponsesStreamEncoder}
 * writes into every response object it sends. The official SDKs' types declare these fields on
 * every response; {@link #NONE} gives the values OpenAI reports for a request that set none of them.
 * {@link ResponsesCall#echo()} builds one from a client's request.
 *
 * <p>The {@code …Json} components are JSON text written as given (checked to be one JSON value).
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param instructions the request's {@code instructions}, or null
 * @param maxOutputTokens the request's {@code max_output_tokens}, or null
 * @param metadataJson the request's {@code metadata} object ({@code {}} when none)
 * @param parallelToolCalls the request's {@code parallel_tool_calls} (true when absent)
 * @param previousResponseId the request's {@code previous_response_id}, or null
 * @param reasoningEffort the request's {@code reasoning.effort}, or null
 * @param reasoningSummary the request's {@code reasoning.summary}, or null
 * @param store the request's {@code store} (true when absent)
 * @param temperature the request's {@code temperature}, or null
 * @param topP the request's {@code top_p}, or null
 * @param textJson the request's {@code text} object ({@code {"format":{"type":"text"}}} when none)
 * @param toolChoiceJson the request's {@code tool_choice} ({@code "auto"} when none)
 * @param toolsJson the request's {@code tools} array ({@code []} when none)
 * @param truncation the request's {@code truncation} ({@code disabled} when none)
 * @param serviceTier the request's {@code service_tier}, or null (then not written)
 * @param user the request's {@code user}, or null (then not written)
 * @param safetyIdentifier the request's {@code safety_identifier}, or null (then not written)
 * @param promptCacheKey the request's {@code prompt_cache_key}, or null (then not written)
 * @since 0.2
 */
public record ResponseEcho(@Nullable String instructions, @Nullable Long maxOutputTokens, String metadataJson,
                           boolean parallelToolCalls, @Nullable String previousResponseId,
                           @Nullable String reasoningEffort, @Nullable String reasoningSummary, boolean store,
                           @Nullable Double temperature, @Nullable Double topP, String textJson,
                           String toolChoiceJson, String toolsJson, String truncation,
                           @Nullable String serviceTier, @Nullable String user, @Nullable String safetyIdentifier,
                           @Nullable String promptCacheKey) {

    /** The echo of a request that set none of the fields: OpenAI's defaults. */
    public static final ResponseEcho NONE = new ResponseEcho(null, null, "{}", true, null, null, null, true, null, null,
            "{\"format\":{\"type\":\"text\"}}", "\"auto\"", "[]", "disabled", null, null, null, null);

    /**
     * Creates the value, checking its components.
     *
     * @param instructions see {@link #instructions()}
     * @param maxOutputTokens see {@link #maxOutputTokens()}
     * @param metadataJson see {@link #metadataJson()}
     * @param parallelToolCalls see {@link #parallelToolCalls()}
     * @param previousResponseId see {@link #previousResponseId()}
     * @param reasoningEffort see {@link #reasoningEffort()}
     * @param reasoningSummary see {@link #reasoningSummary()}
     * @param store see {@link #store()}
     * @param temperature see {@link #temperature()}
     * @param topP see {@link #topP()}
     * @param textJson see {@link #textJson()}
     * @param toolChoiceJson see {@link #toolChoiceJson()}
     * @param toolsJson see {@link #toolsJson()}
     * @param truncation see {@link #truncation()}
     * @param serviceTier see {@link #serviceTier()}
     * @param user see {@link #user()}
     * @param safetyIdentifier see {@link #safetyIdentifier()}
     * @param promptCacheKey see {@link #promptCacheKey()}
     * @throws IllegalArgumentException if a {@code …Json} component is not one JSON value
     */
    public ResponseEcho {
        requireJson(metadataJson, "metadataJson");
        requireJson(textJson, "textJson");
        requireJson(toolChoiceJson, "toolChoiceJson");
        requireJson(toolsJson, "toolsJson");
        Objects.requireNonNull(truncation, "truncation");
    }

    private static void requireJson(String json, String name) {
        Objects.requireNonNull(json, name);
        String problem = JsonValidity.problem(json);
        if (problem != null) {
            throw new IllegalArgumentException(name + " is not one JSON value: " + problem);
        }
    }
}
