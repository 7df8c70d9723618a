package dev.ruminate.core.message;

import java.util.Objects;

/**
 * Instructions for the model.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param text the instructions
 * @since 0.1
 */
public record SystemMessage(String text) implements Message {

    /**
     * Creates the value, checking its components.
     *
     * @param text see {@link #text()}
     */
    public SystemMessage {
        Objects.requireNonNull(text, "text");
    }
}
