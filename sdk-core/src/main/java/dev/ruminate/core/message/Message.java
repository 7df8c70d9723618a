package dev.ruminate.core.message;

import java.util.List;

/**
 * One message of a conversation, in no provider's shape.
 *
 * <p>Implementations are immutable values, safe to share across threads.
 *
 * @since 0.1
 */
public sealed interface Message permits SystemMessage, UserMessage, AssistantMessage, ToolResultMessage {

    /**
     * Creates a system message.
     *
     * @param text the instructions
     * @return the message
     */
    static SystemMessage system(String text) {
        return new SystemMessage(text);
    }

    /**
     * Creates a user message.
     *
     * @param text what the user says
     * @return the message
     */
    static UserMessage user(String text) {
        return new UserMessage(text);
    }

    /**
     * Creates a user message with images or documents, which go before the text.
     *
     * @param text what the user says, possibly empty
     * @param media the images and documents
     * @return the message
     * @since 0.3
     */
    static UserMessage user(String text, Media... media) {
        return new UserMessage(text, List.of(media));
    }

    /**
     * Creates the result of a tool call.
     *
     * @param toolCallId the id of the call this answers
     * @param content the result, usually JSON
     * @return the message
     */
    static ToolResultMessage toolResult(String toolCallId, String content) {
        return new ToolResultMessage(toolCallId, null, content, false);
    }
}
