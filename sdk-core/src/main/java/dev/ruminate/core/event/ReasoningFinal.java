package dev.ruminate.core.event;

import java.util.Objects;

/**
 * The provider's own complete text of a reasoning part, as it reports it after streaming the
 * deltas (an OpenAI Responses {@code *.done} event, a completed output item, a non-streaming body).
 *
 * <p>The reducer checks the accumulated deltas of the part against this text and records the
 * verdict; see {@link dev.ruminate.core.reduce.ReasoningCheck}. Providers that only stream deltas
 * never emit it.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param part the reasoning part this text completes
 * @param text the complete text
 * @since 0.1
 */
public record ReasoningFinal(int part, String text) implements ChatEvent {

    /**
     * Creates the value, checking its components.
     *
     * @param part see {@link #part()}
     * @param text see {@link #text()}
     */
    public ReasoningFinal {
        Parts.requireIndex(part);
        Objects.requireNonNull(text, "text");
    }
}
