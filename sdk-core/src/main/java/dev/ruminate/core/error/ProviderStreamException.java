package dev.ruminate.core.error;

import java.util.Objects;

/**
 * The provider reported an error inside a stream that had started (an SSE {@code error} event, an
 * {@code {"error": …}} chunk): HTTP said 200, the provider then gave up.
 *
 * <p>Safe to share between threads once thrown; its message and fields never hold a credential.
 *
 * @since 0.1
 */
public final class ProviderStreamException extends RuminateException {

    private static final long serialVersionUID = 1L;

    /** The provider name. */
    private final String provider;
    /** What the provider reported. */
    private final transient ProviderError error;

    /**
     * Creates the error.
     *
     * @param provider the provider name
     * @param error what the provider reported
     */
    public ProviderStreamException(String provider, ProviderError error) {
        super(provider + " reported an error in the stream: " + error.describe(), null);
        this.provider = Objects.requireNonNull(provider, "provider");
        this.error = Objects.requireNonNull(error, "error");
    }

    /**
     * Returns the provider that reported the error.
     *
     * @return the provider name
     */
    public String provider() {
        return provider;
    }

    /**
     * Returns what the provider reported.
     *
     * @return the error
     */
    public ProviderError error() {
        return error;
    }

    @Override
    public boolean isRetryable() {
        String type = error.type();
        return type != null && (type.contains("overloaded") || type.contains("rate_limit") || type.contains("server_error"));
    }

    @Override
    public String type() {
        return "provider_stream_error";
    }
}
