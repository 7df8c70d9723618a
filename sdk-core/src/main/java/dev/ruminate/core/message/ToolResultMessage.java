package dev.ruminate.core.message;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The result of a tool call, sent back to the model.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param toolCallId the id of the {@link ToolCallPart} this answers
 * @param name the tool's name, for providers that want it
 * @param content the result, usually JSON text
 * @param error true when the tool failed and {@code content} describes the failure
 * @since 0.1
 */
public record ToolResultMessage(String toolCallId, @Nullable String name, String content, boolean error)
        implements Message {

    /**
     * Creates the value, checking its components.
     *
     * @param toolCallId see {@link #toolCallId()}
     * @param name see {@link #name()}
     * @param content see {@link #content()}
     * @param error see {@link #error()}
     */
    public ToolResultMessage {
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(content, "content");
    }
}
