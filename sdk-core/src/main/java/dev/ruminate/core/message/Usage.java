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
 * @param cachedTokens the part of the input served from a prompt cache
 * @since 0.1
 */
public record Usage(@Nullable Long inputTokens, @Nullable Long outputTokens, @Nullable Long reasoningTokens,
                    @Nullable Long cachedTokens) {

    /** Nothing reported. */
    public static final Usage UNKNOWN = new Usage(null, null, null, null);

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
                later.cachedTokens != null ? later.cachedTokens : cachedTokens);
    }

    /**
     * Tells whether no count is known.
     *
     * @return true when every count is null
     */
    public boolean isUnknown() {
        return inputTokens == null && outputTokens == null && reasoningTokens == null && cachedTokens == null;
    }
}
