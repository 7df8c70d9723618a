package dev.ruminate.core.request;

/**
 * How hard a reasoning model should think, on the scale most APIs share. A provider maps each
 * value to its own (DeepSeek maps {@code LOW}/{@code MEDIUM} to {@code high}, for instance), to the
 * nearest level it has where it has no equivalent.
 *
 * <p>The ladder follows the APIs' own ({@code none|minimal|low|medium|high|xhigh|max}, OpenAI's and
 * Anthropic's as of 2026); values may be added as the APIs add levels, so a {@code switch} over this
 * type should have a {@code default} branch.
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
    /**
     * More than high: OpenAI's and Anthropic's {@code xhigh} (Anthropic: only some models, others
     * get {@code high}); APIs without it get their nearest lower level.
     *
     * @since 0.1
     */
    XHIGH,
    /** The most reasoning the model supports ({@code max}; {@code xhigh} or {@code high} where that is the top). */
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
