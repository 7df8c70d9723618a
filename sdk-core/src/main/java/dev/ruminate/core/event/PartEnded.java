package dev.ruminate.core.event;

/**
 * Says that a part is complete: no further deltas will name it.
 *
 * <p>UIs use it to know when reasoning is over. Decoders emit it when the provider closes a block
 * or when the stream moves on to another kind of output; parts still open when the response
 * completes are closed by {@link ResponseCompleted}.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param part the part that ended
 * @since 0.1
 */
public record PartEnded(int part) implements ChatEvent {

    /**
     * Creates the value, checking its components.
     *
     * @param part see {@link #part()}
     */
    public PartEnded {
        Parts.requireIndex(part);
    }
}
