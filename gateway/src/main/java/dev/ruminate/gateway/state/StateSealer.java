package dev.ruminate.gateway.state;

import dev.ruminate.providers.serving.ClientRequestException;
import dev.ruminate.providers.serving.OpenAiError;

/**
 * Seals a backend's opaque state into a string a client may hold but neither read nor alter, and
 * opens such strings when they come back.
 *
 * <p>Thread-safe.
 *
 * @since 0.2
 */
public interface StateSealer {

    /**
     * Tells whether a value is in this sealer's format at all (a quick look at its prefix), so that
     * a caller can tell "not ours" from "ours but tampered".
     *
     * @param encryptedContent the value a client sent
     * @return true when it looks like a sealed state
     */
    boolean looksSealed(String encryptedContent);

    /**
     * Seals state.
     *
     * @param state the state
     * @return the sealed form, printable ASCII
     */
    String seal(SealedState state);

    /**
     * Opens a sealed state, checking that it was sealed under one of this gateway's keys, unaltered
     * and not expired.
     *
     * @param encryptedContent the sealed form
     * @return the state
     * @throws ClientRequestException a 400 naming no secret when the value was altered, truncated,
     *     sealed under another key, or is older than the allowed age
     */
    SealedState open(String encryptedContent);

    /**
     * Opens a sealed state as {@link #open(String)}, naming in a failure the request parameter the
     * value came from.
     *
     * @param encryptedContent the sealed form
     * @param param where the value was in the request, for example
     *     {@code input[3].encrypted_content}
     * @return the state
     * @throws ClientRequestException as {@link #open(String)}, with {@code param} set
     */
    default SealedState open(String encryptedContent, String param) {
        try {
            return open(encryptedContent);
        } catch (ClientRequestException e) {
            OpenAiError error = e.error();
            throw new ClientRequestException(
                    new OpenAiError(error.status(), error.type(), error.code(), error.message(), param));
        }
    }
}
