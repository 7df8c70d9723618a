package dev.ruminate.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.RecordedRequest;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The think-tag route: an OpenAI-compatible server (an R1 distill on Groq, recorded) that writes its
 * reasoning as {@code <think>} tags in the answer. Earlier reasoning goes back to it as
 * {@code <think>\nR\n</think>\n\n} + answer, whether the gateway produced it or the client wrote it.
 */
@ExtendWith(NettyLeakCheck.class)
class TagRouteTest {

    private static final String RECORDING = "think-tags/pydantic-groq-deepseek-r1-distill-think-tags-stream.sse";
    private static GatewayHarness gateway;
    private static Http http;

    @BeforeAll
    static void start() {
        gateway = new GatewayHarness();
        http = gateway.http();
        gateway.tags.always(EmulatorResponse.replay(GatewayHarness.fixture(RECORDING), "text/event-stream"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void theBackendsOwnReasoningGoesBackAsTags() {
        JsonNode turn1 = http.post(Http.request("r1-distill", "How do I make alfajores?"));
        assertThat(Http.types(turn1.path("output"))).containsExactly("reasoning", "message");
        int before = gateway.tags.requests().size();

        ObjectNode turn2 = Http.request("r1-distill", "And without an oven?");
        turn2.put("previous_response_id", turn1.path("id").asString());
        http.post(turn2);

        String reasoning = Http.reasoningText(turn1);
        assertThat(reasoning.strip()).startsWith("Okay, so I want to make Uruguayan alfajores.");
        assertThat(assistantContent(gateway.tags.requests().get(before)))
                .isEqualTo("<think>\n" + reasoning.strip() + "\n</think>\n\n" + answer(turn1));
    }

    @Test
    void reasoningTheClientWroteGoesAsTagsAndNothingOpaqueFollows() {
        int before = gateway.tags.requests().size();
        ObjectNode request = Http.request("r1-distill", null);
        ArrayNode input = request.putArray("input");
        input.addObject().put("role", "user").put("content", "Hi");
        ObjectNode reasoning = input.addObject().put("type", "reasoning").put("id", "rs_1")
                .put("encrypted_content", "opaque-from-elsewhere");
        reasoning.putArray("summary").addObject().put("type", "summary_text").put("text", "A greeting.");
        input.addObject().put("role", "assistant").put("content", "Hello!");
        input.addObject().put("role", "user").put("content", "How are you?");
        http.post(request);

        RecordedRequest sent = gateway.tags.requests().get(before);
        assertThat(assistantContent(sent)).isEqualTo("<think>\nA greeting.\n</think>\n\nHello!");
        assertThat(sent.body()).doesNotContain("opaque-from-elsewhere").doesNotContain("rs_1");
    }

    @Test
    void theTwoReasoningFormsOfTheSeedProxyGoAsTags() {
        int before = gateway.tags.requests().size();
        ObjectNode request = Http.request("r1-distill", null);
        ArrayNode input = request.putArray("input");
        input.addObject().put("role", "user").put("content", "Hi");
        input.addObject().put("type", "reasoning").put("text", "A separate reasoning item.");
        input.addObject().put("role", "assistant").put("content", "Hello!");
        input.addObject().put("role", "user").put("content", "And?");
        ObjectNode inline = input.addObject().put("type", "message").put("role", "assistant");
        ArrayNode content = inline.putArray("content");
        content.addObject().put("type", "reasoning").put("text", "Reasoning inline in the message.");
        content.addObject().put("type", "output_text").put("text", "More.");
        input.addObject().put("role", "user").put("content", "Thanks");
        http.post(request);

        List<String> sent = new java.util.ArrayList<>();
        for (JsonNode m : Http.json(gateway.tags.requests().get(before).body()).path("messages")) {
            if ("assistant".equals(m.path("role").asString())) {
                sent.add(m.path("content").asString());
            }
        }
        assertThat(sent).containsExactly("<think>\nA separate reasoning item.\n</think>\n\nHello!",
                "<think>\nReasoning inline in the message.\n</think>\n\nMore.");
    }

    private static String assistantContent(RecordedRequest sent) {
        for (JsonNode m : Http.json(sent.body()).path("messages")) {
            if ("assistant".equals(m.path("role").asString())) {
                return m.path("content").asString();
            }
        }
        throw new AssertionError("no assistant message in " + sent.body());
    }

    private static String answer(JsonNode response) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode item : response.path("output")) {
            if ("message".equals(item.path("type").asString())) {
                item.path("content").forEach(c -> sb.append(c.path("text").asString()));
            }
        }
        return sb.toString();
    }
}
