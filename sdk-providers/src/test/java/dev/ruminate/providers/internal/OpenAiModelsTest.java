package dev.ruminate.providers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.providers.internal.OpenAiModels.Line;
import org.junit.jupiter.api.Test;

/** The one set of OpenAI model-line rules both OpenAI families use. */
class OpenAiModelsTest {

    @Test
    void modelIdsFallInTheirLinesWhateverTheVendorPrefix() {
        assertThat(OpenAiModels.line("o3")).isEqualTo(Line.O_SERIES);
        assertThat(OpenAiModels.line("o4-mini-2025-04-16")).isEqualTo(Line.O_SERIES);
        assertThat(OpenAiModels.line("codex-mini-latest")).isEqualTo(Line.O_SERIES);
        assertThat(OpenAiModels.line("openai/o1")).isEqualTo(Line.O_SERIES);
        assertThat(OpenAiModels.line("gpt-5-mini")).isEqualTo(Line.GPT5);
        assertThat(OpenAiModels.line("gpt-5-pro")).isEqualTo(Line.GPT5_PRO);
        assertThat(OpenAiModels.line("gpt-5.1-codex-max")).isEqualTo(Line.GPT5_LATER);
        assertThat(OpenAiModels.line("openai.gpt-oss-120b-1:0")).isEqualTo(Line.GPT_OSS);
        assertThat(OpenAiModels.line("gpt-5-chat-latest")).isEqualTo(Line.OTHER);
        assertThat(OpenAiModels.line("gpt-4.1")).isEqualTo(Line.OTHER);
        assertThat(OpenAiModels.line("omni-moderation-latest")).isEqualTo(Line.OTHER);
    }

    @Test
    void samplingIsRefusedByReasoningModelsButGpt51AndLaterWithEffortNone() {
        assertThat(OpenAiModels.refusesSampling(Line.O_SERIES, "none")).isTrue();
        assertThat(OpenAiModels.refusesSampling(Line.GPT5, "minimal")).isTrue();
        assertThat(OpenAiModels.refusesSampling(Line.GPT5_PRO, null)).isTrue();
        assertThat(OpenAiModels.refusesSampling(Line.GPT5_LATER, "low")).isTrue();
        assertThat(OpenAiModels.refusesSampling(Line.GPT5_LATER, null)).isTrue();
        assertThat(OpenAiModels.refusesSampling(Line.GPT5_LATER, "none")).isFalse();
        assertThat(OpenAiModels.refusesSampling(Line.GPT_OSS, "high")).isFalse();
        assertThat(OpenAiModels.refusesSampling(Line.OTHER, null)).isFalse();
    }
}
