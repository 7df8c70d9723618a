package dev.ruminate.transport.http;

import dev.ruminate.core.error.ProviderError;

/**
 * Turns the body of a provider's error response (or an in-stream error event) into a
 * {@link ProviderError}.
 *
 * <p>Implementations must never throw for malformed input: a body they do not understand becomes
 * {@link ProviderError#UNKNOWN} or an error whose message is a short excerpt of the body. They are
 * called with at most 64 KiB of the body and must be thread-safe.
 *
 * @since 0.1
 */
@FunctionalInterface
public interface ErrorBodyParser {

    /**
     * Parses an error body.
     *
     * @param body the body bytes (UTF-8 expected, not guaranteed), possibly empty or truncated
     * @return the parsed error, never null
     */
    ProviderError parse(byte[] body);

    /**
     * Returns the parser for the shape most OpenAI-style APIs share,
     * {@code {"error": {"message", "type", "code", "param"}}}. It also accepts
     * {@code {"error": "text"}}, top-level {@code message}/{@code type}/{@code code}/{@code param}
     * fields (vLLM), {@code {"detail": "text"}}, an array holding such an object, and bodies that
     * are not JSON at all (an HTML error page from a proxy): those yield an error whose message is
     * the page title or a short excerpt.
     *
     * @return the shared, stateless parser
     */
    static ErrorBodyParser standard() {
        return StandardErrorBodyParser.INSTANCE;
    }
}
