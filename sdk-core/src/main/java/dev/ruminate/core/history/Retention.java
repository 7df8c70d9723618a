package dev.ruminate.core.history;

/**
 * How much earlier reasoning a request carries back.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public enum Retention {
    /** Every earlier turn keeps its reasoning (and its opaque state). */
    ALL,
    /**
     * Only the current tool loop keeps its reasoning: the assistant turns after the last user
     * message. This is what the APIs that need reasoning back (Anthropic, Bedrock, DeepSeek's
     * thinking mode, Gemini's function calling) require, and what they validate.
     */
    TOOL_LOOP,
    /**
     * No reasoning goes back. Opaque state that an API needs inside a tool loop is dropped too, so
     * a tool loop on such an API may be rejected: use it for APIs that never take reasoning back.
     */
    NONE
}
