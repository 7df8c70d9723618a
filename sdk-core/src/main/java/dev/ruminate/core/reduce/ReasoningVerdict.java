package dev.ruminate.core.reduce;

/**
 * The outcome of checking streamed reasoning against the provider's final reasoning.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public enum ReasoningVerdict {
    /** The provider reported its final reasoning and every part's deltas add up to it exactly. */
    MATCHED,
    /** At least one part's deltas differ from the provider's final text. */
    MISMATCHED,
    /**
     * The provider reports no final reasoning to check against (Anthropic, Gemini, Bedrock Converse
     * and the Chat Completions family stream deltas only).
     */
    UNAVAILABLE;

    /**
     * Returns the lower-case name used in the JSON output.
     *
     * @return {@code matched}, {@code mismatched} or {@code unavailable}
     */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
