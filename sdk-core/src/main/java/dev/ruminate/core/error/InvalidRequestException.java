package dev.ruminate.core.error;

import org.jspecify.annotations.Nullable;

/**
 * The request cannot be sent to this provider as it stands: a tool schema that is not JSON, an
 * extra field whose value cannot be written as JSON, a message the provider's format cannot
 * express. Nothing was sent.
 *
 * <p>Safe to share between threads once thrown; its message and fields never hold a credential.
 *
 * @since 0.1
 */
public class InvalidRequestException extends RuminateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the error.
     *
     * @param provider the provider the request was for
     * @param detail what is wrong with the request
     * @param cause the encoder's error, if any
     */
    public InvalidRequestException(String provider, String detail, @Nullable Throwable cause) {
        super("cannot encode the request for " + provider + ": " + detail, cause);
    }

    @Override
    public String type() {
        return "invalid_request";
    }
}
