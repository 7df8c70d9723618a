package dev.ruminate.core.request;

/**
 * How hard a reasoning model should think, on the scale most APIs share. A provider maps each
 * value to its own (DeepSeek maps {@code LOW}/{@code MEDIUM} to {@code high}, for instance) and
 * reports a warning where it has no equivalent.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public enum ReasoningEffort {
    /** No reasoning, where the model allows turning it off. */
    NONE,
    /** The least reasoning the model supports. */
    MINIMAL,
    /** Little reasoning. */
    LOW,
    /** The usual default. */
    MEDIUM,
    /** Much reasoning. */
    HIGH,
    /** The most reasoning the model supports ({@code xhigh}, {@code max}). */
    MAX;

    /**
     * Returns the lower-case name ({@code low}, {@code high}, …).
     *
     * @return the wire name
     */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
