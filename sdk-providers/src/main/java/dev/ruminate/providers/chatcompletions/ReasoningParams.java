package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Writes {@link ReasoningOptions} the way a {@link ReasoningRequestStyle} says, and reports every
 * option the style leaves out (ignored) or sends as another value (coerced), so none vanishes
 * silently. A field an extra replaces is neither written nor reported.
 */
final class ReasoningParams {

    private ReasoningParams() {
    }

    /**
     * Writes the style's reasoning fields.
     *
     * @param carriesReasoning whether the messages send earlier reasoning back: GLM then needs
     *     {@code "clear_thinking": false} to keep it (preserved thinking), even with default options
     */
    static void write(JsonGenerator g, CompatProfile profile, ReasoningOptions r, String model,
                      Set<String> taken, boolean carriesReasoning, RequestWarnings warnings) {
        ReasoningRequestStyle style = profile.reasoningStyle();
        Boolean thinking = thinking(r);
        if (style == ReasoningRequestStyle.GLM_THINKING && carriesReasoning && !Boolean.FALSE.equals(thinking)
                && !taken.contains("thinking")) {
            g.writeObjectPropertyStart("thinking");
            g.writeStringProperty("type", "enabled");
            g.writeBooleanProperty("clear_thinking", false);
            g.writeEndObject();
            return;
        }
        if (r.isDefault()) {
            return;
        }
        new Report(profile.name(), r, warnings, taken).check(style, model);
        ReasoningEffort effort = r.effort();
        switch (style) {
            case NONE -> { }
            case OPENAI_EFFORT -> string(g, taken, "reasoning_effort",
                    effort != null ? openAi(effort) : Boolean.FALSE.equals(r.enabled()) ? "none" : null);
            case DEEPSEEK_THINKING -> {
                if (thinking != null && !taken.contains("thinking")) {
                    g.writeObjectPropertyStart("thinking");
                    g.writeStringProperty("type", thinking ? "enabled" : "disabled");
                    g.writeEndObject();
                }
                if (!Boolean.FALSE.equals(thinking) && effort != null && effort != ReasoningEffort.NONE) {
                    string(g, taken, "reasoning_effort", effort == ReasoningEffort.MAX ? "max" : "high");
                }
            }
            case OPENROUTER_REASONING -> openRouter(g, r, taken);
            case GROQ -> {
                string(g, taken, "reasoning_effort",
                        effort != null ? groq(effort) : Boolean.FALSE.equals(r.enabled()) ? "none" : null);
                if (r.includeReasoning() != null) {
                    string(g, taken, "reasoning_format", r.includeReasoning() ? "parsed" : "hidden");
                }
            }
            case XAI_EFFORT -> string(g, taken, "reasoning_effort", effort == null ? null : xai(effort));
            case GLM_THINKING -> {
                if (thinking != null && !taken.contains("thinking")) {
                    g.writeObjectPropertyStart("thinking");
                    g.writeStringProperty("type", thinking ? "enabled" : "disabled");
                    g.writeEndObject();
                }
            }
            case CHAT_TEMPLATE_KWARGS -> {
                if (thinking != null && !taken.contains("chat_template_kwargs")) {
                    g.writeObjectPropertyStart("chat_template_kwargs");
                    g.writeBooleanProperty("enable_thinking", thinking);
                    g.writeEndObject();
                }
            }
            case DASHSCOPE -> {
                if (thinking != null && !taken.contains("enable_thinking")) {
                    g.writeBooleanProperty("enable_thinking", thinking);
                }
                if (r.budgetTokens() != null && !Boolean.FALSE.equals(thinking) && !taken.contains("thinking_budget")) {
                    g.writeNumberProperty("thinking_budget", r.budgetTokens());
                }
            }
            case GEMINI_EFFORT -> string(g, taken, "reasoning_effort",
                    effort != null ? gemini(effort) : Boolean.FALSE.equals(r.enabled()) ? "none" : null);
            case MISTRAL -> {
                if (model.startsWith("magistral")) {
                    if (Boolean.TRUE.equals(thinking)) {
                        string(g, taken, "prompt_mode", "reasoning");
                    }
                } else if (thinking != null) {
                    string(g, taken, "reasoning_effort", thinking ? "high" : "none");
                }
            }
        }
    }

    /** Whether thinking is asked for: {@code enabled} if set, else implied by an effort or budget. */
    private static @Nullable Boolean thinking(ReasoningOptions r) {
        if (r.enabled() != null) {
            return r.enabled();
        }
        if (r.effort() != null) {
            return r.effort() != ReasoningEffort.NONE;
        }
        return r.budgetTokens() != null ? Boolean.TRUE : null;
    }

    private static void openRouter(JsonGenerator g, ReasoningOptions r, Set<String> taken) {
        if (taken.contains("reasoning")) {
            return;
        }
        g.writeObjectPropertyStart("reasoning");
        if (r.budgetTokens() != null) {
            g.writeNumberProperty("max_tokens", r.budgetTokens());
        } else if (r.effort() != null) {
            g.writeStringProperty("effort", openAi(r.effort()));
        }
        if (r.includeReasoning() != null) {
            g.writeBooleanProperty("exclude", !r.includeReasoning());
        }
        if (r.enabled() != null) {
            g.writeBooleanProperty("enabled", r.enabled());
        }
        g.writeEndObject();
    }

    private static String openAi(ReasoningEffort effort) {
        return effort == ReasoningEffort.MAX ? "xhigh" : effort.wireName();
    }

    private static String groq(ReasoningEffort effort) {
        return switch (effort) {
            case NONE -> "none";
            case MINIMAL, LOW -> "low";
            case MEDIUM -> "medium";
            case HIGH, XHIGH, MAX -> "high";
        };
    }

    private static String gemini(ReasoningEffort effort) {
        return switch (effort) {
            case NONE -> "none";
            case MINIMAL -> "minimal";
            case LOW -> "low";
            case MEDIUM -> "medium";
            case HIGH, XHIGH, MAX -> "high";
        };
    }

    private static @Nullable String xai(ReasoningEffort effort) {
        return switch (effort) {
            case NONE -> null;
            case MINIMAL, LOW, MEDIUM -> "low";
            case HIGH, XHIGH, MAX -> "high";
        };
    }

    private static void string(JsonGenerator g, Set<String> taken, String name, @Nullable String value) {
        if (value != null && !taken.contains(name)) {
            g.writeStringProperty(name, value);
        }
    }

    /** The warnings for one request's options under one style: what is left out, what is mapped. */
    private record Report(String who, ReasoningOptions r, RequestWarnings warnings, Set<String> taken) {

        void check(ReasoningRequestStyle style, String model) {
            ReasoningEffort effort = r.effort();
            switch (style) {
                case NONE -> warnings.ignored(who + " has no request field for reasoning options; they are ignored");
                case OPENAI_EFFORT -> {
                    coerce("reasoning_effort", effort, effort == null ? null : openAi(effort));
                    enabledAloneIgnored("reasoning_effort");
                    budgetIgnored("reasoning_effort");
                    includeIgnored();
                }
                case DEEPSEEK_THINKING -> {
                    if (!Boolean.FALSE.equals(thinking(r)) && effort != null && effort != ReasoningEffort.NONE) {
                        coerce("reasoning_effort", effort, effort == ReasoningEffort.MAX ? "max" : "high");
                    }
                    budgetIgnored("reasoning_effort");
                    includeIgnored();
                }
                case OPENROUTER_REASONING -> {
                    if (r.budgetTokens() != null && effort != null && !taken.contains("reasoning")) {
                        warnings.ignored(who + " takes a reasoning budget or an effort, not both: the budget is sent, "
                                + "the effort " + name(effort) + " is ignored");
                    } else if (r.budgetTokens() == null) {
                        coerce("reasoning", effort, effort == null ? null : openAi(effort));
                    }
                }
                case GROQ -> {
                    coerce("reasoning_effort", effort, effort == null ? null : groq(effort));
                    enabledAloneIgnored("reasoning_effort");
                    budgetIgnored("reasoning_effort");
                }
                case XAI_EFFORT -> {
                    if (effort == ReasoningEffort.NONE || (effort == null && Boolean.FALSE.equals(r.enabled()))) {
                        warnings.ignored(who + " cannot turn reasoning off: the request to disable it is ignored");
                    } else {
                        coerce("reasoning_effort", effort, effort == null ? null : xai(effort));
                        enabledAloneIgnored("reasoning_effort");
                    }
                    budgetIgnored("reasoning_effort");
                    includeIgnored();
                }
                case GLM_THINKING -> onOff("thinking");
                case CHAT_TEMPLATE_KWARGS -> onOff("chat_template_kwargs");
                case DASHSCOPE -> {
                    levelIgnored("enable_thinking");
                    includeIgnored();
                }
                case GEMINI_EFFORT -> {
                    coerce("reasoning_effort", effort, effort == null ? null : gemini(effort));
                    enabledAloneIgnored("reasoning_effort");
                    budgetIgnored("reasoning_effort");
                    includeIgnored();
                }
                case MISTRAL -> {
                    if (model.startsWith("magistral")) {
                        if (Boolean.FALSE.equals(thinking(r))) {
                            warnings.ignored(who + ": Magistral models always reason; the request to disable reasoning "
                                    + "is ignored");
                        }
                        levelIgnored("prompt_mode");
                    } else if (effort != null && effort != ReasoningEffort.NONE && effort != ReasoningEffort.HIGH
                            && !taken.contains("reasoning_effort")) {
                        warnings.coerced(who + " takes reasoning_effort high or none: the effort " + name(effort)
                                + " is sent as high");
                    }
                    budgetIgnored("reasoning_effort");
                    includeIgnored();
                }
            }
        }

        /** Reports an effort sent as another level. */
        private void coerce(String field, @Nullable ReasoningEffort effort, @Nullable String sent) {
            if (effort != null && sent != null && !sent.equals(effort.wireName()) && !taken.contains(field)) {
                warnings.coerced(who + " has no effort " + name(effort) + ": it is sent as " + sent);
            }
        }

        /** Reports {@code enabled=true} without an effort, which a style of effort levels cannot say. */
        private void enabledAloneIgnored(String field) {
            if (Boolean.TRUE.equals(r.enabled()) && r.effort() == null && r.budgetTokens() == null && !taken.contains(field)) {
                warnings.ignored(who + " takes an effort level, not an on switch: enabled=true alone writes nothing "
                        + "(the model's default applies)");
            }
        }

        private void budgetIgnored(String field) {
            if (r.budgetTokens() != null && !taken.contains(field)) {
                warnings.ignored(who + " takes no reasoning token budget; the budget is ignored"
                        + (r.effort() == null && r.enabled() == null ? " (reasoning is asked for at the default level)" : ""));
            }
        }

        private void includeIgnored() {
            if (r.includeReasoning() != null) {
                warnings.ignored(who + " has no switch for returning reasoning text; includeReasoning is ignored");
            }
        }

        private void levelIgnored(String field) {
            if (taken.contains(field)) {
                return;
            }
            if (r.effort() != null && r.effort() != ReasoningEffort.NONE) {
                warnings.ignored(who + " switches reasoning on or off only: the effort " + name(r.effort()) + " is ignored");
            }
        }

        /** A style that only switches reasoning on or off. */
        private void onOff(String field) {
            levelIgnored(field);
            if (r.budgetTokens() != null && !taken.contains(field)) {
                warnings.ignored(who + " switches reasoning on or off only: the budget is ignored");
            }
            includeIgnored();
        }

        private static String name(ReasoningEffort effort) {
            return effort.name().toLowerCase(Locale.ROOT);
        }
    }
}
