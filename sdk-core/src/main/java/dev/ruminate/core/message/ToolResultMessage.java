package dev.ruminate.core.message;

import java.util.List;
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
 * @param media images and documents the tool returned with its text, for APIs that take them in a
 *     tool result (Anthropic, Bedrock, OpenAI Responses, Gemini); others refuse them with an
 *     {@link dev.ruminate.core.error.UnsupportedInputException} (an unmodifiable copy is kept; since 0.3)
 * @since 0.1
 */
public record ToolResultMessage(String toolCallId, @Nullable String name, String content, boolean error,
                                List<Media> media) implements Message {

    /**
     * Creates the value, checking its components.
     *
     * @param toolCallId see {@link #toolCallId()}
     * @param name see {@link #name()}
     * @param content see {@link #content()}
     * @param error see {@link #error()}
     * @param media see {@link #media()}
     */
    public ToolResultMessage {
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(content, "content");
        media = List.copyOf(media);
    }

    /**
     * Creates a text result (the constructor of 0.1 and 0.2).
     *
     * @param toolCallId see {@link #toolCallId()}
     * @param name see {@link #name()}
     * @param content see {@link #content()}
     * @param error see {@link #error()}
     */
    public ToolResultMessage(String toolCallId, @Nullable String name, String content, boolean error) {
        this(toolCallId, name, content, error, List.of());
    }
}
