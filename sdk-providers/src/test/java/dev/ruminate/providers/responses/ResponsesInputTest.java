package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.history.History;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.Retention;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.testing.Recorded;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Reading Responses input items into the neutral history, and sending them back unchanged. */
class ResponsesInputTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * The Responses-shaped later-turn requests that real servers accepted (see PROVENANCE.md and
     * shared/sendback/RULES-OBSERVED.md): read, prepared by History and encoded again,
     * each gives back its reasoning items with the same id, summary, raw text and, byte for byte,
     * the same {@code encrypted_content}, each followed by the same item as before.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "sendback/pydantic-gpt5-reasoning-tool-calls.turn2.request.json, openai",
        "sendback/pydantic-deepseek-responses-api-function-tool-stream.turn2.request.json, deepseek",
        "sendback/pydantic-deepseek-responses-api-reasoning-replay.turn1.request.json, deepseek",
        "sendback/pydantic-deepseek-responses-api-reasoning-replay.turn2.request.json, deepseek",
        "sendback/bedrock/pydantic-bedrock-mantle-reused-tool-call-ids-stream.turn3.request.json, bedrock"})
    void recordedRequestsGoBackWithTheirReasoningItemsUnchanged(String path, String server) {
        ResponsesProfile profile = switch (server) {
            case "deepseek" -> ResponsesProfiles.DEEPSEEK;
            case "bedrock" -> ResponsesProfiles.BEDROCK;
            default -> ResponsesProfiles.OPENAI;
        };
        String body = Recorded.text(path);
        JsonNode original = JSON.readTree(body);
        List<Message> conversation = ResponsesInput.read(body);
        ChatRequest request = ChatRequest.builder(original.get("model").asString()).messages(conversation).build();
        byte[] encoded = ResponsesCodec.encodeRequest(profile,
                History.prepare(request, profile.name(), HistoryPolicy.DEFAULT, Retention.ALL), true);
        JsonNode again = JSON.readTree(encoded);

        List<JsonNode> before = reasoningItems(original.get("input"));
        List<JsonNode> after = reasoningItems(again.get("input"));
        assertThat(before).isNotEmpty();
        assertThat(after).hasSameSizeAs(before);
        for (int i = 0; i < before.size(); i++) {
            JsonNode b = before.get(i);
            JsonNode a = after.get(i);
            assertThat(a.get("id")).isEqualTo(b.get("id"));
            assertThat(texts(a.get("summary"))).isEqualTo(texts(b.get("summary")));
            assertThat(texts(a.get("content"))).isEqualTo(texts(b.get("content")));
            String encrypted = b.path("encrypted_content").isString() ? b.get("encrypted_content").asString() : null;
            if (encrypted != null) {
                assertThat(a.get("encrypted_content").asString()).isEqualTo(encrypted);
                // byte for byte in the encoded body, not merely equal after parsing
                assertThat(new String(encoded, java.nio.charset.StandardCharsets.UTF_8))
                        .contains("\"encrypted_content\":\"" + encrypted + "\"");
            } else {
                assertThat(a.has("encrypted_content")).isFalse();
            }
            assertThat(next(again.get("input"), a)).as("the item after reasoning item " + i)
                    .isEqualTo(next(original.get("input"), b));
        }
        // the calls and their outputs go back with the same ids and arguments
        assertThat(calls(again.get("input"))).isEqualTo(calls(original.get("input")));
    }

    private static List<JsonNode> reasoningItems(JsonNode input) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode item : input) {
            if ("reasoning".equals(item.path("type").asString(""))) {
                out.add(item);
            }
        }
        return out;
    }

    private static List<String> texts(JsonNode entries) {
        List<String> out = new ArrayList<>();
        if (entries != null) {
            for (JsonNode e : entries) {
                out.add(e.path("type").asString("") + ": " + e.path("text").asString(""));
            }
        }
        return out;
    }

    /** Names the item after one: its type, or role, and its call id. */
    private static String next(JsonNode input, JsonNode item) {
        for (int i = 0; i < input.size() - 1; i++) {
            if (input.get(i) == item) {
                JsonNode n = input.get(i + 1);
                return n.path("type").asString(n.path("role").asString("")) + " " + n.path("call_id").asString("")
                        + " " + n.path("id").asString("");
            }
        }
        return "none";
    }

    private static List<String> calls(JsonNode input) {
        List<String> out = new ArrayList<>();
        for (JsonNode item : input) {
            String type = item.path("type").asString("");
            if (type.startsWith("function_call")) {
                ObjectNode copy = ((ObjectNode) item).deepCopy();
                copy.remove("status");
                out.add(JSON.writeValueAsString(JSON.readTree(JSON.writeValueAsString(sorted(copy)))));
            }
        }
        return out;
    }

    private static JsonNode sorted(ObjectNode node) {
        ObjectNode out = JSON.createObjectNode();
        node.propertyNames().stream().sorted().forEach(name -> out.set(name, node.get(name)));
        return out;
    }

    @Test
    void readsEveryKindOfItemIntoTurns() {
        List<Message> messages = ResponsesInput.read("{\"model\":\"m\",\"instructions\":\"Be brief.\",\"input\":["
                + "{\"role\":\"developer\",\"content\":[{\"type\":\"input_text\",\"text\":\"No emojis.\"}]},"
                + "{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"Weather\"},"
                + "{\"type\":\"input_text\",\"text\":\" in Paris?\"}]},"
                + "{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[{\"type\":\"summary_text\",\"text\":\"S1\"},"
                + "{\"type\":\"summary_text\",\"text\":\"S2\"}],\"encrypted_content\":\"gAAAA==\"},"
                + "{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"call_1\",\"name\":\"weather\",\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"},"
                + "{\"type\":\"function_call_output\",\"call_id\":\"call_1\",\"output\":[{\"type\":\"input_text\",\"text\":\"21C\"}]},"
                + "{\"type\":\"reasoning\",\"id\":\"rs_2\",\"summary\":[],\"content\":[{\"type\":\"reasoning_text\",\"text\":\"raw\"}]},"
                + "{\"type\":\"web_search_call\",\"id\":\"ws_1\",\"status\":\"completed\"},"
                + "{\"type\":\"message\",\"id\":\"msg_1\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"Sunny.\"}]},"
                + "{\"role\":\"user\",\"content\":\"Thanks\"}]}");
        Seals rs1 = new Seals(null, null, null, "rs_1", null);
        assertThat(messages).containsExactly(
                new SystemMessage("Be brief."),
                new SystemMessage("No emojis."),
                new UserMessage("Weather in Paris?"),
                new AssistantMessage(List.of(
                        new ReasoningPart("S1", true, "summary_text", new Seals(null, null, "gAAAA==", "rs_1", null)),
                        new ReasoningPart("S2", true, "summary_text", rs1),
                        new ToolCallPart("call_1", "weather", "{\"city\":\"Paris\"}", true, new Seals(null, null, null, "fc_1", null))),
                        null, null, FinishReason.TOOL_CALLS, null, Usage.UNKNOWN),
                new ToolResultMessage("call_1", null, "[{\"type\":\"input_text\",\"text\":\"21C\"}]", false),
                new AssistantMessage(List.of(
                        new ReasoningPart("raw", false, "reasoning_text", new Seals(null, null, null, "rs_2", null)),
                        new ServerToolPart("web_search_call", "ws_1", null, "{\"type\":\"web_search_call\",\"id\":\"ws_1\",\"status\":\"completed\"}",
                                Seals.NONE),
                        new TextPart("Sunny.", new Seals(null, null, null, "msg_1", null))),
                        null, null, FinishReason.STOP, null, Usage.UNKNOWN),
                new UserMessage("Thanks"));
    }

    @Test
    void readsReasoningWrittenInsideAnAssistantMessage() {
        List<Message> messages = ResponsesInput.read("[{\"role\":\"user\",\"content\":\"Hi\"},"
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"reasoning\",\"id\":\"rs_9\",\"summary\":[],"
                + "\"encrypted_content\":\"ENC\"},{\"type\":\"output_text\",\"text\":\"Hello\"},"
                + "{\"type\":\"reasoning\",\"content\":[{\"type\":\"reasoning_text\",\"text\":\"more\"}]},"
                + "{\"type\":\"output_text\",\"text\":\"!\"}]}]");
        assertThat(messages.get(1)).isEqualTo(new AssistantMessage(List.of(
                new ReasoningPart("", false, null, new Seals(null, null, "ENC", "rs_9", null)),
                TextPart.of("Hello"),
                new ReasoningPart("more", false, "reasoning_text", Seals.NONE),
                TextPart.of("!")), null, null, FinishReason.STOP, null, Usage.UNKNOWN));
    }

    @Test
    void aStringInputIsOneUserMessage() {
        assertThat(ResponsesInput.read("\"Hello\"")).containsExactly(new UserMessage("Hello"));
        assertThat(ResponsesInput.read("{\"input\":\"Hello\"}")).containsExactly(new UserMessage("Hello"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "[", "42", "{\"model\":\"m\"}", "[\"sk-SECRET\"]", "[{\"content\":\"sk-SECRET\"}]",
        "[{\"role\":\"sk-SECRET\",\"content\":\"x\"}]", "[{\"type\":\"function_call\",\"name\":\"f\"}]",
        "[{\"role\":\"user\",\"content\":7}]", "[{\"type\":\"reasoning\",\"summary\":\"sk-SECRET\"}]"})
    void badInputIsATypedErrorThatQuotesNoValue(String json) {
        assertThatThrownBy(() -> ResponsesInput.read(json))
                .isInstanceOf(ProtocolException.class)
                .hasMessageNotContaining("SECRET");
    }
}
