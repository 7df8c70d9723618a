package dev.ruminate.core.message;

import dev.ruminate.core.event.Seal;
import org.jspecify.annotations.Nullable;

/**
 * Opaque provider state attached to a part, to be sent back byte for byte where the provider
 * requires it. See {@link Seal.Kind} for what each value is.
 *
 * <p>{@link #toString()} shows only which values are present and their lengths: signatures and
 * encrypted blobs are long and meaningless to a reader.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param signature a signature over the part
 * @param redacted redacted reasoning data
 * @param encrypted encrypted reasoning content
 * @param itemId the provider's id of the item the part came from
 * @param format the provider's name for the reasoning format
 * @param provenance where the values came from and whether their block finished; null when not
 *     recorded (state built by hand, or stored before provenance existed)
 * @since 0.1
 */
public record Seals(@Nullable String signature, @Nullable String redacted, @Nullable String encrypted,
                    @Nullable String itemId, @Nullable String format, @Nullable Provenance provenance) {

    /** No state at all. */
    public static final Seals NONE = new Seals(null, null, null, null, null, null);

    /**
     * Creates state without provenance.
     *
     * @param signature see {@link #signature()}
     * @param redacted see {@link #redacted()}
     * @param encrypted see {@link #encrypted()}
     * @param itemId see {@link #itemId()}
     * @param format see {@link #format()}
     */
    public Seals(@Nullable String signature, @Nullable String redacted, @Nullable String encrypted,
                 @Nullable String itemId, @Nullable String format) {
        this(signature, redacted, encrypted, itemId, format, null);
    }

    /**
     * Returns a copy with one value set (replacing any earlier value of that kind).
     *
     * @param kind which value
     * @param value the new value
     * @return the updated seals
     */
    public Seals with(Seal.Kind kind, String value) {
        return switch (kind) {
            case SIGNATURE -> new Seals(value, redacted, encrypted, itemId, format, provenance);
            case REDACTED -> new Seals(signature, value, encrypted, itemId, format, provenance);
            case ENCRYPTED -> new Seals(signature, redacted, value, itemId, format, provenance);
            case ITEM_ID -> new Seals(signature, redacted, encrypted, value, format, provenance);
            case FORMAT -> new Seals(signature, redacted, encrypted, itemId, value, provenance);
        };
    }

    /**
     * Returns a copy with one value removed (provenance kept while any value remains).
     *
     * @param kind which value
     * @return the updated seals
     */
    public Seals without(Seal.Kind kind) {
        Seals out = switch (kind) {
            case SIGNATURE -> new Seals(null, redacted, encrypted, itemId, format, provenance);
            case REDACTED -> new Seals(signature, null, encrypted, itemId, format, provenance);
            case ENCRYPTED -> new Seals(signature, redacted, null, itemId, format, provenance);
            case ITEM_ID -> new Seals(signature, redacted, encrypted, null, format, provenance);
            case FORMAT -> new Seals(signature, redacted, encrypted, itemId, null, provenance);
        };
        return out.isEmpty() ? NONE : out;
    }

    /**
     * Returns the value of one kind.
     *
     * @param kind which value
     * @return the value, or null when absent
     */
    public @Nullable String get(Seal.Kind kind) {
        return switch (kind) {
            case SIGNATURE -> signature;
            case REDACTED -> redacted;
            case ENCRYPTED -> encrypted;
            case ITEM_ID -> itemId;
            case FORMAT -> format;
        };
    }

    /**
     * Returns a copy with a provenance.
     *
     * @param value the provenance, or null to forget it
     * @return the updated seals
     */
    public Seals withProvenance(@Nullable Provenance value) {
        return new Seals(signature, redacted, encrypted, itemId, format, value);
    }

    /**
     * Tells whether no value is set (provenance alone is not a value).
     *
     * @return true when empty
     */
    public boolean isEmpty() {
        return signature == null && redacted == null && encrypted == null && itemId == null && format == null;
    }

    @Override
    public String toString() {
        return "Seals[signature=" + describe(signature) + ", redacted=" + describe(redacted)
                + ", encrypted=" + describe(encrypted) + ", itemId=" + itemId + ", format=" + format
                + (provenance != null ? ", provenance=" + provenance : "") + "]";
    }

    private static String describe(@Nullable String value) {
        return value == null ? "none" : "<" + value.length() + " chars>";
    }
}
