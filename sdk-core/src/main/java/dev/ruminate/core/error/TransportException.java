package dev.ruminate.core.error;

/**
 * The HTTP exchange failed below the protocol: the connection was refused, reset before a response,
 * or TLS failed.
 *
 * <p>Safe to share between threads once thrown; its message and fields never hold a credential.
 *
 * @since 0.1
 */
public final class TransportException extends RuminateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the error.
     *
     * @param detail what failed (never a URL with credentials in it)
     * @param cause the transport's error
     */
    public TransportException(String detail, Throwable cause) {
        super(detail, cause);
    }

    @Override
    public boolean isRetryable() {
        return true;
    }

    @Override
    public String type() {
        return "transport_error";
    }
}
