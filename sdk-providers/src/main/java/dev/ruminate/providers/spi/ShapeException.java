package dev.ruminate.providers.spi;

/**
 * Well-formed JSON of a shape the protocol does not allow, thrown by a family's decoder (stream or
 * whole body) and turned by the provider skeleton ({@link StreamDecoding}, {@link BodyDecoding})
 * into a {@link dev.ruminate.core.error.ProtocolException} {@code UNEXPECTED_SHAPE} with the
 * position of the frame or body. Cheap to throw: no stack trace.
 *
 * <p>Safe to share between threads once thrown; its message must never hold a credential.
 *
 * @since 0.1
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
