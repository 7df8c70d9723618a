package dev.ruminate.core.message;

import java.util.Objects;

/**
 * Answer text.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param text the text
 * @param seals opaque state to send back with it (a Gemini thought signature may sit on text)
 * @since 0.1
 */
public record TextPart(String text, Seals seals) implements Part {

    /**
     * Creates the value, checking its components.
     *
     * @param text see {@link #text()}
     * @param seals see {@link #seals()}
     */
    public TextPart {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(seals, "seals");
    }

    /**
     * Creates a text part with no opaque state.
     *
     * @param text the text
     * @return the part
     */
    public static TextPart of(String text) {
        return new TextPart(text, Seals.NONE);
    }

    /**
     * {@inheritDoc}
     *
     * @param seals the seals
     * @return this part with the seals
     */
    @Override
    public TextPart withSeals(Seals seals) {
        return seals.equals(this.seals) ? this : new TextPart(text, seals);
    }
}
