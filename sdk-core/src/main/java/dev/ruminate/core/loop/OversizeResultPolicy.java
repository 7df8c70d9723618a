package dev.ruminate.core.loop;

/**
 * What the loop does with a tool result longer than {@link LoopOptions#maxResultChars()}.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public enum OversizeResultPolicy {
    /**
     * The result is cut to the limit and a note saying how long it was is appended, so the model
     * knows it sees only the start. The default.
     */
    TRUNCATE,
    /**
     * The call fails with {@link ToolError.Kind#RESULT_TOO_LARGE} and a reason giving the result's
     * length and the limit: the reason goes back to the model (which may ask for less) or fails the
     * loop, per the {@link ToolErrorPolicy}. For results that are useless when cut, such as JSON.
     */
    FAIL
}
