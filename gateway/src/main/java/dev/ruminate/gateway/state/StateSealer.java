package dev.ruminate.gateway.state;

import dev.ruminate.providers.serving.ClientRequestException;

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
}
