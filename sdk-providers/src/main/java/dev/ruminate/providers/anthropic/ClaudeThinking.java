package dev.ruminate.providers.anthropic;

import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.internal.ClaudeEffort;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What the Messages encoder writes as {@code thinking} and {@code output_config.effort}, decided once
 * from the request's reasoning options and model, so that the structured-output decision (a forced
 * tool choice is refused while thinking is on) and the encoder agree.
 *
 * <p>A budget is raised to the API's minimum of 1024; a budget on a model that takes adaptive
 * thinking only ({@link ClaudeEffort#adaptiveOnly}) becomes adaptive thinking; an effort is mapped to
 * Claude's levels ({@link ClaudeEffort}); each such change, and each option left unused, is reported
 * to the {@link RequestWarnings} given.
 *
 * <p>Immutable and thread-safe.
 *
 * @param type {@code enabled}, {@code adaptive}, {@code disabled}, or null to write no {@code thinking}
 * @param budget {@code budget_tokens} for {@code enabled}, else null
 * @param display {@code thinking.display}, or null
 * @param effort {@code output_config.effort}, or null
 * @param on whether thinking is on in the request sent (also when the caller's extra writes {@code thinking})
 */
record ClaudeThinking(@Nullable String type, @Nullable Integer budget, @Nullable String display, @Nullable String effort,
                      boolean on) {

    /** The smallest {@code budget_tokens} the API takes. */
    static final int MIN_BUDGET = 1024;

    private static final ClaudeThinking NONE = new ClaudeThinking(null, null, null, null, false);

    /**
     * Decides the thinking fields of a request.
     *
     * @param request the request
     * @param warnings where coercions and unused options are reported
     * @return the decision
     */
    static ClaudeThinking of(ChatRequest request, RequestWarnings warnings) {
        ReasoningOptions r = request.reasoning();
        if (request.extras().containsKey("thinking")) {
            return new ClaudeThinking(null, null, null, null, extraTurnsThinkingOn(request.extras().get("thinking")));
        }
        if (r.isDefault()) {
            return NONE;
        }
        String model = request.model();
        boolean off = Boolean.FALSE.equals(r.enabled()) || r.effort() == ReasoningEffort.NONE;
        if (off) {
            if (r.includeReasoning() != null) {
                warnings.ignored("includeReasoning not sent: reasoning is off (thinking disabled)");
            }
            if (r.budgetTokens() != null) {
                warnings.ignored("reasoning budgetTokens not sent: reasoning is off (thinking disabled)");
            }
            return new ClaudeThinking("disabled", null, null, null, false);
        }
        Integer budget = r.budgetTokens();
        ReasoningEffort effort = r.effort();
        if (budget != null && ClaudeEffort.adaptiveOnly(model)) {
            warnings.coerced("reasoning budgetTokens " + budget + " sent as adaptive thinking: " + model
                    + " refuses thinking.budget_tokens (Claude Opus 4.7 and later take adaptive thinking only)");
            budget = null;
        } else if (budget == null && effort == null && !Boolean.TRUE.equals(r.enabled())) {
            if (r.includeReasoning() != null) {
                warnings.ignored("includeReasoning not sent: no thinking was asked for (thinking.display goes with it)");
            }
            return NONE;
        }
        String display = r.includeReasoning() == null ? null : r.includeReasoning() ? "summarized" : "omitted";
        if (budget != null) {
            if (budget < MIN_BUDGET) {
                warnings.coerced("reasoning budgetTokens " + budget + " sent as " + MIN_BUDGET
                        + ": thinking.budget_tokens must be at least " + MIN_BUDGET);
                budget = MIN_BUDGET;
            }
            if (effort != null) {
                warnings.ignored("reasoning effort " + effort.name().toLowerCase(Locale.ROOT)
                        + " not sent: a thinking budget was given, and output_config.effort goes with adaptive thinking only");
            }
            return new ClaudeThinking("enabled", budget, display, null, true);
        }
        String level = effort == null ? null : ClaudeEffort.level(effort, model, warnings);
        return new ClaudeThinking("adaptive", null, display, level, true);
    }

    /** Reads a caller's {@code thinking} extra: on when its type is {@code enabled} or {@code adaptive}. */
    private static boolean extraTurnsThinkingOn(@Nullable Object extra) {
        String text = String.valueOf(extra);
        return text.contains("enabled") || text.contains("adaptive");
    }
}
