package dev.ruminate.core.message;

/**
 * Why the model stopped, normalized across providers; the provider's own value travels beside it.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public enum FinishReason {
    /** The model finished its answer (or hit a stop sequence). */
    STOP,
    /** The output token limit was reached. */
    LENGTH,
    /** The model stopped to have tools called. */
    TOOL_CALLS,
    /** A safety or content filter stopped the output. */
    CONTENT_FILTER,
    /** The provider reports that generation failed. */
    ERROR,
    /** Any other reason, including none reported. */
    OTHER;

    /**
     * Returns the lower-case name used in the JSON output ({@code tool_calls}, …).
     *
     * @return the wire name
     */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
