package dev.ruminate.core.loop;

import dev.ruminate.core.error.RuminateException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A tool loop failed for a reason of its own (provider errors end a loop with the provider's
 * {@link RuminateException} instead): a tool call failed under {@link ToolErrorPolicy#FAIL_LOOP}, or
 * the loop ran past its timeout.
 *
 * <p>Safe to share between threads once thrown. Its message holds the tool's error reason, which
 * comes from the handler's exception; it never holds request contents or credentials.
 *
 * @since 0.1
 */
public final class ToolLoopException extends RuminateException {

    private static final long serialVersionUID = 1L;

    /** Why the loop failed. */
    private final Reason reason;
    /** The failed call's error, for {@link Reason#TOOL_FAILED}. */
    private final transient @Nullable ToolError toolError;

    /**
     * Creates the error.
     *
     * @param reason why the loop failed
     * @param toolError the failed call's error, for {@link Reason#TOOL_FAILED}
     * @param message what went wrong
     */
    public ToolLoopException(Reason reason, @Nullable ToolError toolError, String message) {
        super(message, null);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.toolError = toolError;
    }

    /**
     * Returns why the loop failed.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }

    /**
     * Returns the failed call's error.
     *
     * @return the error for {@link Reason#TOOL_FAILED}, else null
     */
    public @Nullable ToolError toolError() {
        return toolError;
    }

    @Override
    public String type() {
        return reason == Reason.TOOL_FAILED ? "tool_failed" : "loop_timeout";
    }

    /**
     * Why a loop failed.
     *
     * @since 0.1
     */
    public enum Reason {
        /** A tool call failed and the policy is {@link ToolErrorPolicy#FAIL_LOOP}. */
        TOOL_FAILED,
        /** The loop's timeout passed. */
        LOOP_TIMEOUT
    }
}
