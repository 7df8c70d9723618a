package dev.ruminate.providers.ollama;

import static dev.ruminate.providers.testing.Folded.Kind.REASONING;
import static dev.ruminate.providers.testing.Folded.Kind.TEXT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.ReasoningVerdict;
import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Recorded;
import org.junit.jupiter.api.Test;

/**
 * Every Ollama native recording decoded by the codec; the expected values were read off the
 * recordings (both are {@code /api/generate} streams: no chat or tool-call recording exists).
 */
class OllamaFixturesTest {

    private static void assertText(String actual, int codePoints, String start, String end) {
        assertThat(Folded.codePoints(actual)).as("length in code points").isEqualTo(codePoints);
        assertThat(actual).startsWith(start).endsWith(end);
    }

    @Test
    void theRecordingsAreAllCovered() {
        assertThat(Ollama.recordings()).containsExactly(Ollama.GPT_OSS, Ollama.QWEN3_TAGS);
    }

    @Test
    void gptOssGenerateStreamThinksThenAnswers() {
        Folded f = Recorded.run(Ollama.recording(Ollama.GPT_OSS)).folded();

        assertThat(f.started).isNotNull();
        assertThat(f.started.provider()).isEqualTo("ollama-native");
        assertThat(f.started.model()).isEqualTo("gpt-oss:120b");
        assertThat(f.started.responseId()).isNull();
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertThat(reasoning.text()).isEqualTo("User asks: \"Describe a rabbit in 3 words\". This is straightforward. "
                + "No policy issues. Provide 3 words like \"fluffy, quick, timid\" or similar.");
        assertThat(reasoning.text()).hasSize(141);
        assertThat(reasoning.deltas).isEqualTo(36);
        assertThat(reasoning.sources).containsExactly("thinking");
        assertThat(reasoning.summary).isFalse();
        assertThat(reasoning.finalText).isNull();
        Folded.PartView text = f.only(TEXT);
        assertThat(text.text()).isEqualTo("Fluffy, swift, gentle.");
        assertThat(text.deltas).isEqualTo(7);
        assertThat(f.usage).isEqualTo(new Usage(81L, 53L, null, null));
        assertThat(f.completed.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(f.completed.rawFinishReason()).isEqualTo("stop");
    }

    @Test
    void gptOssReducesWithNoFinalReasoningToCheck() {
        ChatResult result = Ollama.reduce(Ollama.recording(Ollama.GPT_OSS)).ok();

        assertThat(result.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.UNAVAILABLE);
        assertThat(result.message().provider()).isEqualTo("ollama-native");
        assertThat(result.message().text()).isEqualTo("Fluffy, swift, gentle.");
        assertThat(result.message().reasoning()).startsWith("User asks:").endsWith("or similar.");
    }

    @Test
    void qwen3ThinkTagsInTheResponseAreSplitWhenAsked() {
        Folded f = Recorded.run(Ollama.recording(Ollama.QWEN3_TAGS)).folded();

        assertThat(f.started.model()).isEqualTo("qwen3:1.7b");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        // the text between the tags, exactly: the newline after <think> and before </think> are kept
        assertText(reasoning.text(), 658, "\nOkay, the user wants me to describe a rabbit in two short sentences.",
                "Check for grammar and flow. Avoid any complex words. Alright, that should work.\n");
        assertThat(reasoning.sources).containsExactly("tags");
        assertText(f.text(), 233, "\n\nA rabbit is a small, agile mammal with long ears and a fluffy coat",
                "Its large eyes and alert nature help it thrive in diverse environments.");
        assertThat(f.text()).doesNotContain("<think>", "</think>");
        assertThat(f.usage).isEqualTo(new Usage(16L, 186L, null, null));
        assertThat(f.completed.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(f.completed.rawFinishReason()).isEqualTo("stop");
    }

    @Test
    void qwen3ThinkTagsStayInTheAnswerWithoutTagSplitting() {
        Folded f = Recorded.run(Ollama.decode(Recorded.bytes(Ollama.QWEN3_TAGS), null)).folded();

        assertThat(f.kinds()).isEqualTo("text");
        Folded.PartView text = f.only(TEXT);
        // 185 response lines before the done line, the first two "<think>" and "\n"
        assertThat(text.deltas).isEqualTo(185);
        assertText(text.text(), 906, "<think>\nOkay, the user wants", "thrive in diverse environments.");
        assertThat(text.text()).contains("that should work.\n</think>\n\nA rabbit is");
    }
}
