package dev.ruminate.core.error;

import dev.ruminate.core.message.AssistantMessage;
import org.jspecify.annotations.Nullable;

/**
 * The root of Ruminate's errors.
 *
 * <p>When a stream fails after some events, the reducer attaches the message reduced so far with
 * {@link #attachPartial(AssistantMessage)}, so nothing the subscriber already received is lost.
 *
 * <p><b>Threading.</b> The partial message is set at most once, by the reducer, before the error is
 * delivered downstream; reading it afterwards is safe from any thread that received the error.
 *
 * @since 0.1
 */
public abstract class RuminateException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private transient volatile @Nullable AssistantMessage partial;

    /**
     * Creates an error.
     *
     * @param message what went wrong, never containing secrets
     * @param cause the underlying cause, if any
     */
    protected RuminateException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    /**
     * Returns the message reduced from the events received before the failure.
     *
     * @return the partial message, or null when the error was not reduced (or nothing arrived)
     */
    public @Nullable AssistantMessage partial() {
        return partial;
    }

    /**
     * Attaches the partial message, unless one is attached already.
     *
     * @param message the message reduced so far
     * @return this exception
     */
    public final RuminateException attachPartial(AssistantMessage message) {
        if (partial == null) {
            partial = message;
        }
        return this;
    }

    /**
     * Tells whether the failure is transient, so that repeating the same request may succeed (rate
     * limits, overload, server errors, connection failures, timeouts). A retry must still happen
     * only while no event has reached the subscriber: after that it would duplicate output.
     *
     * @return true when a retry is reasonable
     */
    public boolean isRetryable() {
        return false;
    }

    /**
     * Returns a short stable name of the error type for machine-readable output, e.g.
     * {@code http_error}, {@code protocol_error}.
     *
     * @return the type name
     */
    public abstract String type();
}
