package dev.ruminate.core.error;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The provider refused the request for exceeding a rate limit (HTTP 429).
 *
 * <p>Safe to share between threads once thrown; its message and fields never hold a credential.
 *
 * @since 0.1
 */
public final class RateLimitException extends ProviderHttpException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the error.
     *
     * @param provider the provider name
     * @param error the parsed provider error
     * @param requestId the provider's request id, if any
     * @param retryAfter the delay the provider asked for, if any
     * @param bodyExcerpt the start of the body
     */
    public RateLimitException(String provider, ProviderError error, @Nullable String requestId,
                              @Nullable Duration retryAfter, String bodyExcerpt) {
        super(provider, 429, error, requestId, retryAfter, bodyExcerpt);
    }

    @Override
    public String type() {
        return "rate_limited";
    }
}
