package dev.ruminate.providers.internal;

import dev.ruminate.core.request.ReasoningEffort;
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
