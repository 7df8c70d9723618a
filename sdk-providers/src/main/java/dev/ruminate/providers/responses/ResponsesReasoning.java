package dev.ruminate.providers.responses;

import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.internal.OpenAiModels;
import dev.ruminate.providers.spi.RequestWarnings;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * The {@code reasoning} object of a Responses request, decided once from the profile's style, the
 * model's line ({@link OpenAiModels}) and the request's options, with a warning for every option
 * that is not sent as asked: an effort the model lacks (mapped to its nearest level), reasoning
 * turned off on a model that cannot, a token budget (Responses takes none), a reasoning display the
 * server has no switch for.
 *
 * <p>Immutable and thread-safe.
 *
 * @param effort the {@code effort} to send, or null
 * @param summary true to send {@code summary: "auto"}
 */
record ResponsesReasoning(@Nullable String effort, boolean summary) {

    /** Nothing to send. */
    static final ResponsesReasoning NONE = new ResponsesReasoning(null, false);

    /**
     * Decides the reasoning object, reporting what is ignored or coerced.
     *
     * @param style how the server takes reasoning
     * @param model the model id
     * @param options the request's options
     * @param warnings where coercions are reported
     * @return what to send
     */
    static ResponsesReasoning decide(ResponsesReasoningStyle style, String model, ReasoningOptions options,
                                     RequestWarnings warnings) {
        if (options.budgetTokens() != null) {
            warnings.ignored("reasoning budgetTokens: the Responses API takes no reasoning token budget (only an"
                    + " effort); the budget was not sent");
        }
        if (style == ResponsesReasoningStyle.NONE) {
            if (options.enabled() != null || options.effort() != null || options.includeReasoning() != null) {
                warnings.ignored("reasoning options: this server chooses reasoning by model and takes no reasoning"
                        + " object; give one as the extra \"reasoning\" to send it anyway");
            }
            return NONE;
        }
        if (options.isDefault()) {
            return NONE;
        }
        OpenAiModels.Line line = OpenAiModels.line(model);
        String effort = null;
        ReasoningEffort asked = options.effort();
        if (asked != null) {
            effort = effort(style, line, asked, warnings);
        } else if (Boolean.FALSE.equals(options.enabled())) {
            effort = effort(style, line, ReasoningEffort.NONE, warnings);
        }
        boolean off = "none".equals(effort);
        Boolean include = options.includeReasoning();
        boolean summary = false;
        if (style == ResponsesReasoningStyle.EFFORT_AND_SUMMARY) {
            summary = !off && !Boolean.FALSE.equals(include);
            if (off && Boolean.TRUE.equals(include)) {
                warnings.ignored("includeReasoning: reasoning is off (effort none), so there is no summary to ask for");
            }
        } else if (Boolean.FALSE.equals(include)) {
            warnings.ignored("includeReasoning false: this server has no switch to hide its reasoning (no"
                    + " reasoning.summary); the reasoning it returns still comes");
        }
        return effort == null && !summary ? NONE : new ResponsesReasoning(effort, summary);
    }

    /** Writes {@code reasoning: {effort, summary}} when there is something to send. */
    void write(JsonGenerator g) {
        if (effort == null && !summary) {
            return;
        }
        g.writeObjectPropertyStart("reasoning");
        if (effort != null) {
            g.writeStringProperty("effort", effort);
        }
        if (summary) {
            g.writeStringProperty("summary", "auto");
        }
        g.writeEndObject();
    }

    /**
     * The wire effort: the model line's nearest level where PROTOCOLS.md gives its ladder; else
     * OpenAI's ladder ({@code none|minimal|low|medium|high|xhigh|max}) as asked for servers with
     * summaries, and {@code xhigh} for {@code MAX} on servers that reason in the open, whose ladder
     * tops out there.
     */
    private static String effort(ResponsesReasoningStyle style, OpenAiModels.Line line, ReasoningEffort asked,
                                 RequestWarnings warnings) {
        String sent = switch (line) {
            case O_SERIES, GPT_OSS -> switch (asked) {
                case NONE, MINIMAL -> "low";
                case XHIGH, MAX -> "high";
                default -> asked.wireName();
            };
            case GPT5 -> switch (asked) {
                case NONE -> "minimal";
                case XHIGH, MAX -> "high";
                default -> asked.wireName();
            };
            case GPT5_PRO -> "high";
            default -> asked == ReasoningEffort.MAX && style != ResponsesReasoningStyle.EFFORT_AND_SUMMARY
                    ? "xhigh" : asked.wireName();
        };
        if (!sent.equals(asked.wireName())) {
            String why = asked == ReasoningEffort.NONE
                    ? "this model cannot turn reasoning off; its lowest effort was sent"
                    : "the model (or server) has no such level; the nearest it has was sent";
            warnings.coerced("reasoning effort " + asked.wireName() + " sent as " + sent + ": " + why);
        }
        return sent;
    }
}
