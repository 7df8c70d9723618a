package dev.ruminate.examples.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.RecordedRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /api/chat} over real HTTP, as {@code useChat} calls it: the UI message stream with its header, reasoning
 * before the answer, and a second turn that reaches the provider with the stored turn (DeepSeek: its
 * {@code reasoning_content}, identical), a bad body a 400.
 */
@ExtendWith(NettyLeakCheck.class)
class UiChatTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static RunningApp app;
    private static WebTestClient client;

    @BeforeAll
    static void start() {
        app = RunningApp.start();
        client = WebTestClient.bindToServer().baseUrl(app.baseUrl()).responseTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static ObjectNode user(String id, String text) {
        ObjectNode m = JSON.createObjectNode();
        m.put("id", id).put("role", "user").putArray("parts").addObject().put("type", "text").put("text", text);
        return m;
    }

    private static List<JsonNode> post(String chatId, ObjectNode... messages) {
        ObjectNode body = JSON.createObjectNode().put("id", chatId).put("trigger", "submit-message");
        ArrayNode list = body.putArray("messages");
        for (ObjectNode m : messages) {
            list.add(m);
        }
        String text = client.post().uri("/api/chat").contentType(MediaType.APPLICATION_JSON).bodyValue(body.toString())
                .exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("x-vercel-ai-ui-message-stream", "v1")
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_EVENT_STREAM)
                .expectBody(String.class).returnResult().getResponseBody();
        List<JsonNode> chunks = new ArrayList<>();
        assertThat(text).isNotNull();
        for (String frame : text.split("\n\n")) {
            String data = frame.substring(frame.indexOf(':') + 1).strip();
            if (!data.equals("[DONE]")) {
                chunks.add(JSON.readTree(data));
            }
        }
        assertThat(text.strip()).endsWith("[DONE]");
        return chunks;
    }

    private static String joined(List<JsonNode> chunks, String type) {
        StringBuilder b = new StringBuilder();
        chunks.stream().filter(c -> c.path("type").asString().equals(type)).forEach(c -> b.append(c.path("delta").asString()));
        return b.toString();
    }

    @Test
    void reasoningThenAnswerAndTheNextTurnSendsTheStoredTurnBack() {
        List<JsonNode> first = post("chat-1", user("u1", "Why is the sky blue?"));
        List<String> types = first.stream().map(c -> c.path("type").asString()).toList();
        assertThat(types).startsWith("start", "start-step").endsWith("finish-step", "finish");
        assertThat(types.lastIndexOf("reasoning-delta")).isLessThan(types.indexOf("text-delta"));
        String reasoning = joined(first, "reasoning-delta");
        assertThat(reasoning).startsWith("The user asks why the sky is blue.");
        assertThat(joined(first, "text-delta")).startsWith("Because air scatters blue light");

        ObjectNode assistant = JSON.createObjectNode().put("id", first.get(0).path("messageId").asString())
                .put("role", "assistant");
        // what the page shows may differ from the stored turn: the server's copy wins
        assistant.putArray("parts").addObject().put("type", "text").put("text", "(edited on the page)");
        int before = app.emulator().requests().size();
        post("chat-1", user("u1", "Why is the sky blue?"), assistant, user("u2", "And sunsets?"));

        RecordedRequest sent = app.emulator().requests().get(before);
        JsonNode sentAssistant = JSON.readTree(sent.body()).path("messages").get(1);
        assertThat(sentAssistant.path("content").asString()).startsWith("Because air scatters blue light");
    }

    @Test
    void aBadBodyIs400() {
        client.post().uri("/api/chat").contentType(MediaType.APPLICATION_JSON).bodyValue("{\"id\":\"c\"}")
                .exchange()
                .expectStatus().isBadRequest()
                // read to the end: an unread body is a buffer never released
                .expectBody(String.class).returnResult();
    }
}
