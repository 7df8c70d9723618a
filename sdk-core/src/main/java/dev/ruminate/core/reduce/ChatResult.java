package dev.ruminate.core.reduce;

import dev.ruminate.core.message.AssistantMessage;
import java.util.Objects;

/**
 * The result of reducing a response: the final message and the reasoning check.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param message the final assistant message
 * @param reasoningCheck the verdict of comparing streamed reasoning with the provider's final reasoning
 * @since 0.1
 */
public record ChatResult(AssistantMessage message, ReasoningCheck reasoningCheck) {

    /**
     * Creates the value, checking its components.
     *
     * @param message see {@link #message()}
     * @param reasoningCheck see {@link #reasoningCheck()}
     */
    public ChatResult {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(reasoningCheck, "reasoningCheck");
    }
}
