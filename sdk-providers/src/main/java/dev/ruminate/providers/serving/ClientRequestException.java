package dev.ruminate.providers.serving;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A request a client sent to a service that speaks an OpenAI API was wrong: malformed JSON, an
 * unknown item type, a missing field, an id nobody knows. Carries the {@link OpenAiError} to
 * answer with; nothing of the request has been sent anywhere when it is thrown.
 *
 * <p>The message names the place ({@code input[3].type}), never the client's values, so it is safe
 * to log.
 *
 * @since 0.2
 */
public final class ClientRequestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Not serialised with the exception: an error is answered where it is thrown. */
    private final transient OpenAiError error;

    /**
     * Creates the exception.
     *
     * @param error the error to answer the client with
     */
    public ClientRequestException(OpenAiError error) {
        super(Objects.requireNonNull(error, "error").message(), null, false, false);
        this.error = error;
    }

    /**
     * A 400 {@code invalid_request_error}.
     *
     * @param message what is wrong, naming the place
     * @param param the parameter at fault, if known
     * @param code the code, if any
     * @return the exception
     */
    public static ClientRequestException invalid(String message, @Nullable String param,
                                                 @Nullable String code) {
        return new ClientRequestException(OpenAiError.invalidRequest(message, param, code));
    }

    /**
     * Returns the error to answer with.
     *
     * @return the error
     */
    public OpenAiError error() {
        return error;
    }
}
