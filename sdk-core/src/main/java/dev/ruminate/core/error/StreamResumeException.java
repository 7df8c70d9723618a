package dev.ruminate.core.error;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A streamed response was cut after some of its events and could not be resumed: the provider
 * refused the resumption (the stored response is unknown or expired), the resumed stream skipped
 * events (a gap in the sequence numbers), or the resume attempts ran out. The events delivered
 * before the cut stand; the reducer attaches them as the {@linkplain #partial() partial message}.
 *
 * <p>Never retryable: events were delivered, so repeating the request would repeat output.
 *
 * <p>Safe to share between threads once thrown; its message and fields never hold a credential.
 *
 * @since 0.4
 */
public final class StreamResumeException extends RuminateException {

    private static final long serialVersionUID = 1L;

    /** Why the stream could not be resumed. */
    public enum Reason {
        /** The provider answered the resumption with an error status (such as 404 for an expired response). */
        REFUSED,
        /** The resumed stream did not continue right after the last delivered event. */
        GAP,
        /** The stream was cut more often than the configured resume attempts allow. */
        EXHAUSTED
    }

    /** Why the stream could not be resumed. */
    private final Reason reason;
    /** The provider's id of the response. */
    private final String responseId;
    /** The sequence number of the last event delivered. */
    private final long lastSequenceNumber;

    /**
     * Creates the error.
     *
     * @param reason why the stream could not be resumed
     * @param responseId the provider's id of the response
     * @param lastSequenceNumber the sequence number of the last event delivered
     * @param detail what happened, for people
     * @param cause the error of the resumption or of the cut, if any
     */
    public StreamResumeException(Reason reason, String responseId, long lastSequenceNumber, String detail,
                                 @Nullable Throwable cause) {
        super("the stream of response " + responseId + " was cut after event " + lastSequenceNumber
                + " and could not be resumed (" + Objects.requireNonNull(reason, "reason") + "): " + detail, cause);
        this.reason = reason;
        this.responseId = Objects.requireNonNull(responseId, "responseId");
        this.lastSequenceNumber = lastSequenceNumber;
    }

    /**
     * Returns why the stream could not be resumed.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }

    /**
     * Returns the provider's id of the response whose stream was cut.
     *
     * @return the response id
     */
    public String responseId() {
        return responseId;
    }

    /**
     * Returns the sequence number of the last event delivered before the failure.
     *
     * @return the sequence number
     */
    public long lastSequenceNumber() {
        return lastSequenceNumber;
    }

    @Override
    public String type() {
        return "stream_resume_failed";
    }
}
