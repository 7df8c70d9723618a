package dev.ruminate.core.event;

import dev.ruminate.core.message.FinishReason;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Closes a response successfully: every open part is over, and no event follows it.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param finishReason the normalized reason
 * @param rawFinishReason the provider's own value ({@code "end_turn"}, {@code "tool_calls"}, …), if any
 * @since 0.1
 */
public record ResponseCompleted(FinishReason finishReason, @Nullable String rawFinishReason) implements ChatEvent {

    /**
     * Creates the value, checking its components.
     *
     * @param finishReason see {@link #finishReason()}
     * @param rawFinishReason see {@link #rawFinishReason()}
     */
    public ResponseCompleted {
        Objects.requireNonNull(finishReason, "finishReason");
    }
}
