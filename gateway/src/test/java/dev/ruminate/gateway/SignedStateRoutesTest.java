package dev.ruminate.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import java.nio.charset.StandardCharsets;
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
 * Backends whose reasoning state is signed, over recordings, against emulators that apply the
 * backends' acceptance rules: Anthropic (a thinking block's signature) and Gemini (a function call's
 * thought signature). The second turn is built by the client from the first turn's output; the
 * backend must receive its signature byte for byte, and nothing opaque a client made.
 */
@ExtendWith(NettyLeakCheck.class)
class SignedStateRoutesTest {

    private static final String ANTHROPIC = "anthropic/pydantic-thinking-stream.sse";
    private static final String GEMINI_TURN1 = "gemini/pydantic-gemini-tool-call-thought-signature.turn1.sse";
    private static final String GEMINI_TURN2 = "gemini/pydantic-gemini-tool-call-thought-signature.turn2.sse";
    private static GatewayHarness gateway;
    private static Http http;

    @BeforeAll
    static void start() {
        gateway = new GatewayHarness();
        http = gateway.http();
        gateway.anthropic.always(EmulatorResponse.replay(GatewayHarness.fixture(ANTHROPIC), "text/event-stream"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void anthropicGetsItsThinkingSignatureBackFromAStatelessClient() {
        ObjectNode request = Http.request("claude", "How do I cross the street?");
        request.put("store", false);
        JsonNode turn1 = http.post(request);
        assertThat(Http.types(turn1.path("output"))).containsExactly("reasoning", "message");
        int before = gateway.anthropic.requests().size();

        ObjectNode turn2 = Http.request("claude", null);
        turn2.put("store", false);
        ArrayNode input = turn2.putArray("input");
        input.addObject().put("role", "user").put("content", "How do I cross the street?");
        turn1.path("output").forEach(input::add);
        input.addObject().put("role", "user").put("content", "And at night?");
        http.post(turn2);

        assertThinkingSentBack(gateway.anthropic.requests().get(before), turn1);
    }

    @Test
    void anthropicGetsItsThinkingSignatureBackThroughPreviousResponseId() {
        JsonNode turn1 = http.post(Http.request("claude", "How do I cross the street?"));
        int before = gateway.anthropic.requests().size();

        ObjectNode turn2 = Http.request("claude", "And at night?");
        turn2.put("previous_response_id", turn1.path("id").asString());
        http.post(turn2);

        assertThinkingSentBack(gateway.anthropic.requests().get(before), turn1);
    }

    @Test
    void aClientMadeBlobAndUnsignedReasoningNeverReachAnthropic() {
        int before = gateway.anthropic.requests().size();
        ObjectNode request = Http.request("claude", null);
        ArrayNode input = request.putArray("input");
        input.addObject().put("role", "user").put("content", "Hi");
        ObjectNode reasoning = input.addObject().put("type", "reasoning").put("id", "rs_client")
                .put("encrypted_content", "gAAAAABclient-made-opaque-state");
        reasoning.putArray("summary").addObject().put("type", "summary_text").put("text", "The user greets me.");
        input.addObject().put("role", "assistant").put("content", "Hello!");
        input.addObject().put("role", "user").put("content", "How are you?");
        http.post(request);

        RecordedRequest sent = gateway.anthropic.requests().get(before);
        assertThat(sent.rejectedBy()).isNull();
        assertThat(sent.body()).doesNotContain("gAAAAB").doesNotContain("rs_client").doesNotContain("\"thinking\"")
                .contains("Hello!");
    }

    @Test
    void geminiGetsTheThoughtSignatureOfItsFunctionCallBack() {
        ProviderEmulator gemini = gateway.gemini;
        gemini.enqueue(EmulatorResponse.replay(GatewayHarness.fixture(GEMINI_TURN1), "text/event-stream"));
        ObjectNode request = Http.request("gemini-3", "What is the capital of the country?");
        request.put("store", false);
        request.putArray("tools").addObject().put("type", "function").put("name", "get_country")
                .putObject("parameters").put("type", "object");
        JsonNode turn1 = http.post(request);
        assertThat(Http.types(turn1.path("output"))).contains("function_call");
        int before = gemini.requests().size();

        gemini.enqueue(EmulatorResponse.replay(GatewayHarness.fixture(GEMINI_TURN2), "text/event-stream"));
        ObjectNode turn2 = request.deepCopy();
        ArrayNode input = turn2.putArray("input");
        input.addObject().put("role", "user").put("content", "What is the capital of the country?");
        turn1.path("output").forEach(input::add);
        input.add(Http.toolOutput(Http.callId(turn1), "Mexico"));
        JsonNode answer = http.post(turn2);

        RecordedRequest sent = gemini.requests().get(before);
        assertThat(sent.rejectedBy()).isNull();
        String signature = field(GEMINI_TURN1, "thoughtSignature");
        JsonNode modelTurn = Http.json(sent.body()).path("contents").get(1);
        assertThat(modelTurn.path("role").asString()).isEqualTo("model");
        assertThat(modelTurn.path("parts").get(0).path("functionCall").path("name").asString()).isEqualTo("get_country");
        assertThat(modelTurn.path("parts").get(0).path("thoughtSignature").asString()).isEqualTo(signature);
        assertThat(answer.path("output").toString()).contains("Mexico City");
    }

    @Test
    void aStoringStreamingClientSeesNoSealedStateButTheStoreRestoresGeminisSignature() {
        ProviderEmulator gemini = gateway.gemini;
        gemini.enqueue(EmulatorResponse.replay(GatewayHarness.fixture(GEMINI_TURN1), "text/event-stream"));
        ObjectNode request = Http.request("gemini-3", "What is the capital of the country?");
        request.putArray("tools").addObject().put("type", "function").put("name", "get_country")
                .putObject("parameters").put("type", "object");
        List<Http.Event> events = http.stream(request.deepCopy());
        assertThat(events).allSatisfy(e -> assertThat(e.data()).doesNotContain("encrypted_content"));
        JsonNode turn1 = Http.json(events.get(events.size() - 1).data()).path("response");
        int before = gemini.requests().size();

        gemini.enqueue(EmulatorResponse.replay(GatewayHarness.fixture(GEMINI_TURN2), "text/event-stream"));
        ObjectNode turn2 = request.deepCopy();
        turn2.put("previous_response_id", turn1.path("id").asString());
        turn2.putArray("input").add(Http.toolOutput(Http.callId(turn1), "Mexico"));
        http.post(turn2);

        RecordedRequest sent = gemini.requests().get(before);
        assertThat(sent.rejectedBy()).isNull();
        assertThat(Http.json(sent.body()).path("contents").get(1).path("parts").get(0).path("thoughtSignature").asString())
                .isEqualTo(field(GEMINI_TURN1, "thoughtSignature"));
    }

    @Test
    void anotherRoutesTurnGoesWithoutItsStateAndWithItsReasoningAsTheNewBackendTakesIt() {
        JsonNode turn1 = http.post(Http.request("claude", "How do I cross the street?"));
        gateway.tags.enqueue(EmulatorResponse.replay(
                GatewayHarness.fixture("think-tags/pydantic-groq-deepseek-r1-distill-think-tags-stream.sse"),
                "text/event-stream"));
        int before = gateway.tags.requests().size();

        ObjectNode turn2 = Http.request("r1-distill", "And at night?");
        turn2.put("previous_response_id", turn1.path("id").asString());
        http.post(turn2);

        RecordedRequest sent = gateway.tags.requests().get(before);
        assertThat(sent.body()).doesNotContain(field(ANTHROPIC, "signature").substring(0, 24)).doesNotContain("rgw1.");
        JsonNode assistant = Http.json(sent.body()).path("messages").get(1);
        assertThat(assistant.path("content").asString()).startsWith("<think>\n" + Http.reasoningText(turn1).strip()
                + "\n</think>\n\nHere are");
    }

    /** Anthropic accepted the request and got its thinking block back: text and signature as it sent them. */
    private static void assertThinkingSentBack(RecordedRequest sent, JsonNode turn1) {
        assertThat(sent.rejectedBy()).isNull();
        JsonNode assistant = Http.json(sent.body()).path("messages").get(1);
        assertThat(assistant.path("role").asString()).isEqualTo("assistant");
        JsonNode thinking = assistant.path("content").get(0);
        assertThat(thinking.path("type").asString()).isEqualTo("thinking");
        assertThat(thinking.path("signature").asString()).isEqualTo(field(ANTHROPIC, "signature"));
        assertThat(thinking.path("thinking").asString()).isEqualTo(Http.reasoningText(turn1));
        assertThat(sent.body()).doesNotContain("encrypted_content");
    }

    /** The first value of a JSON string field in a recording, as the backend sent it. */
    private static String field(String fixture, String name) {
        String text = new String(GatewayHarness.fixture(fixture), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("\"" + name + "\":\\s*\"([^\"]+)\"").matcher(text);
        assertThat(m.find()).as(name + " in " + fixture).isTrue();
        return m.group(1);
    }
}
