package dev.ruminate.core.error;

import org.jspecify.annotations.Nullable;

/**
 * A tool call's assembled arguments are not valid JSON, and the reducer was told to fail rather
 * than flag the call.
 *
 * <p>Safe to share between threads once thrown; its message and fields never hold a credential.
 *
 * @since 0.1
 */
public final class ToolArgumentsException extends RuminateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the error.
     *
     * @param toolName the called tool
     * @param toolCallId the call id, if any
     * @param detail what is wrong with the arguments
     */
    public ToolArgumentsException(String toolName, @Nullable String toolCallId, String detail) {
        super("arguments of tool call " + toolName + (toolCallId != null ? " (" + toolCallId + ")" : "")
                + " are not valid JSON: " + detail, null);
    }

    @Override
    public String type() {
        return "invalid_tool_arguments";
    }
}
