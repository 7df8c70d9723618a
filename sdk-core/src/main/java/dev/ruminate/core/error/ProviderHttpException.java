package dev.ruminate.core.error;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The provider answered with an HTTP error status.
 *
 * <p>Safe to share between threads once thrown; its message and fields never hold a credential.
 *
 * @since 0.1
 */
public class ProviderHttpException extends RuminateException {

    private static final long serialVersionUID = 1L;

    /** The HTTP status. */
    private final int status;
    private final transient ProviderError error;
    /** The provider's request id, or null. */
    private final @Nullable String requestId;
    /** The delay the provider asked for, or null. */
    private final @Nullable Duration retryAfter;
    /** The start of the response body. */
    private final String bodyExcerpt;

    /**
     * Creates the error.
     *
     * @param provider the provider name
     * @param status the HTTP status
     * @param error the parsed provider error
     * @param requestId the provider's request id header, if any
     * @param retryAfter the delay the provider asked for, if any
     * @param bodyExcerpt the start of the response body (bounded), for diagnostics
     */
    public ProviderHttpException(String provider, int status, ProviderError error, @Nullable String requestId,
                                 @Nullable Duration retryAfter, String bodyExcerpt) {
        super(provider + " answered HTTP " + status + ": " + error.describe()
                + (requestId != null ? " [request id " + requestId + "]" : ""), null);
        this.status = status;
        this.error = Objects.requireNonNull(error, "error");
        this.requestId = requestId;
        this.retryAfter = retryAfter;
        this.bodyExcerpt = bodyExcerpt;
    }

    /**
     * Creates a more specific error from one the exchange raised, keeping its status, provider
     * error, request id, delay and excerpt, with a message of its own; the original becomes the
     * cause. For subclasses that type an HTTP error after it was raised
     * ({@link OpaqueStateRejectedException}).
     *
     * @param original the error as the exchange raised it
     * @param message the new message, never containing secrets
     * @since 0.3
     */
    protected ProviderHttpException(ProviderHttpException original, String message) {
        super(message, original);
        this.status = original.status;
        this.error = original.error;
        this.requestId = original.requestId;
        this.retryAfter = original.retryAfter;
        this.bodyExcerpt = original.bodyExcerpt;
    }

    /**
     * Returns the HTTP status.
     *
     * @return the status code
     */
    public int status() {
        return status;
    }

    /**
     * Returns the error the provider reported in its body.
     *
     * @return the parsed error, {@link ProviderError#UNKNOWN} when the body was not understood
     */
    public ProviderError error() {
        return error;
    }

    /**
     * Returns the provider's request id.
     *
     * @return the id, or null
     */
    public @Nullable String requestId() {
        return requestId;
    }

    /**
     * Returns the delay the provider asked for ({@code Retry-After}).
     *
     * @return the delay, or null when none was given
     */
    public @Nullable Duration retryAfter() {
        return retryAfter;
    }

    /**
     * Returns the start of the response body, at most a few kilobytes.
     *
     * @return the excerpt, possibly empty
     */
    public String bodyExcerpt() {
        return bodyExcerpt;
    }

    @Override
    public boolean isRetryable() {
        return status == 408 || status == 409 || status == 429 || status >= 500;
    }

    @Override
    public String type() {
        return "http_error";
    }
}
