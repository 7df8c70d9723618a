package dev.ruminate.core.request;

import org.jspecify.annotations.Nullable;

/**
 * Whether and how much the model should reason. Unset values leave the provider's default.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param enabled true to ask for reasoning, false to ask for none, null to leave the default
 * @param effort an effort level, for APIs that take one
 * @param budgetTokens a token budget, for APIs that take one (Anthropic, Gemini, OpenRouter)
 * @param includeReasoning true to ask the provider to return its reasoning text (or summary) where
 *     that is optional, false to ask it to hide it, null to leave the default
 * @since 0.1
 */
public record ReasoningOptions(@Nullable Boolean enabled, @Nullable ReasoningEffort effort,
                               @Nullable Integer budgetTokens, @Nullable Boolean includeReasoning) {

    /** Leaves everything to the provider. */
    public static final ReasoningOptions DEFAULT = new ReasoningOptions(null, null, null, null);

    /**
     * Creates the value, checking its components.
     *
     * @param enabled see {@link #enabled()}
     * @param effort see {@link #effort()}
     * @param budgetTokens see {@link #budgetTokens()}
     * @param includeReasoning see {@link #includeReasoning()}
     */
    public ReasoningOptions {
        if (budgetTokens != null && budgetTokens < 0) {
            throw new IllegalArgumentException("budgetTokens must be >= 0, was " + budgetTokens);
        }
    }

    /**
     * Asks for reasoning at an effort level.
     *
     * @param effort the level
     * @return the options
     */
    public static ReasoningOptions effort(ReasoningEffort effort) {
        return new ReasoningOptions(effort != ReasoningEffort.NONE, effort, null, null);
    }

    /**
     * Asks for reasoning within a token budget.
     *
     * @param budgetTokens the budget
     * @return the options
     */
    public static ReasoningOptions budget(int budgetTokens) {
        return new ReasoningOptions(true, null, budgetTokens, null);
    }

    /**
     * Tells whether nothing is set.
     *
     * @return true when the provider's defaults apply
     */
    public boolean isDefault() {
        return enabled == null && effort == null && budgetTokens == null && includeReasoning == null;
    }
}
