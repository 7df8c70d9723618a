package dev.ruminate.providers.internal;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.PlanAction;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.Seals;
import java.util.Locale;

/**
 * What every family's {@code explain} writes the same way: the names of opaque values in a plan and
 * one entry per value a part carries.
 *
 * <p>Stateless and thread-safe.
 */
public final class PlanNotes {

    /** The value name of a reasoning part's readable text. */
    public static final String REASONING = "reasoning";

    /** The value name of a server-tool block sent back (or not) as its JSON. */
    public static final String SERVER_TOOL = "server tool";

    private PlanNotes() {
    }

    /**
     * Returns a seal kind's value name in a plan: {@code signature}, {@code redacted},
     * {@code encrypted}, {@code item id}, {@code format}.
     *
     * @param kind the kind
     * @return the name
     */
    public static String value(Seal.Kind kind) {
        return kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** Decides the fate of one opaque value of a part. */
    @FunctionalInterface
    public interface SealDecision {
        /**
         * Records the decision on one value.
         *
         * @param kind the value's kind
         * @param value the value itself (for the decision, never for the plan)
         * @return the decision
         */
        Decision decide(Seal.Kind kind, String value);
    }

    /**
     * An action with its rule and reason.
     *
     * @param action the action
     * @param rule the rule id
     * @param reason the reason, in words
     */
    public record Decision(PlanAction action, String rule, String reason) {
    }

    /**
     * Adds one entry per opaque value the seals hold, in the order of {@link Seal.Kind}.
     *
     * @param plan the plan
     * @param turn the prepared message index
     * @param part the prepared part index
     * @param seals the part's seals
     * @param decision what happens to each value
     */
    public static void seals(SendBackPlan.Builder plan, int turn, int part, Seals seals, SealDecision decision) {
        for (Seal.Kind kind : Seal.Kind.values()) {
            String v = seals.get(kind);
            if (v != null) {
                Decision d = decision.decide(kind, v);
                plan.add(turn, part, value(kind), d.action(), d.rule(), d.reason());
            }
        }
    }

    /**
     * Adds one entry.
     *
     * @param plan the plan
     * @param turn the prepared message index
     * @param part the prepared part index
     * @param value the value name
     * @param d the decision
     */
    public static void add(SendBackPlan.Builder plan, int turn, int part, String value, Decision d) {
        plan.add(turn, part, value, d.action(), d.rule(), d.reason());
    }

    /**
     * Makes a decision.
     *
     * @param action the action
     * @param rule the rule id
     * @param reason the reason
     * @return the decision
     */
    public static Decision of(PlanAction action, String rule, String reason) {
        return new Decision(action, rule, reason);
    }
}
