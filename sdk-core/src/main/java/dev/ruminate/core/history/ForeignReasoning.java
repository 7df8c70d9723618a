package dev.ruminate.core.history;

/**
 * What a request does with the reasoning text of turns another provider produced, and of reasoning
 * whose opaque state was stripped at an endpoint or model boundary ({@link History#plan}). Opaque
 * state (signatures, encrypted content, redacted data, item ids) from another provider or endpoint
 * identity is always dropped, whatever this says: it is only valid where it was made.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public enum ForeignReasoning {
    /** The other provider's reasoning is not sent. */
    DROP,
    /**
     * The other provider's reasoning is sent as ordinary answer text wrapped in
     * {@code <think>…</think>}, in its place in the turn, so the next model can read it.
     */
    AS_TAGGED_TEXT
}
