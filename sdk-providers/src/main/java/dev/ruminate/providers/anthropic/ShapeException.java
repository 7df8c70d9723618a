package dev.ruminate.providers.anthropic;

/** Well-formed JSON of a shape the protocol does not allow; the decoders turn it into a ProtocolException. */
final class ShapeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ShapeException(String detail) {
        super(detail, null, false, false);
    }
}
