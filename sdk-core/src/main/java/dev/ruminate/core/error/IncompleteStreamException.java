package dev.ruminate.core.error;

import org.jspecify.annotations.Nullable;

/**
 * The stream ended before the provider said it was complete: the connection closed or was reset
 * without the protocol's terminal event ({@code [DONE]}, a finish reason, {@code message_stop}, …).
 *
 * <p>Safe to share between threads once thrown; its message and fields never hold a credential.
 *
 * @since 0.1
 */
public final class IncompleteStreamException extends RuminateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the error.
     *
     * @param detail what was missing
     * @param cause the transport error, if the connection failed
     */
    public IncompleteStreamException(String detail, @Nullable Throwable cause) {
        super("stream ended early: " + detail, cause);
    }

    @Override
    public String type() {
        return "incomplete_stream";
    }
}
