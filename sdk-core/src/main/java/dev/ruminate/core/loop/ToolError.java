package dev.ruminate.core.loop;

import java.util.Objects;

/**
 * Why a tool call produced no result.
 *
 * <p>Immutable and thread-safe; all components are non-null.
 *
 * @param kind the kind of failure
 * @param reason the explanation sent to the model as the tool result; it holds the handler's
 *     exception message, so handlers must not put secrets in their exceptions
 * @since 0.1
 */
public record ToolError(Kind kind, String reason) {

    /**
     * Creates the value, checking its components.
     *
     * @param kind see {@link #kind()}
     * @param reason see {@link #reason()}
     */
    public ToolError {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
    }

    /**
     * The kinds of tool failure.
     *
     * @since 0.1
     */
    public enum Kind {
        /** The handler signalled an error, threw, or completed without a result. */
        HANDLER_FAILED,
        /** The handler did not answer within the tool timeout. */
        TIMED_OUT,
        /** The model called a tool that is not registered. */
        UNKNOWN_TOOL,
        /**
         * The call's arguments are not one complete JSON value, or do not satisfy the tool's JSON
         * schema (the reason lists the violations).
         */
        INVALID_ARGUMENTS,
        /**
         * The handler's result was over {@link LoopOptions#maxResultChars()} and
         * {@link OversizeResultPolicy#FAIL} is set.
         */
        RESULT_TOO_LARGE,
        /**
         * The call required approval and was denied (or no decision was obtained); the reason goes
         * back to the model whatever the {@link ToolErrorPolicy}, since a denial is a decision, not
         * a failure.
         */
        DENIED
    }
}
