package dev.ruminate.core.history;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a provider sends earlier turns back: the retention of reasoning, and the handling of turns
 * another provider produced.
 *
 * <p>Immutable and thread-safe.
 *
 * @param retention how much reasoning goes back, or null for the provider's own default (each
 *     provider documents it)
 * @param foreignReasoning what happens to another provider's reasoning text
 * @since 0.1
 */
public record HistoryPolicy(@Nullable Retention retention, ForeignReasoning foreignReasoning) {

    /** The provider's default retention; other providers' reasoning dropped. */
    public static final HistoryPolicy DEFAULT = new HistoryPolicy(null, ForeignReasoning.DROP);

    /**
     * Creates the value, checking its components.
     *
     * @param retention see {@link #retention()}
     * @param foreignReasoning see {@link #foreignReasoning()}
     */
    public HistoryPolicy {
        Objects.requireNonNull(foreignReasoning, "foreignReasoning");
    }

    /**
     * Returns a policy with a retention.
     *
     * @param value the retention
     * @return the policy
     */
    public HistoryPolicy withRetention(Retention value) {
        return new HistoryPolicy(Objects.requireNonNull(value, "value"), foreignReasoning);
    }

    /**
     * Returns a policy with a handling of other providers' reasoning.
     *
     * @param value the handling
     * @return the policy
     */
    public HistoryPolicy withForeignReasoning(ForeignReasoning value) {
        return new HistoryPolicy(retention, value);
    }

    /**
     * Returns the retention to apply.
     *
     * @param providerDefault the provider's default
     * @return this policy's retention, or the default when it has none
     */
    public Retention retentionOr(Retention providerDefault) {
        return retention != null ? retention : Objects.requireNonNull(providerDefault, "providerDefault");
    }
}
