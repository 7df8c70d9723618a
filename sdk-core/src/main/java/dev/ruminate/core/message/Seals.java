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
 * @since 0.1
 */
public record Seals(@Nullable String signature, @Nullable String redacted, @Nullable String encrypted,
                    @Nullable String itemId, @Nullable String format) {

    /** No state at all. */
    public static final Seals NONE = new Seals(null, null, null, null, null);

    /**
     * Returns a copy with one value set (replacing any earlier value of that kind).
     *
     * @param kind which value
     * @param value the new value
     * @return the updated seals
     */
    public Seals with(Seal.Kind kind, String value) {
        return switch (kind) {
            case SIGNATURE -> new Seals(value, redacted, encrypted, itemId, format);
            case REDACTED -> new Seals(signature, value, encrypted, itemId, format);
            case ENCRYPTED -> new Seals(signature, redacted, value, itemId, format);
            case ITEM_ID -> new Seals(signature, redacted, encrypted, value, format);
            case FORMAT -> new Seals(signature, redacted, encrypted, itemId, value);
        };
    }

    /**
     * Tells whether no value is set.
     *
     * @return true when empty
     */
    public boolean isEmpty() {
        return signature == null && redacted == null && encrypted == null && itemId == null && format == null;
    }

    @Override
    public String toString() {
        return "Seals[signature=" + describe(signature) + ", redacted=" + describe(redacted)
                + ", encrypted=" + describe(encrypted) + ", itemId=" + itemId + ", format=" + format + "]";
    }

    private static String describe(@Nullable String value) {
        return value == null ? "none" : "<" + value.length() + " chars>";
    }
}
