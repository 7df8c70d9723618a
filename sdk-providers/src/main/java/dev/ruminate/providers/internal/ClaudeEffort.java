package dev.ruminate.providers.internal;

import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Claude's {@code output_config.effort} levels ({@code low|medium|high|xhigh|max}), shared by the
 * Messages API and Bedrock's Claude models: Anthropic's ladder has no {@code minimal} (it and
 * {@code none} become {@code low}), and {@code xhigh} is gated by model. It is written for Claude
 * Opus 4.7 and later and for Claude 5 and later, read from the model id
 * ({@code claude-opus-4-7}, {@code us.anthropic.claude-sonnet-5}); every other model gets
 * {@code high}, the nearest level it is sure to take (UNVERIFIED which models take {@code xhigh}:
 * PROTOCOLS.md §19 says only that it is gated by model).
 *
 * <p>Stateless.
 */
public final class ClaudeEffort {

    /** {@code claude-<family>-<major>} and, when it is not a date, {@code -<minor>}. */
    private static final Pattern VERSION =
            Pattern.compile("claude-(opus|sonnet|haiku)-(\\d{1,9})(?!\\d)(?:-(\\d{1,2})(?!\\d))?");

    private ClaudeEffort() {
    }

    /**
     * Returns the {@code output_config.effort} level for an effort and a model.
     *
     * @param effort the asked effort
     * @param model the model id (Messages API or Bedrock)
     * @return {@code low}, {@code medium}, {@code high}, {@code xhigh} or {@code max}
     */
    public static String level(ReasoningEffort effort, String model) {
        return switch (effort) {
            case NONE, MINIMAL, LOW -> "low";
            case MEDIUM -> "medium";
            case HIGH -> "high";
            case XHIGH -> takesXhigh(model) ? "xhigh" : "high";
            case MAX -> "max";
        };
    }

    /**
     * Returns the level for an effort and a model, and reports a level that is not the one asked
     * ({@code minimal} and {@code none} sent as {@code low}, {@code xhigh} as {@code high} on a model
     * without it) as a coerced option.
     *
     * @param effort the asked effort
     * @param model the model id
     * @param warnings where the coercion is reported
     * @return the level sent
     */
    public static String level(ReasoningEffort effort, String model, RequestWarnings warnings) {
        String level = level(effort, model);
        if (!level.equals(effort.name().toLowerCase(Locale.ROOT))) {
            warnings.coerced("reasoning effort " + effort.name().toLowerCase(Locale.ROOT) + " sent as output_config.effort "
                    + level + ": Claude's levels are low, medium, high, max, and xhigh only on Opus 4.7 and later");
        }
        return level;
    }

    /**
     * Tells whether a Claude model refuses a fixed thinking budget ({@code budget_tokens}, a 400 from
     * Opus 4.7 on, PROTOCOLS.md §19) and takes adaptive thinking only: Opus 4.7 and later, and any
     * Claude 5 and later (UNVERIFIED for Claude 5: "Opus 4.7 and later" read as every later model).
     *
     * @param model the model id
     * @return true for those models
     */
    public static boolean adaptiveOnly(String model) {
        return takesXhigh(model);
    }

    /**
     * Tells whether a Claude model takes the {@code xhigh} effort: Opus 4.7 and later, any Claude 5
     * and later.
     *
     * @param model the model id
     * @return true for those models
     */
    public static boolean takesXhigh(String model) {
        Matcher m = VERSION.matcher(model.toLowerCase(Locale.ROOT));
        if (!m.find()) {
            return false;
        }
        int major = Integer.parseInt(m.group(2));
        int minor = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        return major >= 5 || ("opus".equals(m.group(1)) && major == 4 && minor >= 7);
    }
}
