package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.SendBack;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * DeepSeek V4's 2026 additions (PROTOCOLS.md §5 and §19, docs/send-back-rules.md C10): thinking is
 * on by default, and {@code reasoning_effort} is asked only at the levels both versions of the docs
 * accept ({@code high}, {@code max}).
 */
class DeepSeekV4WireAdditionsTest {

    private static final String CRUSH = "deepseek/crush-hyper-deepseek-v4-pro-reasoning-parallel-tools-stream";

    private static JsonNode body(ChatRequest request) {
        return SendBack.tree(new String(ChatCompletionsCodec.encodeRequest(Profiles.DEEPSEEK, request, true), StandardCharsets.UTF_8));
    }

    @Test
    void thinkingIsOnByDefaultSoDefaultOptionsAskForNothingAndReasoningStillArrives() {
        // crush asked deepseek-v4-pro for nothing about thinking, and got reasoning_content
        JsonNode accepted = SendBack.accepted(CRUSH + ".turn2.request.json");
        assertThat(accepted.has("thinking")).isFalse();
        assertThat(accepted.has("reasoning_effort")).isFalse();
        Folded recorded = Fixtures.stream(Profiles.DEEPSEEK, CRUSH + ".turn2.sse").folded();
        assertThat(recorded.kinds()).startsWith("reasoning");
        assertThat(recorded.parts.get(0).text()).isNotEmpty();

        JsonNode ours = body(ChatRequest.builder("deepseek-v4-pro").user("List the files").build());

        assertThat(ours.has("thinking")).isFalse();
        assertThat(ours.has("reasoning_effort")).isFalse();
    }

    /**
     * The effort ladder on DeepSeek: only {@code high} and {@code max} are written. The English and
     * Chinese docs disagree on how the API maps the other names (PROTOCOLS.md §5: low and medium to
     * high, xhigh to max; §19: minimal to low, medium and xhigh to high), so none of them is sent.
     */
    @ParameterizedTest
    @CsvSource({"MINIMAL, high", "LOW, high", "MEDIUM, high", "HIGH, high", "XHIGH, high", "MAX, max"})
    void effortIsHighOrMaxWithThinkingOn(ReasoningEffort effort, String wire) {
        JsonNode ours = body(ChatRequest.builder("deepseek-v4-pro").user("Hi").reasoning(ReasoningOptions.effort(effort)).build());

        assertThat(ours.get("thinking").toString()).isEqualTo("{\"type\":\"enabled\"}");
        assertThat(ours.get("reasoning_effort").stringValue()).isEqualTo(wire);
    }

    @Test
    void noneOrDisabledTurnsThinkingOffWithoutAnEffort() {
        for (ReasoningOptions off : new ReasoningOptions[] {ReasoningOptions.effort(ReasoningEffort.NONE),
                new ReasoningOptions(false, null, null, null)}) {
            JsonNode ours = body(ChatRequest.builder("deepseek-v4-flash").user("Hi").reasoning(off).build());

            assertThat(ours.get("thinking").toString()).isEqualTo("{\"type\":\"disabled\"}");
            assertThat(ours.has("reasoning_effort")).isFalse();
        }
    }
}
