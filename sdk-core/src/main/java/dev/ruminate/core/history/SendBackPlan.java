package dev.ruminate.core.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The explained send-back plan of one request: for every reasoning part and opaque value of the
 * conversation's earlier turns, what is done with it (keep, strip, drop, convert to text, tags or a
 * field, placeholder) and the rule and reason behind it.
 *
 * <p>Two stages write it: {@link History} (the provider-neutral rules: another provider's turns,
 * endpoint boundaries, integrity checks, retention) and then the target family's encoder (its own
 * send-back rules for what History kept). Entries refer to turns and parts as the application gave
 * them, even when preparation dropped some.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.2
 */
public final class SendBackPlan {

    /** A plan with no entries. */
    public static final SendBackPlan EMPTY = new SendBackPlan(List.of());

    private final List<PlanEntry> entries;

    private SendBackPlan(List<PlanEntry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * Returns the decisions, ordered by turn and part (decisions on one part in the order made).
     *
     * @return the entries, unmodifiable
     */
    public List<PlanEntry> entries() {
        return entries;
    }

    /**
     * Returns the decisions on one turn.
     *
     * @param turn the message index as given
     * @return the entries, possibly empty
     */
    public List<PlanEntry> forTurn(int turn) {
        return entries.stream().filter(e -> e.turn() == turn).toList();
    }

    /**
     * Renders the plan for a person: one line per decision.
     *
     * @return the text, empty when there is nothing to decide
     */
    public String render() {
        StringBuilder sb = new StringBuilder();
        for (PlanEntry e : entries) {
            sb.append("turn ").append(e.turn()).append(" part ").append(e.part()).append(' ').append(e.value())
                    .append(": ").append(e.action().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '))
                    .append(" [").append(e.rule()).append("] ").append(e.reason()).append('\n');
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SendBackPlan p && p.entries.equals(entries);
    }

    @Override
    public int hashCode() {
        return entries.hashCode();
    }

    @Override
    public String toString() {
        return "SendBackPlan" + entries;
    }

    /**
     * Starts a plan for a prepared conversation.
     *
     * @param turnOrigin for each prepared message, its index in the conversation as given
     * @param partOrigin for each prepared message, for each of its parts, the part's index in the
     *     message as given (an empty array for messages that are not assistant turns)
     * @return a builder
     */
    public static Builder builder(int[] turnOrigin, int[][] partOrigin) {
        return new Builder(turnOrigin, partOrigin);
    }

    /**
     * Collects decisions. Not thread-safe; used by one request's preparation and encoding.
     *
     * @since 0.2
     */
    public static final class Builder {
        private final int[] turnOrigin;
        private final int[][] partOrigin;
        private final List<PlanEntry> entries = new ArrayList<>();

        private Builder(int[] turnOrigin, int[][] partOrigin) {
            this.turnOrigin = Objects.requireNonNull(turnOrigin, "turnOrigin").clone();
            this.partOrigin = Objects.requireNonNull(partOrigin, "partOrigin").clone();
            if (turnOrigin.length != partOrigin.length) {
                throw new IllegalArgumentException("one part map per prepared message");
            }
        }

        /**
         * Records a decision on a part as the application gave it (the History stage).
         *
         * @param turn the message index as given
         * @param part the part index as given
         * @param value see {@link PlanEntry#value()}
         * @param action the action
         * @param rule see {@link PlanEntry#rule()}
         * @param reason see {@link PlanEntry#reason()}
         * @return this builder
         */
        public Builder addOriginal(int turn, int part, String value, PlanAction action, String rule, String reason) {
            entries.add(new PlanEntry(turn, part, value, action, rule, reason));
            return this;
        }

        /**
         * Records a decision on a part of the prepared conversation (the encoder stage); the indices
         * are mapped back to the conversation as given.
         *
         * @param preparedTurn the message index in the prepared conversation
         * @param preparedPart the part index in the prepared message
         * @param value see {@link PlanEntry#value()}
         * @param action the action
         * @param rule see {@link PlanEntry#rule()}
         * @param reason see {@link PlanEntry#reason()}
         * @return this builder
         * @throws IndexOutOfBoundsException if the prepared turn or part does not exist
         */
        public Builder add(int preparedTurn, int preparedPart, String value, PlanAction action, String rule,
                           String reason) {
            return addOriginal(turnOrigin[preparedTurn], partOrigin[preparedTurn][preparedPart], value, action, rule,
                    reason);
        }

        /**
         * Builds the plan, entries ordered by turn and part, stable otherwise.
         *
         * @return the plan
         */
        public SendBackPlan build() {
            List<PlanEntry> sorted = new ArrayList<>(entries);
            sorted.sort(Comparator.comparingInt(PlanEntry::turn).thenComparingInt(PlanEntry::part));
            return new SendBackPlan(sorted);
        }
    }
}
