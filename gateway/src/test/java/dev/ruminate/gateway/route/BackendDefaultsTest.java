package dev.ruminate.gateway.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.providers.ProviderKinds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which backends get reasoning as tags by default, and which in their own field. */
class BackendDefaultsTest {

    @ParameterizedTest
    @CsvSource({
        "deepseek, false, FIELD",
        "chutes, false, TAGS",
        "openai-compatible, false, TAGS",
        "groq, false, TAGS",
        "perplexity, false, TAGS",
        "vllm, false, FIELD",
        "vllm, true, TAGS",
        "openrouter, false, FIELD",
        "anthropic, false, FIELD",
        "gemini, false, FIELD",
        "bedrock, false, FIELD",
        "openai-responses, false, FIELD",
        "ollama-native, false, FIELD",
        "ollama-native, true, TAGS"})
    void decidesFromTheKindAndItsThinkTags(String kind, boolean thinkTags, ReasoningToBackend expected) {
        assertThat(BackendDefaults.reasoningToBackend(ProviderKinds.find(kind).orElseThrow(), thinkTags))
                .isEqualTo(expected);
    }

    @Test
    void aProviderOfUnknownKindGetsItsField() {
        assertThat(BackendDefaults.reasoningToBackend(null, false)).isEqualTo(ReasoningToBackend.FIELD);
    }
}
