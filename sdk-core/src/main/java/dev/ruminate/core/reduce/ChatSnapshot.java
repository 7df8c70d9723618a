package dev.ruminate.core.reduce;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import java.util.BitSet;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One step of a running reduction: the event just folded in, and the message as it stood right
 * after it, built only when asked for.
 *
 * <p><b>Threading.</b> The snapshot shares text buffers with the running reduction, which only
 * ever appends to them: {@link #message()} returns the text as of this event, computed from
 * prefixes of those buffers (opaque seals, whether their blocks have ended, tool ids and names
 * are read as they are when it is called). Call it on the thread that delivered the snapshot, before requesting the next one or
 * after the flux has terminated; do not hand an unread snapshot across an asynchronous boundary
 * ({@code publishOn}, {@code sample}, {@code buffer}): map it to {@code message()} first.
 *
 * @since 0.1
 */
public final class ChatSnapshot {

    private final ChatEvent event;
    private final Reduction reduction;
    /** The attempt's parts as of this event: a refused structured answer later starts a new list. */
    private final List<PartBuilder> parts;
    private final BitSet ended;
    private final int[] lengths;
    private final Usage usage;
    private final @Nullable FinishReason finishReason;
    private final @Nullable ChatResult result;
    private @Nullable AssistantMessage message;

    ChatSnapshot(ChatEvent event, Reduction reduction, @Nullable ChatResult result) {
        this.event = event;
        this.result = result;
        this.reduction = reduction;
        this.parts = reduction.currentParts();
        this.ended = reduction.currentEnded();
        this.lengths = reduction.textLengths();
        this.usage = reduction.usage();
        this.finishReason = reduction.finishReason();
    }

    /**
     * Returns the event this step folded in.
     *
     * @return the event
     */
    public ChatEvent event() {
        return event;
    }

    /**
     * Returns the final result, on the snapshot of the response's
     * {@link dev.ruminate.core.event.ResponseCompleted}.
     *
     * @return the result, or null on every other snapshot
     */
    public @Nullable ChatResult result() {
        return result;
    }

    /**
     * Builds (once) the message as reduced up to and including this event, with streamed text as is.
     *
     * @return the message so far
     */
    public AssistantMessage message() {
        AssistantMessage m = message;
        if (m == null) {
            m = reduction.partialAt(parts, ended, lengths, usage, finishReason);
            message = m;
        }
        return m;
    }
}
