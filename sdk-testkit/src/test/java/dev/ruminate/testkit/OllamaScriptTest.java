package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

@ExtendWith(NettyLeakCheck.class)
class OllamaScriptTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static List<String> lines(String ndjson) {
        assertThat(ndjson).endsWith("\n");
        return List.of(ndjson.substring(0, ndjson.length() - 1).split("\n", -1));
    }

    private static List<JsonNode> parse(String ndjson) {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : lines(ndjson)) {
            nodes.add(MAPPER.readTree(line));
        }
        return nodes;
    }

    private static String joined(List<JsonNode> lines, String field) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode line : lines) {
            JsonNode holder = line.has("message") ? line.get("message") : line;
            if (holder.has(field)) {
                sb.append(holder.get(field).stringValue());
            }
        }
        return sb.toString();
    }

    @Test
    void writesChatLinesWithThinkingThenContentThenTheDoneLine() {
        List<JsonNode> lines = parse(OllamaScript.create().model("gpt-oss:20b")
                .thinking("User asks.").content("Fluffy, swift.").usage(81, 53).tokensOf(3).toNdjsonText());

        assertThat(lines).allSatisfy(line -> {
            assertThat(line.get("model").stringValue()).isEqualTo("gpt-oss:20b");
            assertThat(line.get("created_at").stringValue()).startsWith("2025-08-23T11:02:");
            assertThat(line.get("message").get("role").stringValue()).isEqualTo("assistant");
        });
        assertThat(lines.get(0).get("message").get("thinking").stringValue()).isEqualTo("Use");
        assertThat(lines.get(0).get("message").get("content").stringValue()).isEmpty();
        assertThat(joined(lines, "thinking")).isEqualTo("User asks.");
        assertThat(joined(lines, "content")).isEqualTo("Fluffy, swift.");
        JsonNode last = lines.get(lines.size() - 1);
        assertThat(last.get("done").booleanValue()).isTrue();
        assertThat(last.get("done_reason").stringValue()).isEqualTo("stop");
        assertThat(last.get("prompt_eval_count").longValue()).isEqualTo(81);
        assertThat(last.get("eval_count").longValue()).isEqualTo(53);
        assertThat(lines.subList(0, lines.size() - 1)).allSatisfy(line -> {
            assertThat(line.get("done").booleanValue()).isFalse();
            assertThat(line.has("done_reason")).isFalse();
        });
    }

    @Test
    void writesGenerateLinesWithTopLevelResponseAndThinking() {
        List<JsonNode> lines = parse(OllamaScript.create().endpoint(OllamaScript.Endpoint.GENERATE)
                .thinking("Hmm").content("<think>\nno</think>Yes").doneReason("length").toNdjsonText());

        assertThat(lines).noneSatisfy(line -> assertThat(line.has("message")).isTrue());
        assertThat(joined(lines, "thinking")).isEqualTo("Hmm");
        assertThat(joined(lines, "response")).isEqualTo("<think>\nno</think>Yes");
        JsonNode last = lines.get(lines.size() - 1);
        assertThat(last.get("done_reason").stringValue()).isEqualTo("length");
        assertThat(last.get("context").isArray()).isTrue();
        assertThat(last.has("eval_count")).isFalse();
    }

    @Test
    void writesAToolCallWholeWithItsArgumentsAsAnObject() {
        List<JsonNode> lines = parse(OllamaScript.create()
                .toolCall("get_weather", "{\"city\":\"Paris\"}")
                .toolCall("call_2", "get_time", "{}").toNdjsonText());

        JsonNode first = lines.get(0).get("message").get("tool_calls");
        assertThat(first).hasSize(1);
        assertThat(first.get(0).has("id")).isFalse();
        assertThat(first.get(0).get("function").get("name").stringValue()).isEqualTo("get_weather");
        assertThat(first.get(0).get("function").get("arguments").get("city").stringValue()).isEqualTo("Paris");
        JsonNode second = lines.get(1).get("message").get("tool_calls").get(0);
        assertThat(second.get("id").stringValue()).isEqualTo("call_2");
        assertThat(second.get("function").get("arguments").isObject()).isTrue();
    }

    @Test
    void writesErrorLinesMalformedLinesAndCanLeaveOutTheDoneLine() {
        String ndjson = OllamaScript.create().content("ab").error("model runner crashed").malformedLineAt(1)
                .done(false).toNdjsonText();

        List<String> lines = lines(ndjson);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(2)).isEqualTo("{\"error\":\"model runner crashed\"}");
        assertThatThrownBy(() -> MAPPER.readTree(lines.get(1))).isInstanceOf(JacksonException.class);
        assertThat(lines).noneSatisfy(line -> assertThat(line).contains("\"done\":true"));
        assertThatThrownBy(() -> OllamaScript.create().malformedLineAt(5).toNdjsonText())
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void writesTheNonStreamingBodyWhole() {
        JsonNode chat = MAPPER.readTree(OllamaScript.create().thinking("Think.").content("Answer.")
                .toolCall("call_1", "f", "{\"a\":1}").usage(3, 4).toJson());

        assertThat(chat.get("message").get("thinking").stringValue()).isEqualTo("Think.");
        assertThat(chat.get("message").get("content").stringValue()).isEqualTo("Answer.");
        assertThat(chat.get("message").get("tool_calls").get(0).get("function").get("arguments").get("a").intValue())
                .isEqualTo(1);
        assertThat(chat.get("done").booleanValue()).isTrue();

        JsonNode generate = MAPPER.readTree(OllamaScript.create().endpoint(OllamaScript.Endpoint.GENERATE)
                .thinking("T").content("A").toJson());
        assertThat(generate.get("response").stringValue()).isEqualTo("A");
        assertThat(generate.get("thinking").stringValue()).isEqualTo("T");
    }

    @Test
    void servesTheStreamAsNdjsonOverHttp() {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(OllamaScript.create().content("Hi").toResponse());

            Http.Received received = Http.post(emulator.baseUrl(), "/api/chat", Map.of(), "{}");

            assertThat(received.status()).isEqualTo(200);
            assertThat(received.headers().get("content-type")).isEqualTo("application/x-ndjson");
            assertThat(received.text()).isEqualTo(OllamaScript.create().content("Hi").toNdjsonText());
        }
    }
}
