package dev.ruminate.providers.bedrock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SendBack;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Bedrock Converse later-turn request added to {@code shared/sendback} on 2026-11-25 (Claude
 * Sonnet 4.6 with adaptive thinking), rebuilt from the decoded first turn through the history policy
 * and the codec ({@link SendBack#encode}, the provider skeleton's path) and compared with what Bedrock
 * accepted (HTTP 200), with its opening request (exchange 1) built by the same builder and compared
 * with the accepted first request; and the model rule that choice of thinking request depends on.
 */
class BedrockLaterTurnGoldensTest {

    private static final String SONNET_46 = "us.anthropic.claude-sonnet-4-6";

    private static JsonNode encode(ChatRequest request) {
        return SendBack.tree(SendBack.encode(BedrockCodec.of("bedrock"), "bedrock", request, false));
    }

    /** pydantic-ai's conversation before the first answer: high effort. */
    private static ChatRequest.Builder adaptiveOpening(JsonNode accepted) {
        return ChatRequest.builder(SONNET_46)
                .user(accepted.get("messages").get(0).get("content").get(0).get("text").asString())
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH));
    }

    @Test
    void adaptiveOpeningRequestAsksForAdaptiveThinkingWithTheEffortAsAccepted() {
        ObjectNode accepted = (ObjectNode) SendBack.accepted("bedrock/pydantic-bedrock-claude-adaptive-effort.turn1.request.json");

        JsonNode sent = encode(adaptiveOpening(accepted).build());

        // pydantic-ai also sends "system": [] and "inferenceConfig": {}, which say nothing and which
        // this encoder leaves out
        assertThat(accepted.remove("system")).isEmpty();
        assertThat(accepted.remove("inferenceConfig")).isEmpty();
        assertThat(sent).isEqualTo(accepted);
        assertThat(sent.get("additionalModelRequestFields").toString())
                .isEqualTo("{\"thinking\":{\"type\":\"adaptive\"},\"output_config\":{\"effort\":\"high\"}}");
    }

    @Test
    void adaptiveThinkingTurnSendsTheSignedReasoningBackAndRepeatsAdaptiveEffort() {
        JsonNode accepted = SendBack.accepted("bedrock/pydantic-bedrock-claude-adaptive-effort.turn2.request.json");
        JsonNode messages = accepted.get("messages");
        AssistantMessage turn1 = ChatReducer.defaults().reduce(BedrockCodec.decodeResponse("bedrock", SONNET_46,
                Recorded.bytes("bedrock/pydantic-bedrock-claude-adaptive-effort.turn1.json"))).block().message();
        ChatRequest request = adaptiveOpening(accepted).message(turn1)
                .user(messages.get(2).get("content").get(0).get("text").asString())
                .build();

        JsonNode sent = encode(request);

        // the reasoningText {text, signature} byte for byte before the answer, and the adaptive
        // thinking request repeated; pydantic-ai also sends "system": [] and "inferenceConfig": {},
        // which say nothing and which this encoder leaves out
        assertThat(sent.get("messages")).isEqualTo(messages);
        assertThat(sent.get("additionalModelRequestFields")).isEqualTo(accepted.get("additionalModelRequestFields"));
        assertThat(accepted.get("system")).isEmpty();
        assertThat(accepted.get("inferenceConfig")).isEmpty();
        assertThat(sent.has("system")).isFalse();
    }

    @Test
    void aSignatureOnlyReasoningBlockGoesBackWithEmptyText() {
        // omitted thinking (display "omitted") gives a signature and no text; Converse wants the text
        // field there, empty (PROTOCOLS.md, Bedrock Converse)
        AssistantMessage omitted = new AssistantMessage(List.of(
                new ReasoningPart("", false, "reasoningText", Seals.NONE.with(Seal.Kind.SIGNATURE, "c2lnbmF0dXJl")),
                TextPart.of("4")), "bedrock", SONNET_46, FinishReason.STOP, "end_turn", Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder(SONNET_46).user("2+2?").message(omitted).user("and +1?").build();

        assertThat(encode(request).get("messages").get(1).get("content").get(0).toString())
                .isEqualTo("{\"reasoningContent\":{\"reasoningText\":{\"text\":\"\",\"signature\":\"c2lnbmF0dXJl\"}}}");
    }

    @Test
    void anEffortBecomesAdaptiveThinkingFromClaude46AndABudgetBefore() {
        for (String model : new String[] {SONNET_46, "anthropic.claude-opus-4-6-v1", "global.anthropic.claude-opus-4-7",
                "anthropic.claude-sonnet-5", "eu.anthropic.claude-opus-5-v1:0"}) {
            assertThat(thinking(model, ReasoningOptions.effort(ReasoningEffort.MEDIUM))).as(model)
                    .isEqualTo("{\"thinking\":{\"type\":\"adaptive\"},\"output_config\":{\"effort\":\"medium\"}}");
        }
        assertThat(thinking(SONNET_46, ReasoningOptions.effort(ReasoningEffort.MINIMAL)))
                .isEqualTo("{\"thinking\":{\"type\":\"adaptive\"},\"output_config\":{\"effort\":\"low\"}}");
        assertThat(thinking(SONNET_46, ReasoningOptions.effort(ReasoningEffort.MAX)))
                .isEqualTo("{\"thinking\":{\"type\":\"adaptive\"},\"output_config\":{\"effort\":\"max\"}}");
        // a budget the user asks for is sent as asked; turning thinking off stays "disabled"
        assertThat(thinking(SONNET_46, ReasoningOptions.budget(2048)))
                .isEqualTo("{\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2048}}");
        assertThat(thinking(SONNET_46, ReasoningOptions.effort(ReasoningEffort.NONE)))
                .isEqualTo("{\"thinking\":{\"type\":\"disabled\"}}");
        for (String model : new String[] {"us.anthropic.claude-sonnet-4-20250514-v1:0", "anthropic.claude-haiku-4-5-20251001-v1:0",
                "us.anthropic.claude-3-7-sonnet-20250219-v1:0", "anthropic.claude-opus-4-1-20250805-v1:0"}) {
            assertThat(thinking(model, ReasoningOptions.effort(ReasoningEffort.MEDIUM))).as(model)
                    .isEqualTo("{\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":4096}}");
        }
    }

    private static String thinking(String model, ReasoningOptions options) {
        return encode(ChatRequest.builder(model).user("x").reasoning(options).build())
                .get("additionalModelRequestFields").toString();
    }
}
