package dev.ruminate.core.error;

import java.time.Duration;
import java.util.Objects;

/**
 * A deadline passed: connecting, the first event, the gap between two events, or the whole exchange.
 *
 * <p>Safe to share between threads once thrown; its message and fields never hold a credential.
 *
 * @since 0.1
 */
public final class StreamTimeoutException extends RuminateException {

    private static final long serialVersionUID = 1L;

    /** Which deadline passed. */
    private final Phase phase;
    /** The configured limit. */
    private final Duration limit;

    /**
     * Creates the error.
     *
     * @param phase which deadline passed
     * @param limit the configured limit
     */
    public StreamTimeoutException(Phase phase, Duration limit) {
        super(phase.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " timeout after " + limit, null);
        this.phase = Objects.requireNonNull(phase, "phase");
        this.limit = Objects.requireNonNull(limit, "limit");
    }

    /**
     * Returns which deadline passed.
     *
     * @return the phase
     */
    public Phase phase() {
        return phase;
    }

    /**
     * Returns the configured limit.
     *
     * @return the limit
     */
    public Duration limit() {
        return limit;
    }

    @Override
    public boolean isRetryable() {
        return phase == Phase.CONNECT || phase == Phase.FIRST_EVENT;
    }

    @Override
    public String type() {
        return "timeout";
    }

    /**
     * The deadlines.
     *
     * @since 0.1
     */
    public enum Phase {
        /** Establishing the connection. */
        CONNECT,
        /** From sending the request to the first event. */
        FIRST_EVENT,
        /** Between two events. */
        IDLE,
        /** The whole exchange. */
        TOTAL
    }
}
