package dev.ruminate.core.event;

import dev.ruminate.core.message.Usage;
import java.util.Objects;

/**
 * Token counts as the provider reports them. A later update replaces the counts it carries and
 * keeps those it leaves unknown.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param usage the counts
 * @since 0.1
 */
public record UsageUpdate(Usage usage) implements ChatEvent {

    /**
     * Creates the value, checking its components.
     *
     * @param usage see {@link #usage()}
     */
    public UsageUpdate {
        Objects.requireNonNull(usage, "usage");
    }
}
