package dev.ruminate.core.event;

import java.util.Objects;

/**
 * A fragment of the answer text.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param part the part this fragment belongs to
 * @param text the fragment, possibly empty
 * @since 0.1
 */
public record ContentDelta(int part, String text) implements ChatEvent {

    /**
     * Creates the value, checking its components.
     *
     * @param part see {@link #part()}
     * @param text see {@link #text()}
     */
    public ContentDelta {
        Parts.requireIndex(part);
        Objects.requireNonNull(text, "text");
    }
}
