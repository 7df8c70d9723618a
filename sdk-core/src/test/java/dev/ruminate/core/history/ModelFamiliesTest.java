package dev.ruminate.core.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ModelFamiliesTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            // the id a request names and the dated snapshot a provider reports are one family
            "claude-sonnet-4-5, claude-sonnet-4-5",
            "claude-sonnet-4-5-20250929, claude-sonnet-4-5",
            "Claude-Sonnet-4-5-20250929, claude-sonnet-4-5",
            "claude-3-5-sonnet@20241022, claude-3-5-sonnet",
            "claude-3-5-sonnet-latest, claude-3-5-sonnet",
            // route and vendor prefixes
            "anthropic/claude-sonnet-4.5, claude-sonnet-4-5",
            "us.anthropic.claude-sonnet-4-5-20250929-v1:0, claude-sonnet-4-5",
            "global.anthropic.claude-opus-4-7-v1, claude-opus-4-7",
            "us-gov.anthropic.claude-3-haiku-20240307-v1:0, claude-3-haiku",
            "models/gemini-2.5-pro, gemini-2-5-pro",
            "gemini-2.5-pro, gemini-2-5-pro",
            "publishers/google/models/gemini-3-pro-preview, gemini-3-pro-preview",
            // OpenAI snapshots
            "gpt-5-2025-08-07, gpt-5",
            "openai/gpt-5, gpt-5",
            // OpenRouter routing variants are the same model
            "anthropic/claude-sonnet-4.5:nitro, claude-sonnet-4-5",
            "google/gemini-2.5-flash:free, gemini-2-5-flash",
            "deepseek/deepseek-r1:floor, deepseek-r1",
            // kept: preview dates and version numbers name other models
            "gemini-2.5-flash-preview-05-20, gemini-2-5-flash-preview-05-20",
            "deepseek-r1-0528, deepseek-r1-0528",
            "qwen.qwen3-32b-v1:0, qwen3-32b",
            "gpt-oss:20b, gpt-oss:20b",
            "'  o3  ', o3"
    })
    void normalizesAliasesSnapshotsAndPrefixesAway(String model, String family) {
        assertThat(ModelFamilies.normalize(model)).isEqualTo(family);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"claude-3-5-sonnet-latest, true", "gemini-flash-latest, true", "qwen3:latest, true",
            "claude-sonnet-4-5, false", "gemini-2.5-flash, false"})
    void recognisesAliasesThatNameNoFixedModel(String model, boolean alias) {
        assertThat(ModelFamilies.isAlias(model)).isEqualTo(alias);
    }

    @ParameterizedTest(name = "{0} vs {1}")
    @CsvSource({"claude-sonnet-4-5, claude-opus-4-5", "gemini-2.5-pro, gemini-2.5-flash", "gemini-3-pro-preview, gemini-3.1-pro-preview",
            "claude-sonnet-4-5, claude-sonnet-4"})
    void differentModelsStayApart(String a, String b) {
        assertThat(ModelFamilies.normalize(a)).isNotEqualTo(ModelFamilies.normalize(b));
    }
}
