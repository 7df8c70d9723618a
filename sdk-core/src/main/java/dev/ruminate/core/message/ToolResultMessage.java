package dev.ruminate.core.message;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The result of a tool call, sent back to the model.
 *
 * @param toolCallId the id of the {@link ToolCallPart} this answers
 * @param name the tool's name, for providers that want it
 * @param content the result, usually JSON text
 * @param error true when the tool failed and {@code content} describes the failure
 * @since 0.1
 */
public record ToolResultMessage(String toolCallId, @Nullable String name, String content, boolean error)
        implements Message {

    /** Validates the fields. */
    public ToolResultMessage {
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(content, "content");
    }
}
