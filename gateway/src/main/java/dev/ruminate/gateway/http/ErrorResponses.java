package dev.ruminate.gateway.http;

import dev.ruminate.providers.serving.ClientRequestException;
import dev.ruminate.providers.serving.OpenAiError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * Turns failures into OpenAI-shaped error responses: a {@link ClientRequestException} into its
 * own error, anything else into a 500 {@code server_error} that says nothing of the cause. Such a
 * cause is a gateway bug, not a client's mistake or an upstream failure (those are answered
 * before this), so it is logged whole, stack trace included, for the operator; the request body is
 * never logged.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.2
 */
public final class ErrorResponses {

    private static final Logger LOG = LoggerFactory.getLogger(ErrorResponses.class);

    private ErrorResponses() {
    }

    /**
     * Answers with an error.
     *
     * @param error the error
     * @return the response
     */
    public static Mono<ServerResponse> of(OpenAiError error) {
        return ServerResponse.status(error.status()).contentType(MediaType.APPLICATION_JSON).bodyValue(error.toJson());
    }

    /**
     * Answers with the error a failure stands for.
     *
     * @param failure the failure
     * @return the response
     */
    public static Mono<ServerResponse> of(Throwable failure) {
        if (failure instanceof ClientRequestException e) {
            return of(e.error());
        }
        LOG.warn("request failed: {}", failure.getClass().getName(), failure);
        return of(new OpenAiError(500, "server_error", "server_error", "The gateway failed to answer.", null));
    }
}
