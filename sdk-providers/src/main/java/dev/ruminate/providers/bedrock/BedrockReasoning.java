package dev.ruminate.providers.bedrock;

import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.internal.ClaudeEffort;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What the Converse encoder writes in {@code additionalModelRequestFields} for the request's
 * reasoning options, decided once so that the structured-output decision (Claude refuses a forced
 * tool choice while thinking is on) and the encoder agree.
 *
 * <p>Claude takes Anthropic's {@code thinking} object; other families take {@code reasoning_config}
 * with an effort level, as recorded for Qwen. An effort for Claude (without a budget) becomes
 * adaptive thinking with {@code output_config.effort} on the models that have it (Claude 4.6 and
 * later: a fixed budget is deprecated there and refused from Opus 4.7 on; Bedrock accepted
 * {@code {"thinking":{"type":"adaptive"},"output_config":{"effort":"high"}}} for Sonnet 4.6,
 * {@code sendback/bedrock/pydantic-bedrock-claude-adaptive-effort}), and a budget on the older ones:
 * minimal and low 1024 tokens (the API's minimum), medium 4096, high 16384, xhigh 24576, max 32768.
 * Other models' {@code reasoning_config} has no level above high: xhigh and max ask for high.
 * Every such mapping, a budget raised to 1024 or turned adaptive on a model that refuses budgets,
 * and every option left unused is reported to the {@link RequestWarnings}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param thinkingType Claude's {@code thinking.type} ({@code enabled}, {@code adaptive},
 *     {@code disabled}), or null
 * @param budget {@code thinking.budget_tokens}, or null
 * @param effort Claude's {@code output_config.effort}, or null
 * @param reasoningConfig another family's {@code reasoning_config} level, or null
 * @param on whether Claude's thinking is on in the request sent (also through the caller's extra)
 */
record BedrockReasoning(@Nullable String thinkingType, @Nullable Integer budget, @Nullable String effort,
                        @Nullable String reasoningConfig, boolean on) {

    /** The smallest {@code budget_tokens} Claude takes. */
    static final int MIN_BUDGET = 1024;

    private static final BedrockReasoning NONE = new BedrockReasoning(null, null, null, null, false);

    /**
     * Tells whether a Bedrock model id is a Claude model.
     *
     * @param model the model id
     * @return true for {@code anthropic.} ids, with or without a region prefix
     */
    static boolean isClaude(String model) {
        return model.toLowerCase(Locale.ROOT).contains("anthropic.");
    }

    /**
     * Decides the reasoning fields of a request.
     *
     * @param request the request
     * @param warnings where mappings and unused options are reported
     * @return the decision
     */
    static BedrockReasoning of(ChatRequest request, RequestWarnings warnings) {
        String model = request.model();
        boolean claude = isClaude(model);
        if (request.extras().containsKey("additionalModelRequestFields")) {
            String extra = String.valueOf(request.extras().get("additionalModelRequestFields"));
            return new BedrockReasoning(null, null, null, null, claude && (extra.contains("enabled") || extra.contains("adaptive")));
        }
        ReasoningOptions r = request.reasoning();
        if (r.isDefault()) {
            return NONE;
        }
        boolean off = Boolean.FALSE.equals(r.enabled()) || r.effort() == ReasoningEffort.NONE;
        return claude ? claude(r, off, model, warnings) : other(r, off, warnings);
    }

    private static BedrockReasoning claude(ReasoningOptions r, boolean off, String model, RequestWarnings warnings) {
        if (r.includeReasoning() != null) {
            warnings.ignored("includeReasoning not sent: the Converse encoder writes no thinking.display");
        }
        ReasoningEffort effort = r.effort();
        if (off) {
            return new BedrockReasoning("disabled", null, null, null, false);
        }
        Integer budget = r.budgetTokens();
        if (budget != null && ClaudeEffort.adaptiveOnly(model)) {
            warnings.coerced("reasoning budgetTokens " + budget + " sent as adaptive thinking: " + model
                    + " refuses thinking.budget_tokens (Claude Opus 4.7 and later take adaptive thinking only)");
            return new BedrockReasoning("adaptive", null, effort == null ? null : ClaudeEffort.level(effort, model, warnings),
                    null, true);
        }
        if (budget == null && effort != null && AdaptiveClaude.takesAdaptiveThinking(model)) {
            return new BedrockReasoning("adaptive", null, ClaudeEffort.level(effort, model, warnings), null, true);
        }
        if (budget != null && effort != null) {
            warnings.ignored("reasoning effort " + name(effort) + " not sent: a thinking budget was given");
        }
        if (budget == null && effort != null) {
            budget = budgetFor(effort);
            warnings.coerced("reasoning effort " + name(effort) + " sent as thinking.budget_tokens " + budget + ": "
                    + model + " takes a thinking budget, not an effort level");
        }
        if (budget == null && !Boolean.TRUE.equals(r.enabled())) {
            return NONE;
        }
        if (budget == null) {
            budget = MIN_BUDGET;
        } else if (budget < MIN_BUDGET) {
            warnings.coerced("reasoning budgetTokens " + budget + " sent as " + MIN_BUDGET
                    + ": thinking.budget_tokens must be at least " + MIN_BUDGET);
            budget = MIN_BUDGET;
        }
        return new BedrockReasoning("enabled", budget, null, null, true);
    }

    private static BedrockReasoning other(ReasoningOptions r, boolean off, RequestWarnings warnings) {
        if (r.includeReasoning() != null) {
            warnings.ignored("includeReasoning not sent: reasoning_config has no such setting");
        }
        if (r.budgetTokens() != null) {
            warnings.ignored("reasoning budgetTokens not sent: reasoning_config takes a level, not a budget");
        }
        ReasoningEffort effort = r.effort();
        if (off) {
            warnings.ignored("reasoning off not sent: reasoning_config has no off level");
            return NONE;
        }
        if (effort == null) {
            if (Boolean.TRUE.equals(r.enabled())) {
                warnings.ignored("reasoning on not sent: reasoning_config needs an effort level");
            }
            return NONE;
        }
        String level = name(effort);
        if (effort == ReasoningEffort.XHIGH || effort == ReasoningEffort.MAX) {
            warnings.coerced("reasoning effort " + level + " sent as reasoning_config high: it has no level above high");
            level = "high";
        }
        return new BedrockReasoning(null, null, null, level, false);
    }

    private static int budgetFor(ReasoningEffort effort) {
        return switch (effort) {
            case NONE, MINIMAL, LOW -> MIN_BUDGET;
            case MEDIUM -> 4096;
            case HIGH -> 16384;
            case XHIGH -> 24576;
            case MAX -> 32768;
        };
    }

    private static String name(ReasoningEffort effort) {
        return effort.name().toLowerCase(Locale.ROOT);
    }
}
