package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/** Writes {@link ReasoningOptions} the way a {@link ReasoningRequestStyle} says. */
final class ReasoningParams {

    private ReasoningParams() {
    }

    /**
     * Writes the style's reasoning fields.
     *
     * @param carriesReasoning whether the messages send earlier reasoning back: GLM then needs
     *     {@code "clear_thinking": false} to keep it (preserved thinking), even with default options
     */
    static void write(JsonGenerator g, ReasoningRequestStyle style, ReasoningOptions r, String model,
                      Set<String> taken, boolean carriesReasoning) {
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
}
