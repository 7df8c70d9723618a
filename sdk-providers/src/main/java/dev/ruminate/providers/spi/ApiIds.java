package dev.ruminate.providers.spi;

/**
 * The ids of the wire APIs, as {@link WireCodec#api()} returns them and as
 * {@link dev.ruminate.core.message.Origin#api()} records them on every response and every opaque
 * value it made.
 *
 * <p>An id names the API, not the server or profile: DeepSeek, OpenRouter and OpenAI all speak
 * {@value #CHAT_COMPLETIONS} (the provider name tells them apart), Vertex AI and AI Studio both
 * speak {@value #GEMINI}. The ids are stored with conversations, so they never change once
 * released; a new API gets a new id.
 *
 * @since 0.2
 */
public final class ApiIds {

    /** OpenAI Chat Completions and the servers compatible with it ({@code /chat/completions}). */
    public static final String CHAT_COMPLETIONS = "chat-completions";
    /** OpenAI Responses and the servers compatible with it ({@code /responses}). */
    public static final String RESPONSES = "responses";
    /** Anthropic Messages ({@code /v1/messages}). */
    public static final String ANTHROPIC_MESSAGES = "anthropic-messages";
    /** Google Gemini {@code generateContent}, on AI Studio and Vertex AI. */
    public static final String GEMINI = "gemini";
    /** Ollama's native chat endpoint ({@code /api/chat}). */
    public static final String OLLAMA_CHAT = "ollama-chat";
    /** Ollama's native generate endpoint ({@code /api/generate}). */
    public static final String OLLAMA_GENERATE = "ollama-generate";
    /** Amazon Bedrock Converse ({@code /model/{id}/converse} and {@code converse-stream}). */
    public static final String BEDROCK_CONVERSE = "bedrock-converse";

    private ApiIds() {
    }
}
