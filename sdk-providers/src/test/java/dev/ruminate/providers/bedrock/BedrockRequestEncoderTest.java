package dev.ruminate.providers.bedrock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.testing.Recorded;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Golden tests of the Converse request encoder: a conversation whose earlier turn is the decoded
 * turn-1 recording goes out exactly as the turn-2 request that Bedrock accepted
 * ({@code fixtures/sendback/bedrock/}, from the same cassettes).
 */
class BedrockRequestEncoderTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static AssistantMessage turn1(String file, String model) {
        return ChatReducer.defaults().reduce(BedrockCodec.decodeResponse("bedrock", model,
                Recorded.bytes("bedrock/" + file))).block().message();
    }

    private static JsonNode encoded(ChatRequest request) {
        return JSON.readTree(new String(BedrockCodec.encodeRequest("bedrock", request), StandardCharsets.UTF_8));
    }

    private static JsonNode accepted(String file) {
        return JSON.readTree(Recorded.bytes("sendback/bedrock/" + file));
    }

    @Test
    void aClaudeToolLoopSendsTheSignedReasoningTextAndToolUseBackAsAccepted() {
        String model = "us.anthropic.claude-3-7-sonnet-20250219-v1:0";
        JsonNode accepted = accepted("pydantic-bedrock-claude-reasoning-tool-use.turn2.request.json");
        ChatRequest request = ChatRequest.builder(model)
                .user("What is the largest city in the user country?")
                .message(turn1("pydantic-bedrock-claude-reasoning-tool-use.turn1.json", model))
                .message(new ToolResultMessage("tooluse_W9DaUFg4Tj2cRPpndqxWSg", "get_user_country", "Mexico", false))
                .tool(new ToolDefinition("get_user_country", "",
                        "{\"additionalProperties\":false,\"properties\":{},\"type\":\"object\"}"))
                .reasoning(ReasoningOptions.budget(1024))
                .build();

        JsonNode sent = encoded(request);

        assertThat(sent.get("messages")).isEqualTo(accepted.get("messages"));
        assertThat(sent.get("toolConfig")).isEqualTo(accepted.get("toolConfig"));
        assertThat(sent.get("additionalModelRequestFields")).isEqualTo(accepted.get("additionalModelRequestFields"));
    }

    @Test
    void redactedReasoningGoesBackUnmodifiedInPlace() {
        String model = "us.anthropic.claude-3-7-sonnet-20250219-v1:0";
        JsonNode accepted = accepted("pydantic-bedrock-claude-redacted-reasoning-multiturn.turn2.request.json");
        String trigger = accepted.get("messages").get(0).get("content").get(0).get("text").asString();
        ChatRequest request = ChatRequest.builder(model)
                .user(trigger)
                .message(turn1("pydantic-bedrock-claude-redacted-reasoning-multiturn.turn1.json", model))
                .user("What was that?")
                .reasoning(ReasoningOptions.budget(1024))
                .build();

        JsonNode sent = encoded(request);

        assertThat(sent.get("messages")).isEqualTo(accepted.get("messages"));
        assertThat(sent.get("additionalModelRequestFields")).isEqualTo(accepted.get("additionalModelRequestFields"));
    }

    @Test
    void aSignedReasoningTurnGoesBackBeforeItsTextAsAccepted() {
        String model = "us.anthropic.claude-sonnet-4-20250514-v1:0";
        JsonNode accepted = accepted("pydantic-bedrock-claude-reasoning-multiturn.turn2.request.json");
        JsonNode messages = accepted.get("messages");
        ChatRequest request = ChatRequest.builder(model)
                .user(messages.get(0).get("content").get(0).get("text").asString())
                .message(turn1("pydantic-bedrock-claude-reasoning-multiturn.turn1.json", model))
                .user(messages.get(2).get("content").get(0).get("text").asString())
                .reasoning(ReasoningOptions.budget(1024))
                .build();

        assertThat(encoded(request).get("messages")).isEqualTo(messages);
    }

    @Test
    void unsignedBedrockReasoningGoesBackAsThinkTaggedTextAsAccepted() {
        String model = "qwen.qwen3-32b-v1:0";
        JsonNode accepted = accepted("pydantic-bedrock-qwen-reasoning.turn2.request.json");
        JsonNode messages = accepted.get("messages");
        ChatRequest request = ChatRequest.builder(model)
                .user(messages.get(0).get("content").get(0).get("text").asString())
                .message(turn1("pydantic-bedrock-qwen-reasoning.turn1.json", model))
                .user(messages.get(2).get("content").get(0).get("text").asString())
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH))
                .build();

        JsonNode sent = encoded(request);

        assertThat(sent.get("messages")).isEqualTo(messages);
        assertThat(sent.get("additionalModelRequestFields")).isEqualTo(accepted.get("additionalModelRequestFields"));
    }

    @Test
    void reasoningFromAnotherProviderIsNotSentButItsAnswerIs() {
        AssistantMessage foreign = new AssistantMessage(List.of(
                new ReasoningPart("DeepSeek thought this.", false, "reasoning_content", Seals.NONE),
                new TextPart("Paris.", Seals.NONE)), "deepseek", "deepseek-reasoner", FinishReason.STOP, "stop",
                Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("us.anthropic.claude-sonnet-4-20250514-v1:0")
                .user("Capital of France?").message(foreign).user("And Italy?").build();

        JsonNode assistant = encoded(request).get("messages").get(1);

        assertThat(assistant.toString()).isEqualTo("{\"role\":\"assistant\",\"content\":[{\"text\":\"Paris.\"}]}");
    }

    @Test
    void anotherProvidersSignatureNeverReachesBedrockAndItsReasoningCanGoAsTaggedText() {
        AssistantMessage anthropic = new AssistantMessage(List.of(
                new ReasoningPart("Signed elsewhere.", false, "thinking",
                        Seals.NONE.with(dev.ruminate.core.event.Seal.Kind.SIGNATURE, "anthropic-direct-signature")),
                new TextPart("Paris.", Seals.NONE)), "anthropic", "claude-sonnet-4", FinishReason.STOP, "end_turn",
                Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("us.anthropic.claude-sonnet-4-20250514-v1:0")
                .user("Capital of France?").message(anthropic).user("And Italy?").build();

        String dropped = new String(BedrockCodec.encodeRequest("bedrock", request), StandardCharsets.UTF_8);
        JsonNode tagged = JSON.readTree(BedrockCodec.encodeRequest("bedrock", request,
                dev.ruminate.core.history.HistoryPolicy.DEFAULT.withForeignReasoning(
                        dev.ruminate.core.history.ForeignReasoning.AS_TAGGED_TEXT)));

        assertThat(dropped).doesNotContain("anthropic-direct-signature").doesNotContain("Signed elsewhere.");
        assertThat(tagged.get("messages").get(1).toString()).isEqualTo("{\"role\":\"assistant\",\"content\":["
                + "{\"text\":\"<think>\\nSigned elsewhere.\\n</think>\\n\\n\"},{\"text\":\"Paris.\"}]}");
    }

    @Test
    void toolLoopRetentionDropsReasoningOfFinishedTurns() {
        String model = "us.anthropic.claude-sonnet-4-20250514-v1:0";
        AssistantMessage earlier = turn1("pydantic-bedrock-claude-reasoning-multiturn.turn1.json", model);
        ChatRequest request = ChatRequest.builder(model).user("q1").message(earlier).user("q2").build();

        JsonNode sent = JSON.readTree(BedrockCodec.encodeRequest("bedrock", request,
                dev.ruminate.core.history.HistoryPolicy.DEFAULT.withRetention(dev.ruminate.core.history.Retention.TOOL_LOOP)));

        JsonNode content = sent.get("messages").get(1).get("content");
        assertThat(content).hasSize(1);
        assertThat(content.get(0).has("text")).isTrue();
    }

    @Test
    void toolResultsAndAFollowingUserTextShareOneUserMessage() {
        AssistantMessage calls = new AssistantMessage(List.of(
                new ToolCallPart("t1", "a", "{\"x\":1}", true, Seals.NONE),
                new ToolCallPart("t2", "b", "", true, Seals.NONE)), "bedrock", "m", FinishReason.TOOL_CALLS, "tool_use",
                Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("m").user("go").message(calls)
                .message(new ToolResultMessage("t1", "a", "one", false))
                .message(new ToolResultMessage("t2", "b", "boom", true))
                .message(new UserMessage("now answer"))
                .system("Be brief.")
                .sampling(new SamplingOptions(0.2, null, 500, List.of("END"), null))
                .build();

        JsonNode sent = encoded(request);

        assertThat(sent.get("messages")).hasSize(3);
        assertThat(sent.get("messages").get(1).toString()).isEqualTo("{\"role\":\"assistant\",\"content\":["
                + "{\"toolUse\":{\"toolUseId\":\"t1\",\"name\":\"a\",\"input\":{\"x\":1}}},"
                + "{\"toolUse\":{\"toolUseId\":\"t2\",\"name\":\"b\",\"input\":{}}}]}");
        assertThat(sent.get("messages").get(2).toString()).isEqualTo("{\"role\":\"user\",\"content\":["
                + "{\"toolResult\":{\"toolUseId\":\"t1\",\"content\":[{\"text\":\"one\"}],\"status\":\"success\"}},"
                + "{\"toolResult\":{\"toolUseId\":\"t2\",\"content\":[{\"text\":\"boom\"}],\"status\":\"error\"}},"
                + "{\"text\":\"now answer\"}]}");
        assertThat(sent.get("system").toString()).isEqualTo("[{\"text\":\"Be brief.\"}]");
        assertThat(sent.get("inferenceConfig").toString())
                .isEqualTo("{\"maxTokens\":500,\"temperature\":0.2,\"stopSequences\":[\"END\"]}");
        assertThat(sent.has("additionalModelRequestFields")).isFalse();
    }

    @Test
    void effortBecomesABudgetForClaudeAndDisabledTurnsThinkingOff() {
        String claude = "us.anthropic.claude-sonnet-4-20250514-v1:0";
        assertThat(encoded(ChatRequest.builder(claude).user("x").reasoning(ReasoningOptions.effort(ReasoningEffort.MEDIUM))
                .build()).get("additionalModelRequestFields").toString())
                .isEqualTo("{\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":4096}}");
        assertThat(encoded(ChatRequest.builder(claude).user("x").reasoning(ReasoningOptions.effort(ReasoningEffort.NONE))
                .build()).get("additionalModelRequestFields").toString())
                .isEqualTo("{\"thinking\":{\"type\":\"disabled\"}}");
    }

    @Test
    void extrasReplaceTheFieldsTheyName() {
        ChatRequest request = ChatRequest.builder("m").user("x")
                .extra("additionalModelRequestFields", java.util.Map.of("top_k", 5))
                .extra("guardrailConfig", java.util.Map.of("guardrailIdentifier", "g1"))
                .reasoning(ReasoningOptions.budget(2048))
                .build();

        JsonNode sent = encoded(request);

        assertThat(sent.get("additionalModelRequestFields").toString()).isEqualTo("{\"top_k\":5}");
        assertThat(sent.get("guardrailConfig").get("guardrailIdentifier").asString()).isEqualTo("g1");
    }

    @Test
    void invalidToolArgumentsAreRefusedBeforeSending() {
        AssistantMessage broken = new AssistantMessage(List.of(new ToolCallPart("t", "f", "{\"x\":", false, Seals.NONE)),
                "bedrock", "m", FinishReason.LENGTH, "max_tokens", Usage.UNKNOWN);
        assertThatThrownBy(() -> BedrockCodec.encodeRequest("bedrock", ChatRequest.builder("m").user("x").message(broken).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tool call f");
    }
}
