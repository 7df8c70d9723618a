package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** {@link ChatCompletionsScript#thinkingChunks(boolean)}: Mistral's content chunks, streamed and whole. */
class MistralThinkingChunksTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static List<JsonNode> chunks(String sse) {
        List<JsonNode> chunks = new ArrayList<>();
        for (String data : SseText.data(sse)) {
            if (!"[DONE]".equals(data)) {
                chunks.add(MAPPER.readTree(data));
            }
        }
        return chunks;
    }

    private static JsonNode delta(JsonNode chunk) {
        return chunk.get("choices").get(0).get("delta");
    }

    @Test
    void streamsReasoningAsThinkingChunksAndTextAsTextChunks() {
        List<JsonNode> chunks = chunks(ChatCompletionsScript.create().thinkingChunks(true).tokensOf(5)
                .reasoning("Two and two.").content("4").toSse());

        StringBuilder thinking = new StringBuilder();
        StringBuilder text = new StringBuilder();
        for (JsonNode chunk : chunks) {
            JsonNode content = delta(chunk).get("content");
            assertThat(delta(chunk).has("reasoning_content")).isFalse();
            if (content == null || !content.isArray()) {
                continue;
            }
            assertThat(content).hasSize(1);
            JsonNode item = content.get(0);
            if ("thinking".equals(item.get("type").stringValue())) {
                assertThat(item.get("thinking")).hasSize(1);
                assertThat(item.get("thinking").get(0).get("type").stringValue()).isEqualTo("text");
                thinking.append(item.get("thinking").get(0).get("text").stringValue());
            } else {
                assertThat(item.get("type").stringValue()).isEqualTo("text");
                text.append(item.get("text").stringValue());
            }
        }
        assertThat(thinking).hasToString("Two and two.");
        assertThat(text).hasToString("4");
    }

    @Test
    void writesTheWholeMessageAsAThinkingChunkThenATextChunk() {
        JsonNode message = MAPPER.readTree(ChatCompletionsScript.create().thinkingChunks(true)
                .reasoning("Think.").content("Answer.").toCompletionJson()).get("choices").get(0).get("message");

        assertThat(message.get("content")).isEqualTo(MAPPER.readTree("[{\"type\":\"thinking\",\"thinking\":"
                + "[{\"type\":\"text\",\"text\":\"Think.\"}]},{\"type\":\"text\",\"text\":\"Answer.\"}]"));
        assertThat(message.has("reasoning_content")).isFalse();
    }
}
