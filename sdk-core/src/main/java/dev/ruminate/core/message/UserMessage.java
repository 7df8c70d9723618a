package dev.ruminate.core.message;

import java.util.Objects;

/**
 * What the user says.
 *
 * @param text the text
 * @since 0.1
 */
public record UserMessage(String text) implements Message {

    /** Validates the text. */
    public UserMessage {
        Objects.requireNonNull(text, "text");
    }
}
