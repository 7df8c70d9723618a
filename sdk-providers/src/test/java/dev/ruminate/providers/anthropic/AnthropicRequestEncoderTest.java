package dev.ruminate.providers.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.testing.Recorded;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Conversation in, exact request JSON out; later turns checked against requests the API accepted
 * (recorded with HTTP 200), which a decoded earlier answer must reproduce.
 */
class AnthropicRequestEncoderTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static String encode(ChatRequest request, boolean stream) {
        return new String(AnthropicCodec.encodeRequest(request, stream), StandardCharsets.UTF_8);
    }

    /** The accepted request, without {@code "stream": false} (this encoder leaves {@code stream} out when false). */
    private static JsonNode accepted(String stem) {
        ObjectNode body = (ObjectNode) MAPPER.readTree(Recorded.bytes("sendback/anthropic/" + stem + ".turn2.request.json"));
        assertThat(body.get("stream").booleanValue()).isFalse();
        body.remove("stream");
        return body;
    }

    private static AssistantMessage decoded(String recording) {
        return AnthropicRecordings.reduce(AnthropicRecordings.decode(recording)).message();
    }

    private static SamplingOptions maxTokens(int n) {
        return new SamplingOptions(null, null, n, List.of(), null);
    }

    @Test
    void toolLoopTurnSendsThinkingTextAndToolUseBackAsTheApiAcceptedThem() {
        AssistantMessage turn1 = decoded("anthropic/pydantic-thinking-tool-use.turn1.json");
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-0")
                .user("What is the largest city in the user country?")
                .message(turn1)
                .message(Message.toolResult("toolu_01YGzqpRE16Vricda3Aqcejo", "Mexico"))
                .tool(new ToolDefinition("get_user_country", "",
                        "{\"additionalProperties\":false,\"properties\":{},\"type\":\"object\"}"))
                .reasoning(ReasoningOptions.budget(3000))
                .sampling(maxTokens(4096))
                .extra("tool_choice", Map.of("type", "auto"))
                .build();

        JsonNode written = MAPPER.readTree(encode(request, false));

        assertThat(written).isEqualTo(accepted("pydantic-thinking-tool-use"));
    }

    @Test
    void redactedThinkingGoesBackWithItsDataOnTheNextUserTurn() {
        AssistantMessage turn1 = decoded("anthropic/pydantic-redacted-thinking-multiturn.turn1.json");
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-5-20250929")
                .user("ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253D5E2D82641AC0E52CC2876CB")
                .message(turn1)
                .user("What was that?")
                .reasoning(ReasoningOptions.budget(1024))
                .sampling(maxTokens(4096))
                .build();

        JsonNode written = MAPPER.readTree(encode(request, false));

        assertThat(written).isEqualTo(accepted("pydantic-redacted-thinking-multiturn"));
    }

    @Test
    void serverToolBlocksGoBackVerbatimInOrderBetweenThinkingAndText() {
        JsonNode expected = accepted("pydantic-thinking-web-search-multiturn");
        List<Part> parts = new ArrayList<>();
        for (JsonNode block : expected.get("messages").get(1).get("content")) {
            switch (block.get("type").stringValue()) {
                case "thinking" -> parts.add(new ReasoningPart(block.get("thinking").stringValue(), false, "thinking",
                        Seals.NONE.with(Seal.Kind.SIGNATURE, block.get("signature").stringValue())));
                case "text" -> parts.add(TextPart.of(block.get("text").stringValue()));
                default -> parts.add(new ServerToolPart(block.get("type").stringValue(),
                        block.has("id") ? block.get("id").stringValue() : null, null, block.toString(), Seals.NONE));
            }
        }
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-0")
                .user("What is the weather in San Francisco today?")
                .message(new AssistantMessage(parts, "anthropic", "claude-sonnet-4-0", FinishReason.STOP, "end_turn", Usage.UNKNOWN))
                .user("how about Mexico City?")
                .reasoning(ReasoningOptions.budget(3000))
                .sampling(maxTokens(4096))
                .extra("tool_choice", Map.of("type", "auto"))
                .extra("tools", MAPPER.convertValue(expected.get("tools"), List.class))
                .build();

        String written = encode(request, false);

        assertThat(MAPPER.readTree(written)).isEqualTo(expected);
        assertThat(parts.get(1)).isInstanceOfSatisfying(ServerToolPart.class, s -> assertThat(written).contains(s.json()));
    }

    @Test
    void writesTheWholeRequestInItsFieldOrder() {
        AssistantMessage earlier = new AssistantMessage(List.of(
                new ReasoningPart("Think \"first\".", false, "thinking", Seals.NONE.with(Seal.Kind.SIGNATURE, "c2ln/+=")),
                new ReasoningPart("", false, null, Seals.NONE.with(Seal.Kind.REDACTED, "UkVE")),
                TextPart.of("Let me look."),
                new ToolCallPart("toolu_1", "weather", "{\"city\": \"Paris\"}", true, Seals.NONE),
                new ServerToolPart("server_tool_use", "srvtoolu_1", "web_search",
                        "{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{\"query\": \"é\\u00e9\"}}", Seals.NONE),
                new ToolCallPart("toolu_2", "time", "", true, Seals.NONE)),
                "anthropic", "claude", FinishReason.TOOL_CALLS, "tool_use", Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("claude-opus-4-6")
                .system("Be brief.")
                .system("Use tools.")
                .user("Weather and time in Paris?")
                .message(earlier)
                .message(Message.toolResult("toolu_1", "{\"temp\":21}"))
                .message(new ToolResultMessage("toolu_2", "time", "no clock", true))
                .user("Thanks, and tomorrow?")
                .tool(new ToolDefinition("weather", "Current weather", "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}"))
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH))
                .sampling(new SamplingOptions(1.0, 0.95, 2000, List.of("END"), 42L))
                .extra("metadata", Map.of("user_id", "u-1"))
                .build();

        assertThat(encode(request, true)).isEqualTo("{\"model\":\"claude-opus-4-6\",\"max_tokens\":2000,"
                + "\"system\":[{\"type\":\"text\",\"text\":\"Be brief.\"},{\"type\":\"text\",\"text\":\"Use tools.\"}],"
                + "\"messages\":["
                + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Weather and time in Paris?\"}]},"
                + "{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"Think \\\"first\\\".\",\"signature\":\"c2ln/+=\"},"
                + "{\"type\":\"redacted_thinking\",\"data\":\"UkVE\"},"
                + "{\"type\":\"text\",\"text\":\"Let me look.\"},"
                + "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"weather\",\"input\":{\"city\":\"Paris\"}},"
                + "{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{\"query\": \"é\\u00e9\"}},"
                + "{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"time\",\"input\":{}}]},"
                + "{\"role\":\"user\",\"content\":["
                + "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\",\"content\":\"{\\\"temp\\\":21}\",\"is_error\":false},"
                + "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_2\",\"content\":\"no clock\",\"is_error\":true},"
                + "{\"type\":\"text\",\"text\":\"Thanks, and tomorrow?\"}]}],"
                + "\"tools\":[{\"name\":\"weather\",\"description\":\"Current weather\",\"input_schema\":"
                + "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}}],"
                + "\"stream\":true,"
                + "\"thinking\":{\"type\":\"adaptive\"},\"output_config\":{\"effort\":\"high\"},"
                + "\"temperature\":1.0,\"top_p\":0.95,\"stop_sequences\":[\"END\"],"
                + "\"metadata\":{\"user_id\":\"u-1\"}}");
    }

    @Test
    void reasoningOptionsBecomeTheThinkingField() {
        assertThat(thinking(ReasoningOptions.budget(2048))).isEqualTo(",\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2048}}");
        assertThat(thinking(ReasoningOptions.effort(ReasoningEffort.LOW)))
                .isEqualTo(",\"thinking\":{\"type\":\"adaptive\"},\"output_config\":{\"effort\":\"low\"}}");
        assertThat(thinking(ReasoningOptions.effort(ReasoningEffort.MINIMAL))).endsWith("{\"effort\":\"low\"}}");
        assertThat(thinking(ReasoningOptions.effort(ReasoningEffort.MEDIUM))).endsWith("{\"effort\":\"medium\"}}");
        assertThat(thinking(ReasoningOptions.effort(ReasoningEffort.MAX))).endsWith("{\"effort\":\"max\"}}");
        assertThat(thinking(ReasoningOptions.effort(ReasoningEffort.NONE))).isEqualTo(",\"thinking\":{\"type\":\"disabled\"}}");
        assertThat(thinking(new ReasoningOptions(false, null, 4000, null))).isEqualTo(",\"thinking\":{\"type\":\"disabled\"}}");
        assertThat(thinking(new ReasoningOptions(true, null, null, null))).isEqualTo(",\"thinking\":{\"type\":\"adaptive\"}}");
        assertThat(thinking(new ReasoningOptions(true, ReasoningEffort.HIGH, 5000, false)))
                .isEqualTo(",\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":5000,\"display\":\"omitted\"}}");
        assertThat(thinking(new ReasoningOptions(null, ReasoningEffort.HIGH, null, true)))
                .isEqualTo(",\"thinking\":{\"type\":\"adaptive\",\"display\":\"summarized\"},\"output_config\":{\"effort\":\"high\"}}");
        assertThat(thinking(new ReasoningOptions(null, null, null, true))).isEqualTo("}");
        assertThat(thinking(ReasoningOptions.DEFAULT)).isEqualTo("}");
    }

    private static String thinking(ReasoningOptions options) {
        String head = "{\"model\":\"m\",\"max_tokens\":8192,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"q\"}]}]";
        String body = encode(ChatRequest.builder("m").user("q").reasoning(options).build(), false);
        assertThat(body).startsWith(head);
        return body.substring(head.length());
    }

    @Test
    void anotherProvidersOpaqueStateAndUnsealedReasoningAreDropped() {
        AssistantMessage foreign = new AssistantMessage(List.of(
                new ReasoningPart("gemini thought", true, "thought", Seals.NONE.with(Seal.Kind.SIGNATURE, "gemini-sig")),
                new ServerToolPart("executableCode", null, null, "{\"code\":\"1+1\"}", Seals.NONE),
                TextPart.of("two"),
                new ToolCallPart("call_1", "f", "{}", true, Seals.NONE)),
                "gemini", "gemini-3", FinishReason.TOOL_CALLS, null, Usage.UNKNOWN);
        AssistantMessage unsealed = new AssistantMessage(List.of(
                new ReasoningPart("plain", false, "thinking", Seals.NONE), TextPart.of(" \n")),
                "anthropic", "claude", FinishReason.STOP, null, Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("m").user("a").message(foreign)
                .message(Message.toolResult("call_1", "ok")).message(unsealed).user("b").build();

        assertThat(encode(request, false)).isEqualTo("{\"model\":\"m\",\"max_tokens\":8192,\"messages\":["
                + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\"}]},"
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"two\"},"
                + "{\"type\":\"tool_use\",\"id\":\"call_1\",\"name\":\"f\",\"input\":{}}]},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"call_1\",\"content\":\"ok\",\"is_error\":false},"
                + "{\"type\":\"text\",\"text\":\"b\"}]}]}");
    }

    @Test
    void extrasReplaceTheFieldsTheyName() {
        ChatRequest request = ChatRequest.builder("m").user("q")
                .reasoning(ReasoningOptions.budget(2000))
                .extra("max_tokens", 64000)
                .extra("thinking", Map.of("type", "enabled", "budget_tokens", 32000))
                .build();

        assertThat(encode(request, true)).isEqualTo("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":"
                + "[{\"type\":\"text\",\"text\":\"q\"}]}],\"stream\":true,\"max_tokens\":64000,"
                + "\"thinking\":" + MAPPER.writeValueAsString(request.extras().get("thinking")) + "}");
    }

    @Test
    void theDefaultMaxTokensCanBeChosen() {
        ChatRequest request = ChatRequest.builder("m").system("s").user("q").build();

        assertThat(new String(AnthropicCodec.encodeRequest(request, false, 1024), StandardCharsets.UTF_8))
                .isEqualTo("{\"model\":\"m\",\"max_tokens\":1024,\"system\":\"s\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":[{\"type\":\"text\",\"text\":\"q\"}]}]}");
        assertThatThrownBy(() -> AnthropicCodec.encodeRequest(request, false, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void requestsThatCannotBeWrittenAreRejected() {
        assertThatThrownBy(() -> encode(withCall(new ToolCallPart(null, "f", "{}", true, Seals.NONE)), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no id");
        assertThatThrownBy(() -> encode(withCall(new ToolCallPart("t", "f", "{\"a\":", false, Seals.NONE)), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> encode(withCall(new ToolCallPart("t", "f", "[1]", true, Seals.NONE)), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> encode(ChatRequest.builder("m").user("q")
                .tool(new ToolDefinition("f", "", "{\"type\":")).build(), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schema");
    }

    private static ChatRequest withCall(ToolCallPart call) {
        return ChatRequest.builder("m").user("q")
                .message(new AssistantMessage(List.of(call), "anthropic", "m", FinishReason.TOOL_CALLS, null, Usage.UNKNOWN))
                .build();
    }
}
