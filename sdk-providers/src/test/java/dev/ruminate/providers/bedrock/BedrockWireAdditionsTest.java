package dev.ruminate.providers.bedrock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.testing.SendBack;
import dev.ruminate.testkit.BedrockScript;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bedrock's share of the 2026 wire additions (docs/wire-additions-2026.md): Claude's effort ladder
 * with {@code xhigh} gated by model, the other models' {@code reasoning_config} capped at high, and
 * the stop reasons that map to the new or widened finish reasons.
 */
class BedrockWireAdditionsTest {

    private static String reasoning(String model, ReasoningEffort effort) {
        ChatRequest request = ChatRequest.builder(model).user("x").reasoning(ReasoningOptions.effort(effort)).build();
        return SendBack.tree(SendBack.encode(BedrockCodec.of("bedrock"), "bedrock", request, false))
                .get("additionalModelRequestFields").toString();
    }

    @ParameterizedTest
    @CsvSource({"us.anthropic.claude-sonnet-4-6, XHIGH, high", "global.anthropic.claude-opus-4-7, XHIGH, xhigh",
            "anthropic.claude-sonnet-5, XHIGH, xhigh", "us.anthropic.claude-sonnet-4-6, MAX, max",
            "anthropic.claude-opus-4-6-v1, HIGH, high"})
    void adaptiveClaudeEffortWithXhighGatedByModel(String model, ReasoningEffort effort, String wire) {
        assertThat(reasoning(model, effort))
                .isEqualTo("{\"thinking\":{\"type\":\"adaptive\"},\"output_config\":{\"effort\":\"" + wire + "\"}}");
    }

    @ParameterizedTest
    @CsvSource({"us.anthropic.claude-sonnet-4-20250514-v1:0, XHIGH, '{\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":24576}}'",
            "amazon.nova-pro-v1:0, XHIGH, '{\"reasoning_config\":\"high\"}'",
            "amazon.nova-pro-v1:0, MAX, '{\"reasoning_config\":\"high\"}'"})
    void olderClaudeGetsABudgetAndOtherModelsTopOutAtHigh(String model, ReasoningEffort effort, String fields) {
        assertThat(reasoning(model, effort)).isEqualTo(fields);
    }

    @ParameterizedTest
    @CsvSource({"model_context_window_exceeded, LENGTH", "malformed_model_output, ERROR", "malformed_tool_use, ERROR",
            "guardrail_intervened, CONTENT_FILTER"})
    void stopReasonsAreMappedAndKeptRaw(String raw, FinishReason expected) {
        byte[] body = BedrockScript.create().text("x").stopReason(raw).toConverseJson().getBytes(StandardCharsets.UTF_8);

        AssistantMessage m = BedrockFixturesTest.reduce(BedrockCodec.decodeResponse("bedrock", BedrockFixturesTest.MODEL, body)
                .collectList().block()).message();

        assertThat(m.finishReason()).isEqualTo(expected);
        assertThat(m.rawFinishReason()).isEqualTo(raw);
    }
}
