package dev.ruminate.core.message;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Reasoning ("thinking") the model produced before or between its answer and tool calls.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param text the reasoning text; empty for a redacted or encrypted-only part
 * @param summary true when the text is a provider-written summary rather than the full reasoning
 * @param source the wire field the text came from ({@code reasoning_content}, {@code thinking},
 *     {@code tags}, …), which decides how it is sent back; null when unknown
 * @param seals opaque state to send back with it
 * @since 0.1
 */
public record ReasoningPart(String text, boolean summary, @Nullable String source, Seals seals) implements Part {

    /**
     * Creates the value, checking its components.
     *
     * @param text see {@link #text()}
     * @param summary see {@link #summary()}
     * @param source see {@link #source()}
     * @param seals see {@link #seals()}
     */
    public ReasoningPart {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(seals, "seals");
    }

    /**
     * {@inheritDoc}
     *
     * @param seals the seals
     * @return this part with the seals
     */
    @Override
    public ReasoningPart withSeals(Seals seals) {
        return seals.equals(this.seals) ? this : new ReasoningPart(text, summary, source, seals);
    }
}
