package dev.ruminate.core.event;

/**
 * One event of a provider's response, decoded from the wire.
 *
 * <p>The hierarchy is sealed so that a {@code switch} over it without {@code default} is checked
 * by the compiler: a new kind of event breaks the build where it must be handled.
 *
 * <p>Events are immutable values, safe to share across threads. None holds a JSON tree or a
 * network buffer.
 *
 * @since 0.1
 */
public sealed interface ChatEvent
        permits ResponseStarted, ReasoningDelta, ContentDelta, ToolCallDelta, ServerToolBlock, Seal, PartEnded,
                ReasoningFinal, UsageUpdate, ResponseCompleted {
}
