package dev.ruminate.providers.bedrock;

import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.providers.internal.ClaudeEffort;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which Claude models on Bedrock take adaptive thinking ({@code thinking: {type: adaptive}} with
 * {@code output_config.effort}) instead of a fixed {@code budget_tokens}: Claude 4.6 and later
 * (Opus 4.6, Sonnet 4.6, Opus 4.7, Claude 5), read from the model id
 * ({@code us.anthropic.claude-sonnet-4-6}, {@code anthropic.claude-opus-4-7-v1}). Older ids
 * ({@code claude-3-7-sonnet-…}, {@code claude-sonnet-4-20250514-v1:0}) keep the budget.
 *
 * <p>Stateless.
 */
final class AdaptiveClaude {

    /**
     * {@code claude-<family>-<major>} and, when it is not a date, {@code -<minor>}. The major has at
     * most nine digits, so that it always fits an int: a longer one (a malformed id) is no match.
     */
    private static final Pattern VERSION = Pattern.compile("claude-(?:opus|sonnet|haiku)-(\\d{1,9})(?!\\d)(?:-(\\d{1,2})(?!\\d))?");

    private AdaptiveClaude() {
    }

    /** Tells whether a Bedrock Claude model id names a model with adaptive thinking. */
    static boolean takesAdaptiveThinking(String model) {
        Matcher m = VERSION.matcher(model.toLowerCase(Locale.ROOT));
        if (!m.find()) {
            return false;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
        return major > 4 || (major == 4 && minor >= 6);
    }

    /** The {@code output_config.effort} level of an effort for a model ({@link ClaudeEffort}). */
    static String effortLevel(ReasoningEffort effort, String model) {
        return ClaudeEffort.level(effort, model);
    }
}
