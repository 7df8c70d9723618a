package dev.ruminate.core.error;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The request holds input this provider (or this profile of it) does not take: an image or document
 * kind, a media type, a source (a URL where only bytes are accepted, or the reverse), media over the
 * provider's size limit, or a structured-output form the API lacks. Nothing was sent: the check runs
 * before any request is made.
 *
 * <p>Safe to share between threads once thrown; its message names the input by position, kind and
 * media type, never its bytes or URL.
 *
 * @since 0.3
 */
public class UnsupportedInputException extends InvalidRequestException {

    private static final long serialVersionUID = 1L;

    /** Why the input is refused. */
    public enum Reason {
        /** The provider takes no input of this kind here (a document, media in a tool result, a schema form). */
        KIND,
        /** The provider takes the kind, but not this media type. */
        MEDIA_TYPE,
        /** The provider takes the kind, but not from this source (a URL, or bytes). */
        SOURCE,
        /** The input is over the provider's documented size or count limit. */
        TOO_LARGE
    }

    /** Why the input is refused. */
    private final Reason reason;

    /**
     * Creates the error.
     *
     * @param provider the provider the request was for
     * @param reason why the input is refused
     * @param detail what was refused and where, such as "message 2: image/heic images are not accepted"
     * @param cause the encoder's error, if any
     */
    public UnsupportedInputException(String provider, Reason reason, String detail, @Nullable Throwable cause) {
        super(provider, detail, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /**
     * Returns why the input is refused.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }

    @Override
    public String type() {
        return "unsupported_input";
    }
}
