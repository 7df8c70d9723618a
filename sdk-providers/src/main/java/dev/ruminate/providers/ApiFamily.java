package dev.ruminate.providers;

/**
 * The wire API a {@link ProviderKind} speaks: one per package of this module. Lets code that
 * handles every kind (tests, tools) pick what depends on the API, such as the emulator script or
 * the content type of a recording, without naming kinds.
 *
 * @since 0.1
 */
public enum ApiFamily {
    /** OpenAI Chat Completions and the compatible servers ({@code dev.ruminate.providers.chatcompletions}). */
    CHAT_COMPLETIONS,
    /** OpenAI Responses and the compatible servers ({@code dev.ruminate.providers.responses}). */
    RESPONSES,
    /** Anthropic Messages ({@code dev.ruminate.providers.anthropic}). */
    ANTHROPIC,
    /** Google Gemini, AI Studio and Vertex AI ({@code dev.ruminate.providers.gemini}). */
    GEMINI,
    /** Ollama's native API ({@code dev.ruminate.providers.ollama}). */
    OLLAMA,
    /** Amazon Bedrock Converse ({@code dev.ruminate.providers.bedrock}). */
    BEDROCK
}
