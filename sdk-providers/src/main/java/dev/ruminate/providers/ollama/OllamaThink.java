package dev.ruminate.providers.ollama;

import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.Locale;
import tools.jackson.core.JsonGenerator;

/**
 * Writes Ollama's {@code think} from the reasoning options, and reports what Ollama ignores or
 * coerces of them:
 *
 * <ul>
 *   <li>{@code false} when reasoning is disabled or the effort is {@code NONE}; gpt-oss models
 *       cannot turn reasoning off and ignore it (Ollama's thinking docs), which is reported;</li>
 *   <li>a level {@code "low"|"medium"|"high"} for an effort: {@code MINIMAL} is sent as {@code low}
 *       and {@code XHIGH}/{@code MAX} as {@code high}, reported as coerced. Only gpt-oss models
 *       grade their reasoning by level; other thinking models take {@code think} as on/off and treat
 *       a level as {@code true} (PROTOCOLS.md §7: the levels are gpt-oss's; how other models read a
 *       level is UNVERIFIED in Ollama's source), which is reported;</li>
 *   <li>{@code true} when reasoning is enabled, or a budget is given, without an effort. Ollama has
 *       no budget: a budget is reported as ignored;</li>
 *   <li>nothing for the default options. Asking not to include the reasoning is reported as ignored:
 *       Ollama returns a thinking model's reasoning in {@code thinking} whenever it thinks.</li>
 * </ul>
 *
 * <p>Stateless; thread-safe.
 */
final class OllamaThink {

    private OllamaThink() {
    }

    /** Tells whether the model grades its reasoning by level: gpt-oss, under any tag or namespace. */
    static boolean levelled(String model) {
        return model.toLowerCase(Locale.ROOT).contains("gpt-oss");
    }

    static void write(JsonGenerator g, String model, ReasoningOptions r, RequestWarnings warnings) {
        if (r.isDefault()) {
            return;
        }
        ReasoningEffort effort = r.effort();
        boolean off = Boolean.FALSE.equals(r.enabled()) || effort == ReasoningEffort.NONE;
        if (r.budgetTokens() != null && !off) {
            warnings.ignored("Ollama: budgetTokens is ignored (Ollama has no reasoning budget; think was sent)");
        }
        if (Boolean.FALSE.equals(r.includeReasoning()) && !off) {
            warnings.ignored("Ollama: includeReasoning=false is ignored (Ollama returns the reasoning of a thinking "
                    + "model in thinking whenever it thinks)");
        }
        if (off) {
            g.writeBooleanProperty("think", false);
            if (levelled(model)) {
                warnings.ignored("Ollama: gpt-oss models cannot turn reasoning off and ignore think:false; "
                        + "ask for the effort low for the least reasoning");
            }
        } else if (effort != null) {
            String level = switch (effort) {
                case NONE, MINIMAL, LOW -> "low";
                case MEDIUM -> "medium";
                default -> "high";
            };
            g.writeStringProperty("think", level);
            String asked = effort.name().toLowerCase(Locale.ROOT);
            if (!levelled(model)) {
                warnings.coerced("Ollama: only gpt-oss models take think levels; " + model + " takes think as on/off, "
                        + "so the effort " + asked + " (sent as \"" + level + "\") counts as think:true");
            } else if (!level.equals(asked)) {
                warnings.coerced("Ollama: gpt-oss has no think level " + asked + " (it has low, medium, high): sent " + level);
            }
        } else if (Boolean.TRUE.equals(r.enabled()) || r.budgetTokens() != null) {
            g.writeBooleanProperty("think", true);
        }
    }
}
