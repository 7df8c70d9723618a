package dev.ruminate.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.RecordedRequest;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The DeepSeek route over a recorded reasoning_content stream with a tool call, against an emulator
 * that applies DeepSeek's acceptance rules (it refuses a tool turn sent back without its
 * reasoning_content): streamed and whole answers, and the second turn of a tool loop built three
 * ways (previous_response_id, item_reference, store:false with the gateway's encrypted_content).
 */
@ExtendWith(NettyLeakCheck.class)
class DeepSeekRouteTest {

    private static final String TURN1 = "deepseek/vercel-deepseek-reasoning-tool-call-stream.sse";
    private static GatewayHarness gateway;
    private static Http http;

    @BeforeAll
    static void start() {
        gateway = new GatewayHarness();
        http = gateway.http();
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @BeforeEach
    void answerWithTheRecording() {
        gateway.deepseek.always(EmulatorResponse.replay(GatewayHarness.fixture(TURN1), "text/event-stream"));
    }

    @Test
    void streamsTheResponsesEventsOfReasoningAndAToolCall() {
        List<Http.Event> events = http.stream(Http.request("deepseek-reasoner", "What is the weather?"));

        List<String> names = events.stream().map(Http.Event::event).toList();
        assertThat(names).startsWith("response.created", "response.in_progress").endsWith("response.completed")
                .contains("response.reasoning_summary_text.delta", "response.function_call_arguments.delta");
        JsonNode response = Http.json(events.get(events.size() - 1).data()).path("response");
        assertThat(response.path("id").asString()).startsWith("resp_");
        assertThat(response.path("model").asString()).isEqualTo("deepseek-reasoner");
        assertThat(Http.types(response.path("output"))).containsExactly("reasoning", "function_call");
        // store is on by default and the client did not ask for encrypted_content: none is shown
        assertThat(response.path("output").toString()).doesNotContain("encrypted_content");
        assertThat(gateway.deepseek.requests().get(gateway.deepseek.requests().size() - 1).body())
                .contains("\"model\":\"deepseek-reasoner\"");
    }

    @Test
    void answersWithOneBodyWhenNotStreaming() {
        JsonNode response = http.post(Http.request("deepseek-reasoner", "What is the weather?"));

        assertThat(response.path("object").asString()).isEqualTo("response");
        assertThat(response.path("status").asString()).isEqualTo("completed");
        assertThat(Http.types(response.path("output"))).containsExactly("reasoning", "function_call");
        assertThat(Http.reasoningText(response)).isNotEmpty();
    }

    @Test
    void previousResponseIdSendsTheReasoningBackInDeepSeeksField() {
        JsonNode turn1 = http.post(Http.request("deepseek-reasoner", "What is the weather?"));
        int before = gateway.deepseek.requests().size();

        ObjectNode turn2 = Http.request("deepseek-reasoner", null);
        turn2.put("previous_response_id", turn1.path("id").asString());
        turn2.putArray("input").add(Http.toolOutput(Http.callId(turn1), "{\"temperature\":21}"));
        JsonNode response = http.post(turn2);

        assertThat(response.path("status").asString()).isEqualTo("completed");
        assertSentBackWithReasoning(gateway.deepseek.requests().get(before), turn1);
    }

    @Test
    void itemReferencesResolveFromTheStore() {
        JsonNode turn1 = http.post(Http.request("deepseek-reasoner", "What is the weather?"));
        int before = gateway.deepseek.requests().size();

        ObjectNode turn2 = Http.request("deepseek-reasoner", null);
        ArrayNode input = turn2.putArray("input");
        input.addObject().put("role", "user").put("content", "What is the weather?");
        for (JsonNode item : turn1.path("output")) {
            input.addObject().put("type", "item_reference").put("id", item.path("id").asString());
        }
        input.add(Http.toolOutput(Http.callId(turn1), "{\"temperature\":21}"));
        http.post(turn2);

        assertSentBackWithReasoning(gateway.deepseek.requests().get(before), turn1);
    }

    @Test
    void storeFalseHandsOutSealedStateAndTheNextTurnRestoresIt() {
        ObjectNode request = Http.request("deepseek-reasoner", "What is the weather?");
        request.put("store", false);
        JsonNode turn1 = http.post(request);
        JsonNode reasoningItem = turn1.path("output").get(0);
        assertThat(reasoningItem.path("encrypted_content").isString()).isTrue();
        int before = gateway.deepseek.requests().size();

        ObjectNode turn2 = Http.request("deepseek-reasoner", null);
        turn2.put("store", false);
        ArrayNode input = turn2.putArray("input");
        input.addObject().put("role", "user").put("content", "What is the weather?");
        turn1.path("output").forEach(input::add);
        input.add(Http.toolOutput(Http.callId(turn1), "{\"temperature\":21}"));
        http.post(turn2);

        RecordedRequest sent = gateway.deepseek.requests().get(before);
        assertSentBackWithReasoning(sent, turn1);
        assertThat(sent.body()).doesNotContain(reasoningItem.path("encrypted_content").asString());
    }

    @Test
    void aStreamingStatelessClientGetsTheSealedStateOnTheReasoningItemsDoneEvent() {
        ObjectNode request = Http.request("deepseek-reasoner", "What is the weather?");
        request.put("store", false);
        List<Http.Event> events = http.stream(request);

        JsonNode reasoningDone = events.stream().filter(e -> e.event().equals("response.output_item.done"))
                .map(e -> Http.json(e.data()).path("item")).filter(i -> i.path("type").asString().equals("reasoning"))
                .findFirst().orElseThrow();
        assertThat(reasoningDone.path("encrypted_content").asString()).startsWith("rgw1.");
        JsonNode last = Http.json(events.get(events.size() - 1).data()).path("response");
        assertThat(last.path("store").asBoolean()).isFalse();
        assertThat(last.path("output").get(0).path("encrypted_content").asString())
                .isEqualTo(reasoningDone.path("encrypted_content").asString());
    }

    @Test
    void aStoringClientSeesEncryptedContentOnlyWhenItAsksForIt() {
        List<Http.Event> plain = http.stream(Http.request("deepseek-reasoner", "What is the weather?"));
        assertThat(plain).allSatisfy(e -> assertThat(e.data()).doesNotContain("encrypted_content"));

        ObjectNode asking = Http.request("deepseek-reasoner", "What is the weather?");
        asking.putArray("include").add("reasoning.encrypted_content");
        JsonNode response = http.post(asking);
        assertThat(response.path("output").get(0).path("encrypted_content").asString()).startsWith("rgw1.");
    }

    @Test
    void storeFalseWithPreviousResponseIdIsUnknown() {
        ObjectNode request = Http.request("deepseek-reasoner", "What is the weather?");
        request.put("store", false);
        JsonNode turn1 = http.post(request);

        ObjectNode turn2 = Http.request("deepseek-reasoner", "and tomorrow?");
        turn2.put("previous_response_id", turn1.path("id").asString());
        Http.Failure failure = http.fail(turn2);

        assertThat(failure.status()).isEqualTo(404);
        assertThat(failure.body().path("error").path("code").asString()).isEqualTo("previous_response_not_found");
    }

    /** DeepSeek accepted the request (its rules passed) and got the assistant turn with its reasoning and call. */
    private static void assertSentBackWithReasoning(RecordedRequest sent, JsonNode turn1) {
        assertThat(sent.rejectedBy()).isNull();
        JsonNode assistant = null;
        for (JsonNode m : Http.json(sent.body()).path("messages")) {
            if ("assistant".equals(m.path("role").asString())) {
                assistant = m;
            }
        }
        assertThat(assistant).as("an assistant message was sent").isNotNull();
        assertThat(assistant.path("reasoning_content").asString()).isEqualTo(Http.reasoningText(turn1));
        assertThat(assistant.path("tool_calls").get(0).path("id").asString()).isEqualTo(Http.callId(turn1));
    }
}
