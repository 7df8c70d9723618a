package dev.ruminate.core.message;

/**
 * One part of an assistant message: reasoning, answer text, a tool call, or a block of a tool the provider ran itself, kept in the order the
 * provider produced them.
 *
 * <p>Implementations are immutable values, safe to share across threads.
 *
 * @since 0.1
 */
public sealed interface Part permits ReasoningPart, TextPart, ToolCallPart, ServerToolPart {

    /**
     * Returns the opaque provider state attached to this part.
     *
     * @return the seals, {@link Seals#NONE} when there are none
     */
    Seals seals();

    /**
     * Returns this part with other seals, everything else the same: how a history preparation or a
     * recovery removes opaque state from a part without knowing its type.
     *
     * @param seals the seals
     * @return a part of the same type; this part when the seals are equal to its own
     * @since 0.2
     */
    Part withSeals(Seals seals);
}
