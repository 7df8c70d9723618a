package dev.ruminate.core.loop;

/**
 * What a failed tool call does to the loop.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public enum ToolErrorPolicy {
    /**
     * The failure goes back to the model as the call's result (a tool result flagged as an error,
     * with the reason), so the model can correct itself. The default.
     */
    RETURN_TO_MODEL,
    /**
     * The loop fails with a {@link ToolLoopException} after reporting the failed call; other calls
     * of the step still running are cancelled.
     */
    FAIL_LOOP
}
