package dev.ruminate.gateway.route;

/**
 * How reasoning that a client supplies, and that the gateway did not produce for the route's
 * backend, reaches that backend.
 *
 * <p>Opaque values a client supplies (signatures, encrypted content that is not the gateway's own
 * sealed state) are never forwarded, whatever this says.
 *
 * @since 0.2
 */
public enum ReasoningToBackend {
    /**
     * The backend's own reasoning field, as if the backend had produced the text (DeepSeek's
     * {@code reasoning_content}, for instance), under the backend's send-back rules; a backend that
     * takes reasoning back only when it is signed (Anthropic, Gemini, Bedrock) then receives none.
     */
    FIELD,
    /**
     * Text in the assistant message: {@code <think>\nR\n</think>\n\n} followed by the answer, for
     * backends that understand reasoning only as tags (the DeepSeek-R1 family on Chutes, Together
     * or Hugging Face, QwQ, R1 distills).
     */
    TAGS,
    /** Not sent. */
    DROP
}
