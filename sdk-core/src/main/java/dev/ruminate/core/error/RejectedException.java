package dev.ruminate.core.error;

import java.util.Objects;

/**
 * The call was refused before anything was sent: the endpoint's circuit breaker is open, its rate
 * limiter had no permit in time, or its bulkhead is full. Not retryable as it stands: the guard
 * that refused it says when to try again.
 *
 * <p>Safe to share between threads once thrown; its message and fields never hold a credential.
 *
 * @since 0.1
 */
public final class RejectedException extends RuminateException {

    private static final long serialVersionUID = 1L;

    /** What refused the call. */
    public enum Guard {
        /** The circuit breaker is open (or half-open with no trial call free). */
        CIRCUIT_BREAKER,
        /** The rate limiter had no permit within its timeout. */
        RATE_LIMITER,
        /** The bulkhead holds its maximum of concurrent calls. */
        BULKHEAD
    }

    /** The guard that refused the call. */
    private final Guard guard;

    /**
     * Creates the error.
     *
     * @param provider the provider the call was for
     * @param guard what refused it
     * @param name the guard's name (its registry name)
     */
    public RejectedException(String provider, Guard guard, String name) {
        super(provider + " call refused by " + Objects.requireNonNull(guard, "guard").name().toLowerCase(java.util.Locale.ROOT)
                .replace('_', ' ') + " '" + name + "'", null);
        this.guard = guard;
    }

    /**
     * Returns what refused the call.
     *
     * @return the guard
     */
    public Guard guard() {
        return guard;
    }

    @Override
    public String type() {
        return "rejected";
    }
}
