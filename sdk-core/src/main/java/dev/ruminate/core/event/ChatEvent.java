package dev.ruminate.core.event;

/**
 * One event of a provider's response, decoded from the wire.
 *
 * <p>The hierarchy is sealed: the kinds of event are a closed set. Java 17 has no pattern
 * {@code switch} to let the compiler check a dispatch over them, so each dispatch in the SDK ends
 * by throwing {@link IllegalStateException} naming a type it was not written for, and has a test
 * that feeds it one event of every permitted type ({@code dev.ruminate.testkit.EveryEventType}
 * builds them from the hierarchy): a new kind of event fails those tests until it is handled.
 *
 * <p>Events are immutable values, safe to share across threads. None holds a JSON tree or a
 * network buffer.
 *
 * @since 0.1
 */
public sealed interface ChatEvent
        permits ResponseStarted, ReasoningDelta, ContentDelta, ToolCallDelta, ServerToolBlock, Seal, PartEnded,
                ReasoningFinal, UsageUpdate, ResponseCompleted, Warning, OutputChecked {
}
