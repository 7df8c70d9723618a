package dev.ruminate.transport.resilience;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The time limits of one call, measured on events (not bytes): until the first event, between two
 * events, and for the whole call (every retry included). Each fires as a
 * {@link dev.ruminate.core.error.StreamTimeoutException} of its own phase ({@code FIRST_EVENT},
 * {@code IDLE}, {@code TOTAL}); a limit left null does not apply. The connect timeout belongs to the
 * Reactor Netty client ({@code CONNECT_TIMEOUT_MILLIS}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param firstEvent the longest wait for the first event of an attempt, or null
 * @param idle the longest silence between two events, or null
 * @param total the longest a whole call may take, or null
 * @since 0.1
 */
public record Timeouts(@Nullable Duration firstEvent, @Nullable Duration idle, @Nullable Duration total) {

    /** No limits. */
    public static final Timeouts NONE = new Timeouts(null, null, null);

    /**
     * Creates the value, checking its components.
     *
     * @param firstEvent see {@link #firstEvent()}
     * @param idle see {@link #idle()}
     * @param total see {@link #total()}
     */
    public Timeouts {
        requirePositive(firstEvent, "firstEvent");
        requirePositive(idle, "idle");
        requirePositive(total, "total");
    }

    private static void requirePositive(@Nullable Duration d, String name) {
        if (d != null && (d.isNegative() || d.isZero())) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }
}
