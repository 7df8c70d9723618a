package dev.ruminate.providers.responses;

/** Well-formed JSON of a shape the protocol does not allow; the decoders turn it into a ProtocolException. */
final class WireShapeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    WireShapeException(String detail) {
        super(detail, null, false, false);
    }
}
