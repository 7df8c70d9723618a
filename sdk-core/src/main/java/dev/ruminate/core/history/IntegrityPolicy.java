package dev.ruminate.core.history;

/**
 * What a request does with an opaque value that fails its integrity checks before sending: a
 * signature that is not well formed for its provider, an empty value where one is required,
 * encrypted content without the item id it belongs to, a value from a block the stream never
 * finished, sealed blocks out of their original order.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.2
 */
public enum IntegrityPolicy {
    /**
     * The default: only the bad value is dropped. Its part is still sent (its readable reasoning as
     * unsigned reasoning, which the target's encoder sends where its API allows and drops where it
     * does not), and the plan records why.
     */
    STRIP,
    /**
     * The request fails before anything is sent, with a
     * {@link dev.ruminate.core.error.OpaqueStateException} naming the turn, the part, the kind of
     * value and the problem (never the value).
     */
    FAIL
}
