package dev.ruminate.providers.internal;

/**
 * Well-formed JSON of a shape the protocol does not allow, thrown inside a provider's decoder and
 * turned by it into a {@link dev.ruminate.core.error.ProtocolException} {@code UNEXPECTED_SHAPE}
 * with the event's position. Cheap to throw: no stack trace.
 *
 * <p>Safe to share between threads once thrown; its message and fields never hold a credential.
 */
public final class ShapeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param detail what is wrong, for the message
     */
    public ShapeException(String detail) {
        super(detail, null, false, false);
    }
}
