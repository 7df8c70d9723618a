package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

class AnthropicScriptTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void writesEveryEventWithItsTypeLineExactlyAsTheApi() {
        String sse = AnthropicScript.create()
                .id("msg_1").model("claude-test")
                .thinking("Hmm, ok", "c2ln")
                .text("Hi!")
                .usage(7, 9)
                .tokensOf(4)
                .toSse();

        assertThat(sse).isEqualTo("""
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":1}}}

                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Hmm,"}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" ok"}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"c2ln"}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":0}

                event: content_block_start
                data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi!"}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":1}

                event: message_delta
                data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}

                event: message_stop
                data: {"type":"message_stop"}

                """);
    }

    @Test
    void toolUseStreamsItsInputAfterAnEmptyFragmentAndKeepsInterleavedOrder() {
        String sse = AnthropicScript.create()
                .thinking("a", "s1")
                .toolUse("toolu_1", "weather", "{\"city\":\"Paris\"}")
                .thinking("b", "s2")
                .toolUse("toolu_2", "time", "{}")
                .stopReason("tool_use")
                .tokensOf(6)
                .toSse();

        List<JsonNode> events = data(sse);
        assertThat(events).extracting(e -> e.get("type").stringValue() + indexOf(e)).containsExactly(
                "message_start", "content_block_start0", "content_block_delta0", "content_block_delta0",
                "content_block_stop0", "content_block_start1", "content_block_delta1", "content_block_delta1",
                "content_block_delta1", "content_block_delta1", "content_block_stop1",
                "content_block_start2", "content_block_delta2", "content_block_delta2", "content_block_stop2",
                "content_block_start3", "content_block_delta3", "content_block_delta3", "content_block_stop3",
                "message_delta", "message_stop");
        JsonNode start = events.get(5).get("content_block");
        assertThat(start.toString()).isEqualTo("{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"weather\",\"input\":{}}");
        StringBuilder input = new StringBuilder();
        for (int i = 6; i <= 9; i++) {
            input.append(events.get(i).get("delta").get("partial_json").stringValue());
        }
        assertThat(events.get(6).get("delta").get("partial_json").stringValue()).isEmpty();
        assertThat(input).hasToString("{\"city\":\"Paris\"}");
        assertThat(events.get(19).get("delta").get("stop_reason").stringValue()).isEqualTo("tool_use");
    }

    @Test
    void serverToolBlocksPingRedactedThinkingAndMcp() {
        String sse = AnthropicScript.create()
                .redactedThinking("UkVEQUNURUQ=")
                .ping()
                .serverToolUse("srvtoolu_1", "web_search", "{\"query\":\"x\"}")
                .serverToolResult("web_search_tool_result", "srvtoolu_1", "[{\"type\":\"web_search_result\",\"url\":\"https://a/b\"}]")
                .mcpToolUse("mcptoolu_1", "ask", "wiki", "{\"q\":1}")
                .toSse();

        assertThat(sse).contains("event: ping\ndata: {\"type\": \"ping\"}\n\n");
        List<JsonNode> events = data(sse);
        assertThat(events.get(1).get("content_block").toString())
                .isEqualTo("{\"type\":\"redacted_thinking\",\"data\":\"UkVEQUNURUQ=\"}");
        assertThat(events.get(2).get("content_block")).isNull();
        assertThat(sse).contains("\"content_block\":{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{}}")
                .contains("\"content_block\":{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_1\","
                        + "\"content\":[{\"type\":\"web_search_result\",\"url\":\"https://a/b\"}]}")
                .contains("\"content_block\":{\"type\":\"mcp_tool_use\",\"id\":\"mcptoolu_1\",\"name\":\"ask\",\"input\":{},\"server_name\":\"wiki\"}");
    }

    @Test
    void anErrorEventEndsTheStreamAndStopFalseCutsTheEnd() {
        String failing = AnthropicScript.create().text("partial").error("overloaded_error", "Overloaded").text("never").toSse();
        assertThat(failing).endsWith("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                + "\"message\":\"Overloaded\"}}\n\n").doesNotContain("never").doesNotContain("message_stop");

        String cut = AnthropicScript.create().text("partial").stop(false).toSse();
        assertThat(cut).endsWith("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n")
                .doesNotContain("message_delta");
    }

    @Test
    void splitsTextByCodePointsNeverInsideASurrogatePair() {
        String sse = AnthropicScript.create().text("a😀b🧠").tokensOf(1).toSse();
        List<String> pieces = new ArrayList<>();
        for (JsonNode e : data(sse)) {
            if (e.has("delta") && e.get("delta").has("text")) {
                pieces.add(e.get("delta").get("text").stringValue());
            }
        }
        assertThat(pieces).containsExactly("a", "😀", "b", "🧠");
    }

    @Test
    void messageJsonHoldsEveryBlockWhole() {
        AnthropicScript script = AnthropicScript.create().id("msg_2").model("claude-test")
                .thinking("think", "sig").redactedThinking("data").text("answer")
                .toolUse("toolu_1", "f", "{\"a\":[1,2]}")
                .serverToolUse("srvtoolu_1", "web_search", "{\"query\":\"q\"}")
                .serverToolResult("web_search_tool_result", "srvtoolu_1", "[]")
                .ping()
                .stopReason("tool_use").usage(3, 4);

        assertThat(script.toMessageJson()).isEqualTo("{\"id\":\"msg_2\",\"type\":\"message\",\"role\":\"assistant\","
                + "\"model\":\"claude-test\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"think\",\"signature\":\"sig\"},"
                + "{\"type\":\"redacted_thinking\",\"data\":\"data\"},{\"type\":\"text\",\"text\":\"answer\"},"
                + "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"f\",\"input\":{\"a\":[1,2]}},"
                + "{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{\"query\":\"q\"}},"
                + "{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_1\",\"content\":[]}],"
                + "\"stop_reason\":\"tool_use\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":3,\"output_tokens\":4}}");
        assertThatThrownBy(() -> AnthropicScript.create().toolUse("t", "f", "{bad").toMessageJson())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void servesTheStreamThroughTheEmulator() {
        AnthropicScript script = AnthropicScript.create().thinking("x", "y").text("z");
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(script.toResponse().chunked(ChunkPlan.fixed(7)));
            emulator.enqueue(script.toMessageResponse());

            Http.Received stream = Http.post(emulator.baseUrl(), "/v1/messages", Map.of(), "{}");
            Http.Received whole = Http.post(emulator.baseUrl(), "/v1/messages", Map.of(), "{}");

            assertThat(stream.status()).isEqualTo(200);
            assertThat(stream.headers().get("content-type")).startsWith("text/event-stream");
            assertThat(stream.text()).isEqualTo(script.toSse());
            assertThat(whole.headers().get("content-type")).startsWith("application/json");
            assertThat(whole.text()).isEqualTo(script.toMessageJson());
        }
    }

    @Test
    void rejectsBadSettings() {
        assertThatThrownBy(() -> AnthropicScript.create().tokensOf(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AnthropicScript.create().usage(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static String indexOf(JsonNode event) {
        return event.has("index") ? event.get("index").asString() : "";
    }

    /** Parses the data of every event, checking that each {@code event:} line names the data's type. */
    private static List<JsonNode> data(String sse) {
        List<JsonNode> out = new ArrayList<>();
        for (String block : sse.split("\n\n")) {
            String[] lines = block.split("\n");
            assertThat(lines).hasSize(2);
            assertThat(lines[0]).startsWith("event: ");
            assertThat(lines[1]).startsWith("data: ");
            JsonNode node = MAPPER.readTree(lines[1].substring(6));
            assertThat(node.get("type").stringValue()).isEqualTo(lines[0].substring(7));
            out.add(node);
        }
        return out;
    }
}
