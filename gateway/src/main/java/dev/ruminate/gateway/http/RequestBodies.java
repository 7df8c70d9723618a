package dev.ruminate.gateway.http;

import dev.ruminate.providers.serving.ClientRequestException;
import dev.ruminate.providers.serving.OpenAiError;
import java.nio.charset.StandardCharsets;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/**
 * Reads a request body as UTF-8 text, at most a given number of bytes: a larger body is a 413
 * {@code request_too_large} before it is held in memory whole. Every endpoint of the gateway reads its body here.
 */
final class RequestBodies {

    private RequestBodies() {
    }

    /**
     * Reads the body.
     *
     * @param request the request
     * @param maxBytes the largest body accepted
     * @return the body, empty text for none; a {@link ClientRequestException} (413) when larger
     */
    static Mono<String> text(ServerRequest request, int maxBytes) {
        return DataBufferUtils.join(request.body(BodyExtractors.toDataBuffers()), maxBytes)
                .map(buffer -> {
                    try {
                        return buffer.toString(StandardCharsets.UTF_8);
                    } finally {
                        DataBufferUtils.release(buffer);
                    }
                })
                .defaultIfEmpty("")
                .onErrorMap(DataBufferLimitException.class, e -> new ClientRequestException(new OpenAiError(413,
                        "invalid_request_error", "request_too_large", "The request body is larger than this gateway "
                        + "accepts (" + maxBytes + " bytes).", null)));
    }
}
