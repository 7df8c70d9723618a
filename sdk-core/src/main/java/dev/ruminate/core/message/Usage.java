package dev.ruminate.core.message;

import org.jspecify.annotations.Nullable;

/**
 * Token counts as the provider reports them; a count the provider does not report is null, never a
 * made-up zero.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param inputTokens prompt tokens
 * @param outputTokens completion tokens, reasoning included where the provider counts it there
 * @param reasoningTokens the part of the output spent on reasoning
 * @param cachedTokens the input read from a prompt cache (OpenAI {@code cached_tokens}, Anthropic
 *     {@code cache_read_input_tokens}, Bedrock {@code cacheReadInputTokens}, Gemini
 *     {@code cachedContentTokenCount}, DeepSeek {@code prompt_cache_hit_tokens})
 * @param cacheWriteTokens the input written to a prompt cache by this call (Anthropic
 *     {@code cache_creation_input_tokens}, Bedrock {@code cacheWriteInputTokens}); null where the
 *     provider does not report it (since 0.3)
 * @since 0.1
 */
public record Usage(@Nullable Long inputTokens, @Nullable Long outputTokens, @Nullable Long reasoningTokens,
                    @Nullable Long cachedTokens, @Nullable Long cacheWriteTokens) {

    /** Nothing reported. */
    public static final Usage UNKNOWN = new Usage(null, null, null, null, null);

    /**
     * Creates a report without cache writes (the constructor of 0.1 and 0.2).
     *
     * @param inputTokens see {@link #inputTokens()}
     * @param outputTokens see {@link #outputTokens()}
     * @param reasoningTokens see {@link #reasoningTokens()}
     * @param cachedTokens see {@link #cachedTokens()}
     */
    public Usage(@Nullable Long inputTokens, @Nullable Long outputTokens, @Nullable Long reasoningTokens,
                 @Nullable Long cachedTokens) {
        this(inputTokens, outputTokens, reasoningTokens, cachedTokens, null);
    }

    /**
     * Combines two reports: values in {@code later} win, values it leaves unknown are kept.
     *
     * @param later the later report
     * @return the combination
     */
    public Usage merge(Usage later) {
        return new Usage(
                later.inputTokens != null ? later.inputTokens : inputTokens,
                later.outputTokens != null ? later.outputTokens : outputTokens,
                later.reasoningTokens != null ? later.reasoningTokens : reasoningTokens,
                later.cachedTokens != null ? later.cachedTokens : cachedTokens,
                later.cacheWriteTokens != null ? later.cacheWriteTokens : cacheWriteTokens);
    }

    /**
     * Adds two reports count by count, for calls that were both paid for (a refused structured
     * answer and its corrective attempt): a count only one reports is taken as it is, a count
     * neither reports stays null.
     *
     * @param other the other report
     * @return the sum
     * @since 0.3
     */
    public Usage plus(Usage other) {
        if (other.isUnknown()) {
            return this;
        }
        if (isUnknown()) {
            return other;
        }
        return new Usage(add(inputTokens, other.inputTokens), add(outputTokens, other.outputTokens),
                add(reasoningTokens, other.reasoningTokens), add(cachedTokens, other.cachedTokens),
                add(cacheWriteTokens, other.cacheWriteTokens));
    }

    private static @Nullable Long add(@Nullable Long a, @Nullable Long b) {
        return a == null ? b : b == null ? a : Long.valueOf(a + b);
    }

    /**
     * Tells whether no count is known.
     *
     * @return true when every count is null
     */
    public boolean isUnknown() {
        return inputTokens == null && outputTokens == null && reasoningTokens == null && cachedTokens == null
                && cacheWriteTokens == null;
    }
}
