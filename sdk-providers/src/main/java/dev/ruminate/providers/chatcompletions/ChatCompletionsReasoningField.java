package dev.ruminate.providers.chatcompletions;

/**
 * The field in which {@link ChatCompletionsStreamEncoder} writes reasoning: Chat Completions has no
 * standard one, and clients read one of two names.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.2
 */
public enum ChatCompletionsReasoningField {
    /**
     * {@code reasoning_content}, as DeepSeek, llama.cpp, GLM, Qwen and xAI write it, and as
     * {@code @ai-sdk/openai-compatible}, LiteLLM and most chat UIs read it first. The default.
     */
    REASONING_CONTENT,
    /** {@code reasoning}, as vLLM 0.16+, Ollama, Groq and OpenRouter write it. */
    REASONING,
    /** Both, with the same text, as some servers do during vLLM's rename; clients reading both see it twice. */
    BOTH;

    boolean writesReasoningContent() {
        return this != REASONING;
    }

    boolean writesReasoning() {
        return this != REASONING_CONTENT;
    }
}
