package dev.ruminate.core.event;

import java.util.Objects;

/**
 * Opaque provider state that must travel back with a part, byte for byte, on a later turn.
 *
 * <p>Examples: an Anthropic thinking {@code signature}, a {@code redacted_thinking} block's data,
 * an OpenAI Responses reasoning item's {@code encrypted_content} and id, a Gemini
 * {@code thoughtSignature} (which may sit on a text or function-call part), an OpenRouter
 * reasoning detail's signature and format. A seal may name a part that has no text yet (a redacted
 * block has none); the reducer then opens a reasoning part for it.
 *
 * <p>Each value is complete: a later seal of the same kind for the same part replaces the earlier
 * one (OpenAI re-encrypts {@code encrypted_content} at each event; the last one is the one to keep).
 * Opaque values are never compared and never shown as reasoning.
 *
 * <p>A seal may arrive after the {@link PartEnded} of its part: some providers send the signature
 * or encrypted state of a block after its content, once output has moved on (OpenRouter sends a
 * {@code reasoning_details} signature fragment, or a repeated encrypted blob, after the answer text
 * has begun). Consumers must therefore not treat {@code PartEnded} as final for seals: a part's
 * seals are complete only at {@link ResponseCompleted}.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param part the part the state belongs to
 * @param kind what the value is
 * @param value the value exactly as the provider sent it
 * @since 0.1
 */
public record Seal(int part, Kind kind, String value) implements ChatEvent {

    /**
     * Creates the value, checking its components.
     *
     * @param part see {@link #part()}
     * @param kind see {@link #kind()}
     * @param value see {@link #value()}
     */
    public Seal {
        Parts.requireIndex(part);
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(value, "value");
    }

    /**
     * What an opaque value is, which decides where it goes when sent back.
     *
     * @since 0.1
     */
    public enum Kind {
        /** A signature over the part's text (Anthropic, Bedrock, Gemini, OpenRouter). */
        SIGNATURE,
        /** Reasoning the provider withheld, as an opaque blob (Anthropic {@code redacted_thinking.data}). */
        REDACTED,
        /** Encrypted reasoning state (OpenAI Responses {@code encrypted_content}, OpenRouter {@code reasoning.encrypted}). */
        ENCRYPTED,
        /** The provider's id of the item or detail the part came from (a Responses {@code rs_…} id). */
        ITEM_ID,
        /** The provider's name for the reasoning format (OpenRouter {@code anthropic-claude-v1}). */
        FORMAT
    }
}
