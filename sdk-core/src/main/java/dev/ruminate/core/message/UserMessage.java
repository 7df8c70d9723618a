package dev.ruminate.core.message;

import java.util.List;
import java.util.Objects;

/**
 * What the user says: text, and the images and documents that go with it.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param text the text; may be empty when the message is media alone
 * @param media images and documents, in the order given; sent before the text, where models read
 *     them best (an unmodifiable copy is kept; since 0.3)
 * @since 0.1
 */
public record UserMessage(String text, List<Media> media) implements Message {

    /**
     * Creates the value, checking its components.
     *
     * @param text see {@link #text()}
     * @param media see {@link #media()}
     */
    public UserMessage {
        Objects.requireNonNull(text, "text");
        media = List.copyOf(media);
    }

    /**
     * Creates a text message (the constructor of 0.1 and 0.2).
     *
     * @param text see {@link #text()}
     */
    public UserMessage(String text) {
        this(text, List.of());
    }
}
