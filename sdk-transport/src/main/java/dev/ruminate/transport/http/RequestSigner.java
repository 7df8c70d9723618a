package dev.ruminate.transport.http;

import java.net.URI;
import java.util.List;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * Computes headers a request needs from the request itself, just before it is sent: a signature
 * over the URI, headers and body (AWS Signature Version 4), or credentials that must be fetched or
 * refreshed per request.
 *
 * <p>{@link HttpExchange} calls it once per request, on subscription, and sends the headers it
 * returns after its own. Header values may hold secrets: the exchange writes them to the request
 * and nowhere else. A value that holds a secret must be made with {@link #secretHeader}, so that the
 * exchange can also remove the secret from an error that quotes it (a provider echoing a token in
 * its 401 body) and so that printing the header shows no secret; the exchange cannot tell a secret
 * inside a plain entry.
 *
 * <p><b>Threading.</b> Implementations must be thread-safe; concurrent requests call them
 * concurrently. <b>Errors.</b> A failed {@code Mono} fails the call: a
 * {@link dev.ruminate.core.error.RuminateException} as it is, anything else as a
 * {@link dev.ruminate.core.error.TransportException}.
 *
 * @since 0.1
 */
@FunctionalInterface
public interface RequestSigner {

    /**
     * Returns the headers to add to one request.
     *
     * @param method the HTTP method
     * @param uri the request URI, as sent
     * @param headers the headers the request will carry, {@code Host} first, in order; every one is
     *     sent exactly as given
     * @param body the request body; do not modify it
     * @return the headers to add, in order
     */
    Mono<List<Map.Entry<String, String>>> sign(String method, URI uri, List<Map.Entry<String, String>> headers,
                                               byte[] body);

    /**
     * Makes a header whose value holds a secret, such as {@code ("Authorization", "Bearer ", token)}:
     * sent as the prefix followed by the secret, removed from any error the exchange reports, and
     * shown by {@code toString} as its name and prefix only. Compared by identity, like an
     * {@link ApiKey}.
     *
     * @param name the header name
     * @param valuePrefix what precedes the secret in the value, possibly empty
     * @param secret the secret
     * @return the header, an immutable entry
     * @throws IllegalArgumentException if the name or prefix contains a line break
     */
    static Map.Entry<String, String> secretHeader(String name, String valuePrefix, ApiKey secret) {
        return new SecretHeader(name, valuePrefix, secret);
    }
}
