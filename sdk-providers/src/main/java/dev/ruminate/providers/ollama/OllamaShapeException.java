package dev.ruminate.providers.ollama;

/** JSON that parses but has a shape Ollama's API does not allow; the decoders map it. */
final class OllamaShapeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    OllamaShapeException(String message) {
        super(message, null, false, false);
    }
}
