package dev.ruminate.core.message;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where a response was made: the provider, the API, and the endpoint identity that opaque state
 * from it is bound to.
 *
 * <p>Signed and encrypted reasoning is only valid where it was made: an OpenAI Responses blob is
 * bound to the organisation or key that produced it, a Gemini thought signature to its route, model
 * and key. {@code History} compares the origin of each opaque value with the request's target
 * before sending it back.
 *
 * <p>The account is a fingerprint, never the credential: the first 16 hex digits of a SHA-256 over
 * a fixed label and the credential's identity (an API key, a deployment, a project and location).
 * It cannot be reversed, and it changes when the key does.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param provider the provider or profile name ({@code anthropic}, {@code deepseek}, …)
 * @param api the API the response came over ({@code anthropic-messages}, {@code chat-completions},
 *     {@code responses}, {@code gemini}, {@code ollama-chat}, {@code bedrock-converse}, …)
 * @param endpoint the endpoint: the base URL's host, port and path, without scheme, query or
 *     credentials ({@code api.openai.com/v1})
 * @param account the account fingerprint, or null when the endpoint takes no credential
 * @since 0.2
 */
public record Origin(String provider, String api, String endpoint, @Nullable String account) {

    /**
     * Creates the value, checking its components.
     *
     * @param provider see {@link #provider()}
     * @param api see {@link #api()}
     * @param endpoint see {@link #endpoint()}
     * @param account see {@link #account()}
     */
    public Origin {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(api, "api");
        Objects.requireNonNull(endpoint, "endpoint");
    }
}
