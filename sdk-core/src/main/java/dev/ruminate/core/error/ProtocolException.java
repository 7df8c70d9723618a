package dev.ruminate.core.error;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The response did not follow the provider's wire protocol: malformed JSON, an unexpected shape,
 * an unexpected content type, invalid UTF-8, an over-long line. The message says what was wrong
 * and where (line number and byte offset in the response body, when known).
 *
 * <p>Safe to share between threads once thrown; its message and fields never hold a credential.
 *
 * @since 0.1
 */
public final class ProtocolException extends RuminateException {

    private static final long serialVersionUID = 1L;

    /** What kind of violation. */
    private final Reason reason;
    /** What was wrong, without the location prefix. */
    private final String detail;
    /** The 1-based line where the offending input starts, or -1. */
    private final long line;
    /** The 0-based byte offset where the offending input starts, or -1. */
    private final long byteOffset;

    /**
     * Creates the error.
     *
     * @param reason what kind of violation
     * @param detail what was wrong, including a short excerpt of the offending input where useful
     * @param line the 1-based line of the body where the offending event or line starts, or -1
     * @param byteOffset the 0-based byte offset in the body where it starts, or -1
     * @param cause the parser's error, if any
     */
    public ProtocolException(Reason reason, String detail, long line, long byteOffset, @Nullable Throwable cause) {
        super(describe(reason, detail, line, byteOffset), cause);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.detail = detail;
        this.line = line;
        this.byteOffset = byteOffset;
    }

    private static String describe(Reason reason, String detail, long line, long byteOffset) {
        StringBuilder sb = new StringBuilder(reason.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
        if (line >= 0) {
            sb.append(" at line ").append(line);
        }
        if (byteOffset >= 0) {
            sb.append(line >= 0 ? ", byte " : " at byte ").append(byteOffset);
        }
        return sb.append(": ").append(detail).toString();
    }

    /**
     * Returns the kind of violation.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }

    /**
     * Returns what was wrong, as given at construction (the message adds the reason and location).
     *
     * @return the detail
     */
    public String detail() {
        return detail;
    }

    /**
     * Returns the 1-based line where the offending input starts.
     *
     * @return the line, or -1 when unknown
     */
    public long line() {
        return line;
    }

    /**
     * Returns the 0-based byte offset in the response body where the offending input starts.
     *
     * @return the offset, or -1 when unknown
     */
    public long byteOffset() {
        return byteOffset;
    }

    @Override
    public String type() {
        return "protocol_error";
    }

    /**
     * Kinds of protocol violation.
     *
     * @since 0.1
     */
    public enum Reason {
        /** A payload that is not well-formed JSON (including truncated JSON). */
        MALFORMED_JSON,
        /** Well-formed JSON of a shape the protocol does not allow (a string where an object belongs). */
        UNEXPECTED_SHAPE,
        /** The response's content type is not the one the protocol uses (an HTML error page). */
        UNEXPECTED_CONTENT_TYPE,
        /** Bytes that are not valid UTF-8. */
        INVALID_UTF8,
        /** A line or event longer than the configured limit. */
        LINE_TOO_LONG,
        /** JSON nested deeper than the configured limit. */
        NESTING_TOO_DEEP,
        /** A binary frame whose checksum does not match its bytes (AWS event-stream prelude or message CRC). */
        CHECKSUM_MISMATCH,
        /** A binary frame that breaks its format: impossible lengths, an unknown header type, or cut short. */
        MALFORMED_FRAME
    }
}
