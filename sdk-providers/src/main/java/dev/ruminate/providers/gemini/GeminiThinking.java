package dev.ruminate.providers.gemini;

import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.List;
import java.util.Locale;
import tools.jackson.core.JsonGenerator;

/**
 * Decides {@code generationConfig.thinkingConfig} from the reasoning options and the model's
 * generation, and reports every option it maps to the nearest value the model has or leaves out:
 *
 * <ul>
 *   <li><b>Gemini 3</b> ({@code gemini-3…}): an effort is a {@code thinkingLevel}. Flash models have
 *       {@code minimal|low|medium|high}; {@code gemini-3-pro} {@code low|high}; later Pro models
 *       ({@code gemini-3.1-pro…}) {@code low|medium|high}. {@code xhigh} and {@code max} are
 *       {@code high}. Gemini 3 cannot turn thinking off: "off" is the lowest level. A budget is sent as
 *       {@code thinkingBudget} (Google keeps it for compatibility); with an effort too, the level wins
 *       (the API refuses both).</li>
 *   <li><b>Gemini 2.5</b> ({@code gemini-2.5…}): only {@code thinkingBudget}; an effort becomes the
 *       budget Google's OpenAI-compatible endpoint maps it to (low 1024, medium 8192, high 24576); the
 *       budget is clamped to the model's range (Pro 128–32768 and no off; Flash 0–24576; Flash-Lite 0
 *       or 512–24576); with an effort too, the budget wins.</li>
 *   <li><b>Other models</b> (aliases such as {@code gemini-flash-latest}, tuned or older models): the
 *       options as asked, a budget as {@code thinkingBudget}, an effort as a level, off as budget 0.</li>
 * </ul>
 *
 * <p>{@code includeThoughts} asks for thought summaries whenever thinking is on, unless the options
 * say not to include reasoning. The level sets and ranges are Google's documented ones as of 2026
 * (the per-model level sets of Gemini 3 are UNVERIFIED beyond the docs' examples).
 *
 * <p>Stateless; the static methods are thread-safe.
 */
final class GeminiThinking {

    /** A model's generation, as far as thinking is concerned. */
    enum Generation {
        /** Gemini 3: thinking levels, cannot be turned off. */
        GEMINI_3,
        /** Gemini 2.5: thinking budgets. */
        GEMINI_2_5,
        /** Anything else: the options as asked. */
        OTHER
    }

    private GeminiThinking() {
    }

    /** Returns a model id without {@code models/} or a Vertex resource path, lower case. */
    static String id(String model) {
        int slash = model.lastIndexOf('/');
        return (slash >= 0 ? model.substring(slash + 1) : model).toLowerCase(Locale.ROOT);
    }

    static Generation generation(String model) {
        String id = id(model);
        if (id.startsWith("gemini-3")) {
            return Generation.GEMINI_3;
        }
        return id.startsWith("gemini-2.5") ? Generation.GEMINI_2_5 : Generation.OTHER;
    }

    /** The thinking levels a Gemini 3 model has, lowest first. */
    static List<String> levels(String model) {
        String id = id(model);
        if (id.contains("flash")) {
            return List.of("minimal", "low", "medium", "high");
        }
        if (id.startsWith("gemini-3-pro")) {
            return List.of("low", "high");
        }
        return List.of("low", "medium", "high");
    }

    /** Writes {@code thinkingConfig} into the open {@code generationConfig}, or nothing for the default options. */
    static void write(JsonGenerator g, String model, ReasoningOptions r, RequestWarnings warnings) {
        if (r.isDefault()) {
            return;
        }
        ReasoningEffort effort = r.effort();
        Integer budget = r.budgetTokens();
        boolean off = Boolean.FALSE.equals(r.enabled()) || effort == ReasoningEffort.NONE
                || (effort == null && budget != null && budget == 0);
        g.writeObjectPropertyStart("thinkingConfig");
        switch (generation(model)) {
            case GEMINI_3 -> gemini3(g, model, r, off, warnings);
            case GEMINI_2_5 -> gemini25(g, model, r, off, warnings);
            default -> other(g, r, off, warnings);
        }
        g.writeEndObject();
    }

    private static void includeThoughts(JsonGenerator g, ReasoningOptions r, boolean off, RequestWarnings warnings) {
        if (off) {
            if (Boolean.TRUE.equals(r.includeReasoning())) {
                warnings.ignored("Gemini: includeReasoning is ignored with reasoning off (no thought summaries to include)");
            }
            return;
        }
        g.writeBooleanProperty("includeThoughts", !Boolean.FALSE.equals(r.includeReasoning()));
    }

    private static void gemini3(JsonGenerator g, String model, ReasoningOptions r, boolean off, RequestWarnings warnings) {
        List<String> levels = levels(model);
        String lowest = levels.get(0);
        ReasoningEffort effort = r.effort();
        if (off) {
            includeThoughts(g, r, true, warnings);
            g.writeStringProperty("thinkingLevel", lowest);
            warnings.coerced("Gemini 3 (" + id(model) + ") cannot turn thinking off: reasoning off was sent as "
                    + "thinkingLevel " + lowest + ", the lowest it has");
            return;
        }
        includeThoughts(g, r, false, warnings);
        if (effort != null) {
            if (r.budgetTokens() != null) {
                warnings.ignored("Gemini 3: budgetTokens is ignored when an effort is given (the API takes "
                        + "thinkingLevel or thinkingBudget, not both); thinkingLevel was sent");
            }
            String level = nearest(effort, levels);
            if (!level.equals(effort.name().toLowerCase(Locale.ROOT))) {
                warnings.coerced("Gemini 3 (" + id(model) + ") has no thinkingLevel " + effort.name().toLowerCase(Locale.ROOT)
                        + " (it has " + String.join(", ", levels) + "): sent " + level);
            }
            g.writeStringProperty("thinkingLevel", level);
        } else if (r.budgetTokens() != null) {
            g.writeNumberProperty("thinkingBudget", r.budgetTokens());
        }
    }

    /** The nearest level a model has: an effort it has, else the closest, the higher on a tie. */
    static String nearest(ReasoningEffort effort, List<String> levels) {
        int want = effort.ordinal();
        String best = levels.get(0);
        int bestDistance = Integer.MAX_VALUE;
        for (String level : levels) {
            int distance = Math.abs(ReasoningEffort.valueOf(level.toUpperCase(Locale.ROOT)).ordinal() - want);
            if (distance <= bestDistance) {
                best = level;
                bestDistance = distance;
            }
        }
        return best;
    }

    private static void gemini25(JsonGenerator g, String model, ReasoningOptions r, boolean off, RequestWarnings warnings) {
        String id = id(model);
        boolean pro = id.contains("pro");
        boolean lite = id.contains("flash-lite");
        int min = pro ? 128 : lite ? 512 : 1;
        int max = pro ? 32768 : 24576;
        includeThoughts(g, r, off, warnings);
        if (off) {
            if (pro) {
                warnings.coerced("Gemini 2.5 Pro cannot turn thinking off: reasoning off was sent as thinkingBudget "
                        + min + ", the least it takes");
                g.writeNumberProperty("thinkingBudget", min);
            } else {
                g.writeNumberProperty("thinkingBudget", 0);
            }
            return;
        }
        ReasoningEffort effort = r.effort();
        Integer budget = r.budgetTokens();
        if (budget != null) {
            if (effort != null) {
                warnings.ignored("Gemini 2.5: the effort " + effort.name().toLowerCase(Locale.ROOT)
                        + " is ignored when a budget is given (2.5 models take thinkingBudget only)");
            }
            int sent = Math.max(min, Math.min(max, budget));
            if (sent != budget) {
                warnings.coerced("Gemini 2.5 (" + id + ") takes a thinkingBudget from " + min + " to " + max + ": "
                        + budget + " was sent as " + sent);
            }
            g.writeNumberProperty("thinkingBudget", sent);
        } else if (effort != null) {
            int sent = switch (effort) {
                case NONE, MINIMAL, LOW -> 1024;
                case MEDIUM -> 8192;
                default -> 24576;
            };
            warnings.coerced("Gemini 2.5 has no thinking levels: the effort " + effort.name().toLowerCase(Locale.ROOT)
                    + " was sent as thinkingBudget " + sent);
            g.writeNumberProperty("thinkingBudget", sent);
        }
    }

    private static void other(JsonGenerator g, ReasoningOptions r, boolean off, RequestWarnings warnings) {
        includeThoughts(g, r, off, warnings);
        if (off) {
            g.writeNumberProperty("thinkingBudget", 0);
            return;
        }
        ReasoningEffort effort = r.effort();
        if (r.budgetTokens() != null) {
            if (effort != null) {
                warnings.ignored("Gemini: the effort " + effort.name().toLowerCase(Locale.ROOT)
                        + " is ignored when a budget is given (the API takes thinkingLevel or thinkingBudget, not both)");
            }
            g.writeNumberProperty("thinkingBudget", r.budgetTokens());
        } else if (effort != null) {
            g.writeStringProperty("thinkingLevel", level(effort, warnings));
        }
    }

    /** A level for a model of unknown generation: the effort's name, {@code xhigh} and {@code max} as {@code high}. */
    private static String level(ReasoningEffort effort, RequestWarnings warnings) {
        if (effort == ReasoningEffort.MAX || effort == ReasoningEffort.XHIGH) {
            warnings.coerced("Gemini has no thinkingLevel " + effort.name().toLowerCase(Locale.ROOT) + ": sent high");
            return "high";
        }
        return effort.name().toLowerCase(Locale.ROOT);
    }
}
