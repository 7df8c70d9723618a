package dev.ruminate.core.reduce;

/**
 * What the reducer does when a part's streamed reasoning differs from the provider's final text.
 * The verdict is recorded on the result in every case.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public enum MismatchPolicy {
    /** Keep the provider's final text in the message (the default): it is what the provider stored. */
    PREFER_PROVIDER,
    /** Keep the text as streamed: it is what the user was shown. */
    PREFER_STREAMED,
    /** Fail with {@link dev.ruminate.core.error.ReasoningMismatchException}, carrying the partial message. */
    FAIL
}
