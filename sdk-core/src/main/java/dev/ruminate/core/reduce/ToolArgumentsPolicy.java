package dev.ruminate.core.reduce;

/**
 * What the reducer does with a tool call whose assembled arguments are not valid JSON.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public enum ToolArgumentsPolicy {
    /** Keep the call with {@code argumentsValid == false} (the default); never execute such a call. */
    FLAG,
    /** Fail with {@link dev.ruminate.core.error.ToolArgumentsException}, carrying the partial message. */
    FAIL
}
