package dev.ruminate.core.history;

import java.util.Objects;

/**
 * One decision of a {@link SendBackPlan}: what happens to one reasoning part or opaque value of an
 * earlier turn, and the rule and reason behind it.
 *
 * <p>Immutable and thread-safe. Never holds an opaque value itself, only its kind and length.
 *
 * @param turn the index of the message in the conversation as given (before preparation)
 * @param part the index of the part in that message as given
 * @param value what is decided on: {@code reasoning} (the part's readable text), or an opaque kind
 *     ({@code signature}, {@code encrypted}, {@code redacted}, {@code item id}, {@code format})
 * @param action what happens to it
 * @param rule the rule applied: an id of {@code docs/send-back-rules.md} ({@code H1}, {@code A1},
 *     {@code C1}, …), or {@code boundary}, {@code integrity}, {@code retention}
 * @param reason why, in words, for a person reading the plan
 * @since 0.2
 */
public record PlanEntry(int turn, int part, String value, PlanAction action, String rule, String reason) {

    /**
     * Creates the value, checking its components.
     *
     * @param turn see {@link #turn()}
     * @param part see {@link #part()}
     * @param value see {@link #value()}
     * @param action see {@link #action()}
     * @param rule see {@link #rule()}
     * @param reason see {@link #reason()}
     */
    public PlanEntry {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(reason, "reason");
    }
}
