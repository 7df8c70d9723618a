package dev.ruminate.core.message;

import java.util.Objects;

/**
 * What the user says.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param text the text
 * @since 0.1
 */
public record UserMessage(String text) implements Message {

    /**
     * Creates the value, checking its components.
     *
     * @param text see {@link #text()}
     */
    public UserMessage {
        Objects.requireNonNull(text, "text");
    }
}
