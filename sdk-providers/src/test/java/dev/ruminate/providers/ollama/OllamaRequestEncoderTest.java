package dev.ruminate.providers.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
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
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Golden tests: request in, exact JSON out; and the history shape against a request Ollama accepted. */
class OllamaRequestEncoderTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private static String chat(ChatRequest request, boolean stream) {
        return new String(OllamaCodec.encodeChatRequest(OllamaProvider.NAME, request, stream), StandardCharsets.UTF_8);
    }

    private static String generate(ChatRequest request, boolean stream) {
        return new String(OllamaCodec.encodeGenerateRequest(request, stream), StandardCharsets.UTF_8);
    }

    private static AssistantMessage assistant(String provider, Part... parts) {
        return new AssistantMessage(List.of(parts), provider, null, FinishReason.STOP, null, Usage.UNKNOWN);
    }

    private static ReasoningPart reasoning(String text) {
        return new ReasoningPart(text, false, "thinking", Seals.NONE);
    }

    @Test
    void streamingChatWithToolsSamplingAndAnEffortLevel() {
        ChatRequest request = ChatRequest.builder("gpt-oss:20b")
                .system("Be brief.")
                .user("Weather in Paris?")
                .tool(new ToolDefinition("weather", "Current weather",
                        "{ \"type\": \"object\",\n \"properties\": {\"city\": {\"type\": \"string\"}} }"))
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH))
                .sampling(new SamplingOptions(0.2, 0.9, 1000, List.of("END"), 7L))
                .build();

        assertThat(chat(request, true)).isEqualTo("{\"model\":\"gpt-oss:20b\",\"messages\":["
                + "{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":\"Weather in Paris?\"}],"
                + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"weather\",\"description\":\"Current weather\","
                + "\"parameters\":{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}}}],"
                + "\"stream\":true,\"think\":\"high\","
                + "\"options\":{\"temperature\":0.2,\"top_p\":0.9,\"num_predict\":1000,\"stop\":[\"END\"],\"seed\":7}}");
    }

    @Test
    void nonStreamingChatSaysSoAndWritesNoThinkForDefaultOptions() {
        assertThat(chat(ChatRequest.builder("qwen3").user("Hi").build(), false))
                .isEqualTo("{\"model\":\"qwen3\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],\"stream\":false}");
    }

    @Test
    void reasoningOptionsBecomeThinkValues() {
        assertThat(think(new ReasoningOptions(true, null, null, null))).isEqualTo("true");
        assertThat(think(new ReasoningOptions(false, null, null, null))).isEqualTo("false");
        assertThat(think(ReasoningOptions.effort(ReasoningEffort.NONE))).isEqualTo("false");
        assertThat(think(ReasoningOptions.effort(ReasoningEffort.MINIMAL))).isEqualTo("\"low\"");
        assertThat(think(ReasoningOptions.effort(ReasoningEffort.LOW))).isEqualTo("\"low\"");
        assertThat(think(ReasoningOptions.effort(ReasoningEffort.MEDIUM))).isEqualTo("\"medium\"");
        assertThat(think(ReasoningOptions.effort(ReasoningEffort.MAX))).isEqualTo("\"high\"");
        assertThat(think(ReasoningOptions.budget(2048))).isEqualTo("true");
        assertThat(think(new ReasoningOptions(false, ReasoningEffort.HIGH, null, null))).isEqualTo("false");
        assertThat(think(new ReasoningOptions(null, null, null, true))).isNull();
    }

    private static String think(ReasoningOptions options) {
        JsonNode body = MAPPER.readTree(chat(ChatRequest.builder("m").user("x").reasoning(options).build(), true));
        return body.has("think") ? body.get("think").toString() : null;
    }

    @Test
    void toolLoopSendsThinkingContentCallsAsObjectsAndNamedToolResults() {
        ChatRequest request = ChatRequest.builder("gpt-oss:20b")
                .user("Weather in Paris?")
                .message(assistant("ollama-native", reasoning("Need the weather."), TextPart.of("Checking."),
                        new ToolCallPart("call_1", "weather", "{\"city\": \"Paris\"}", true, Seals.NONE),
                        new ToolCallPart(null, "time", "", true, Seals.NONE)))
                .message(Message.toolResult("call_1", "18°C"))
                .message(new ToolResultMessage("call_x", "time", "noon", false))
                .build();

        assertThat(chat(request, false)).isEqualTo("{\"model\":\"gpt-oss:20b\",\"messages\":["
                + "{\"role\":\"user\",\"content\":\"Weather in Paris?\"},"
                + "{\"role\":\"assistant\",\"content\":\"Checking.\",\"thinking\":\"Need the weather.\",\"tool_calls\":["
                + "{\"id\":\"call_1\",\"function\":{\"name\":\"weather\",\"arguments\":{\"city\":\"Paris\"}}},"
                + "{\"function\":{\"name\":\"time\",\"arguments\":{}}}]},"
                + "{\"role\":\"tool\",\"content\":\"18°C\",\"tool_name\":\"weather\",\"tool_call_id\":\"call_1\"},"
                + "{\"role\":\"tool\",\"content\":\"noon\",\"tool_name\":\"time\",\"tool_call_id\":\"call_x\"}],"
                + "\"stream\":false}");
    }

    @Test
    void reasoningOfAnotherProviderIsDroppedAndOllamaOpenAiReasoningIsKept() {
        ChatRequest request = ChatRequest.builder("m")
                .user("a")
                .message(assistant("anthropic", reasoning("secret"), TextPart.of("A")))
                .user("b")
                .message(assistant("ollama", reasoning("via /v1"), TextPart.of("B")))
                .user("c")
                .build();

        JsonNode messages = MAPPER.readTree(chat(request, false)).get("messages");

        assertThat(messages.get(1).has("thinking")).isFalse();
        assertThat(messages.get(1).get("content").stringValue()).isEqualTo("A");
        assertThat(messages.get(3).get("thinking").stringValue()).isEqualTo("via /v1");
    }

    @Test
    void argumentsThatAreNotAnObjectAreRejected() {
        ChatRequest request = ChatRequest.builder("m").user("a")
                .message(assistant("ollama-native", new ToolCallPart("c", "f", "[1]", true, Seals.NONE)))
                .build();

        assertThatThrownBy(() -> chat(request, false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a JSON object");
    }

    @Test
    void extrasReplaceFieldsWhole() {
        ChatRequest request = ChatRequest.builder("m").user("x")
                .sampling(new SamplingOptions(0.5, null, null, List.of(), null))
                .reasoning(ReasoningOptions.effort(ReasoningEffort.LOW))
                .extra("options", java.util.Map.of("num_ctx", 8192))
                .extra("think", true)
                .extra("keep_alive", "5m")
                .build();

        assertThat(chat(request, true)).isEqualTo("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],"
                + "\"stream\":true,\"options\":{\"num_ctx\":8192},\"think\":true,\"keep_alive\":\"5m\"}");
    }

    @Test
    void generateTakesTheUserMessageAsPromptAndSystemMessagesAsSystem() {
        ChatRequest request = ChatRequest.builder("qwen3:1.7b").system("Be brief.").system("Be kind.")
                .user("Describe a rabbit in 2 short sentences").reasoning(new ReasoningOptions(false, null, null, null))
                .build();

        assertThat(generate(request, true)).isEqualTo("{\"model\":\"qwen3:1.7b\","
                + "\"prompt\":\"Describe a rabbit in 2 short sentences\",\"system\":\"Be brief.\\n\\nBe kind.\","
                + "\"stream\":true,\"think\":false}");
    }

    @Test
    void generateRejectsConversationsAndTools() {
        assertThatThrownBy(() -> generate(ChatRequest.builder("m").user("a").user("b").build(), true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/api/chat");
        assertThatThrownBy(() -> generate(ChatRequest.builder("m").system("s").build(), true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("user message");
        assertThatThrownBy(() -> generate(ChatRequest.builder("m").user("a")
                .tool(new ToolDefinition("f", "", "{}")).build(), true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no tools");
    }

    /**
     * The accepted Ollama request (the OpenAI-compatible endpoint, which forwards {@code reasoning}
     * as the native {@code thinking}) rebuilt from its conversation: the native messages carry the
     * same text, identical, in {@code thinking}.
     */
    @Test
    void acceptedOllamaHistoryGoesOutWithTheReasoningIdenticalAsThinking() {
        JsonNode recorded = MAPPER.readTree(Recorded.bytes("sendback/pydantic-ollama-cloud-tool-output.turn2.request.json"))
                .get("messages");
        JsonNode answer = recorded.get(1);
        ChatRequest request = ChatRequest.builder("gpt-oss:20b")
                .user(recorded.get(0).get("content").stringValue())
                .message(assistant("ollama", reasoning(answer.get("reasoning").stringValue()),
                        TextPart.of(answer.get("content").stringValue())))
                .user(recorded.get(2).get("content").stringValue())
                .build();

        JsonNode expected = recorded.deepCopy();
        ObjectNode assistant = (ObjectNode) expected.get(1);
        assistant.set("thinking", assistant.remove("reasoning"));

        assertThat(MAPPER.readTree(chat(request, false)).get("messages")).isEqualTo(expected);
    }
}
