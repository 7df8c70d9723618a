package dev.ruminate.providers.spi;

import dev.ruminate.core.error.UnsupportedInputException;
import java.util.Objects;

/**
 * What an encoder throws for input its API does not take (a media kind, type, source or size, a
 * structured-output form): {@link ProviderPipeline} reports it as an
 * {@link UnsupportedInputException} naming the provider, before anything is sent. An encoder does not
 * know its provider's name; this carries the reason and the detail to the pipeline that does.
 *
 * <p>The detail names the input by message index, kind and media type, never its bytes or URL.
 * Immutable once made and safe to share between threads; neither the reason nor the detail is null.
 *
 * @since 0.3
 */
public final class UnsupportedInput extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** Why the input is refused. */
    private final UnsupportedInputException.Reason reason;

    /**
     * Creates the error.
     *
     * @param reason why the input is refused
     * @param detail what was refused and where
     */
    public UnsupportedInput(UnsupportedInputException.Reason reason, String detail) {
        super(detail);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /**
     * Returns why the input is refused.
     *
     * @return the reason
     */
    public UnsupportedInputException.Reason reason() {
        return reason;
    }

    /**
     * Returns the typed error for a provider.
     *
     * @param provider the provider's name
     * @return the error, this as its cause
     */
    public UnsupportedInputException toException(String provider) {
        return new UnsupportedInputException(provider, reason, String.valueOf(getMessage()), this);
    }
}
