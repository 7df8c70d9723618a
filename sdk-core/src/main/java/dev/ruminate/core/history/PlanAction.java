package dev.ruminate.core.history;

/**
 * What a send-back plan does with one reasoning part or opaque value of an earlier turn.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.2
 */
public enum PlanAction {
    /** Sent back in its native form, byte for byte (a signed thinking block, a reasoning item, a signature on its part). */
    KEEP,
    /** The opaque value is removed; the part it rode on is still sent. */
    STRIP,
    /** The reasoning part is not sent at all. */
    DROP,
    /** The reasoning is sent as plain text in the answer ({@code <think>} tagged text for another provider's reasoning). */
    TO_TEXT,
    /** The reasoning is sent inside the answer between the profile's think tags. */
    TO_TAGS,
    /** The reasoning is sent in a message field ({@code reasoning_content}, {@code reasoning}, {@code thinking}). */
    TO_FIELD,
    /** A placeholder the provider documents stands in for a value that does not exist (Gemini's skip sentinel). */
    PLACEHOLDER
}
