package dev.ruminate.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /api/chat}, the Vercel AI SDK's UI message stream, in front of a recorded Anthropic backend with signed
 * thinking: reasoning and answer reach the page, the signature never does, and the page's second turn reaches
 * Anthropic with the stored turn, signature byte for byte; the gateway's keys guard it like {@code /v1/}.
 */
@ExtendWith(NettyLeakCheck.class)
class UiChatEndpointTest {

    private static final String PATH = "/api/chat";
    private static final String ANTHROPIC = "anthropic/pydantic-thinking-stream.sse";
    private static GatewayHarness gateway;
    private static Http http;
    private static String signature;

    @BeforeAll
    static void start() {
        gateway = new GatewayHarness();
        http = gateway.http();
        byte[] recording = GatewayHarness.fixture(ANTHROPIC);
        gateway.anthropic.always(EmulatorResponse.replay(recording, "text/event-stream"));
        Matcher m = Pattern.compile("\"signature\":\"([^\"]{20,})\"").matcher(new String(recording, StandardCharsets.UTF_8));
        assertThat(m.find()).isTrue();
        signature = m.group(1);
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static ObjectNode user(String id, String text) {
        ObjectNode m = Http.JSON.createObjectNode();
        m.put("id", id);
        m.put("role", "user");
        m.putArray("parts").addObject().put("type", "text").put("text", text);
        return m;
    }

    private static ObjectNode body(String chatId, ObjectNode... messages) {
        ObjectNode b = Http.JSON.createObjectNode();
        b.put("id", chatId);
        b.put("model", "claude");
        b.put("trigger", "submit-message");
        ArrayNode list = b.putArray("messages");
        for (ObjectNode m : messages) {
            list.add(m);
        }
        return b;
    }

    private static List<JsonNode> chunks(String text) {
        List<JsonNode> out = new ArrayList<>();
        for (String frame : text.split("\n\n")) {
            assertThat(frame).startsWith("data: ");
            if (!frame.equals("data: [DONE]")) {
                out.add(Http.json(frame.substring(6)));
            }
        }
        return out;
    }

    private static String joined(List<JsonNode> chunks, String type) {
        StringBuilder b = new StringBuilder();
        chunks.stream().filter(c -> c.path("type").asString().equals(type)).forEach(c -> b.append(c.path("delta").asString()));
        return b.toString();
    }

    @Test
    void streamsReasoningAndAnswerWithoutTheSignatureAndTheNextTurnCarriesIt() {
        Http.Reply first = http.send(PATH, body("chat-1", user("u1", "How do I cross the street?")).toString());
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.body()).endsWith("data: [DONE]\n\n").doesNotContain(signature).doesNotContain("providerMetadata");
        List<JsonNode> chunks = chunks(first.body());
        assertThat(chunks.get(0).path("type").asString()).isEqualTo("start");
        String messageId = chunks.get(0).path("messageId").asString();
        String reasoning = joined(chunks, "reasoning-delta");
        String text = joined(chunks, "text-delta");
        assertThat(reasoning).startsWith("This is a straightforward question");
        assertThat(text).startsWith("Here are");
        assertThat(chunks.get(chunks.size() - 1).path("finishReason").asString()).isEqualTo("stop");

        ObjectNode assistant = Http.JSON.createObjectNode();
        assistant.put("id", messageId);
        assistant.put("role", "assistant");
        ArrayNode parts = assistant.putArray("parts");
        parts.addObject().put("type", "step-start");
        parts.addObject().put("type", "reasoning").put("text", reasoning);
        parts.addObject().put("type", "text").put("text", text);
        int before = gateway.anthropic.requests().size();
        Http.Reply second = http.send(PATH, body("chat-1", user("u1", "How do I cross the street?"), assistant,
                user("u2", "And at night?")).toString());
        assertThat(second.status()).as(second.body()).isEqualTo(200);

        RecordedRequest sent = gateway.anthropic.requests().get(before);
        assertThat(sent.rejectedBy()).isNull();
        JsonNode thinking = Http.json(sent.body()).path("messages").get(1).path("content").get(0);
        assertThat(thinking.path("type").asString()).isEqualTo("thinking");
        assertThat(thinking.path("thinking").asString()).isEqualTo(reasoning);
        assertThat(thinking.path("signature").asString()).isEqualTo(signature);

        // the same id under another chat is not that chat's turn: its visible parts go, unsigned thinking does not
        int again = gateway.anthropic.requests().size();
        http.send(PATH, body("chat-2", user("u1", "How do I cross the street?"), assistant,
                user("u2", "And at night?")).toString());
        assertThat(gateway.anthropic.requests().get(again).body()).doesNotContain(signature);
    }

    @Test
    void badBodiesAre400sNamingThePlaceAndNothingIsForwarded() {
        int before = gateway.anthropic.requests().size();
        Http.Reply malformed = http.send(PATH, "{\"id\":");
        assertThat(malformed.status()).isEqualTo(400);
        Http.Reply noParts = http.send(PATH, "{\"id\":\"c\",\"messages\":[{\"role\":\"user\"}]}");
        assertThat(noParts.status()).isEqualTo(400);
        assertThat(noParts.json().path("error").path("message").asString()).contains("messages[0].parts");
        assertThat(gateway.anthropic.requests()).hasSize(before);
    }

    @Test
    void theGatewayKeysGuardIt() {
        Http.Reply anonymous = gateway.http(null).send(PATH, body("chat-3", user("u1", "Hi")).toString());
        assertThat(anonymous.status()).isEqualTo(401);
    }
}
