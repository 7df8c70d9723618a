package dev.ruminate.core.error;

import org.jspecify.annotations.Nullable;

/**
 * The provider rejected the credentials (HTTP 401) or their permissions (HTTP 403). The message
 * never contains the key.
 *
 * <p>Safe to share between threads once thrown; its message and fields never hold a credential.
 *
 * @since 0.1
 */
public final class AuthenticationException extends ProviderHttpException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the error.
     *
     * @param provider the provider name
     * @param status 401 or 403
     * @param error the parsed provider error
     * @param requestId the provider's request id, if any
     * @param bodyExcerpt the start of the body
     */
    public AuthenticationException(String provider, int status, ProviderError error, @Nullable String requestId,
                                   String bodyExcerpt) {
        super(provider, status, error, requestId, null, bodyExcerpt);
    }

    @Override
    public String type() {
        return "authentication_failed";
    }
}
