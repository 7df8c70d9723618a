package dev.ruminate.core.message;

/**
 * Why the model stopped, normalized across providers; the provider's own value travels beside it.
 * Values may be added as providers add reasons, so a {@code switch} over this type should have a
 * {@code default} branch.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public enum FinishReason {
    /** The model finished its answer (or hit a stop sequence). */
    STOP,
    /** The output token limit, or the model's context window, was reached. */
    LENGTH,
    /** The model stopped to have tools called. */
    TOOL_CALLS,
    /** A safety or content filter stopped the output. */
    CONTENT_FILTER,
    /** The provider reports that generation failed. */
    ERROR,
    /** Any other reason, including none reported. */
    OTHER,
    /**
     * The provider paused a long-running turn (Anthropic's {@code pause_turn}: a server-tool loop
     * hit its iteration limit); the turn is continued by sending the conversation back with this
     * message as its last, unchanged and with no new user message.
     *
     * @since 0.1
     */
    PAUSED;

    /**
     * Returns the lower-case name used in the JSON output ({@code tool_calls}, …).
     *
     * @return the wire name
     */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
