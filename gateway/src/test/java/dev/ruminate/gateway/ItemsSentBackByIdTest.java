package dev.ruminate.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import java.nio.charset.StandardCharsets;
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
 * With {@code store} on (the default) and no {@code previous_response_id}, clients send the
 * gateway's own output items back with their ids but without {@code encrypted_content}: the OpenAI
 * Node SDK appends {@code response.output} verbatim, {@code @ai-sdk/open-responses} sends reasoning
 * and messages by id, the Vercel AI SDK sends a function call with only its {@code call_id}. The
 * gateway finds them in its store and the backend, an emulator applying its acceptance rules, gets
 * its own state byte for byte: Anthropic's thinking signature, Gemini's thought signature of a call.
 * An item whose visible content the client changed keeps the client's content (a reasoning item
 * excepted: the signed thinking goes as the backend wrote it); a call id the gateway did not issue
 * restores nothing.
 */
@ExtendWith(NettyLeakCheck.class)
class ItemsSentBackByIdTest {

    private static final String ANTHROPIC = "anthropic/pydantic-thinking-stream.sse";
    private static final String GEMINI_TURN1 = "gemini/pydantic-gemini-tool-call-thought-signature.turn1.sse";
    private static final String GEMINI_TURN2 = "gemini/pydantic-gemini-tool-call-thought-signature.turn2.sse";
    private static final String QUESTION = "What is the capital of the country?";
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
    void anthropicGetsItsSignatureBackForOutputItemsSentVerbatim() {
        JsonNode turn1 = http.post(Http.request("claude", "How do I cross the street?"));
        assertThat(turn1.toString()).doesNotContain("encrypted_content");
        int before = gateway.anthropic.requests().size();

        ObjectNode turn2 = Http.request("claude", null);
        ArrayNode input = turn2.putArray("input");
        input.addObject().put("role", "user").put("content", "How do I cross the street?");
        turn1.path("output").forEach(input::add);
        input.addObject().put("role", "user").put("content", "And at night?");
        http.post(turn2);

        assertThinkingSentBack(gateway.anthropic.requests().get(before), turn1);
    }

    @Test
    void anthropicGetsItsSignatureBackForItemsSentAsOpenResponsesDoes() {
        JsonNode turn1 = http.post(Http.request("claude", "How do I cross the street?"));
        JsonNode reasoning = turn1.path("output").get(0);
        JsonNode message = turn1.path("output").get(1);
        int before = gateway.anthropic.requests().size();

        ObjectNode turn2 = Http.request("claude", null);
        ArrayNode input = turn2.putArray("input");
        input.addObject().put("type", "message").put("role", "user").put("content", "How do I cross the street?");
        ObjectNode r = input.addObject().put("type", "reasoning").put("id", reasoning.path("id").asString());
        r.set("summary", reasoning.path("summary"));
        r.putNull("content");
        r.putNull("encrypted_content");
        ObjectNode m = input.addObject().put("type", "message").put("role", "assistant")
                .put("id", message.path("id").asString());
        m.putArray("content").addObject().put("type", "output_text")
                .put("text", message.path("content").get(0).path("text").asString());
        input.addObject().put("type", "message").put("role", "user").put("content", "And at night?");
        http.post(turn2);

        assertThinkingSentBack(gateway.anthropic.requests().get(before), turn1);
    }

    @Test
    void aReasoningItemWhoseSummaryTheClientChangedStillGoesAsTheBackendsOwnSignedThinking() {
        JsonNode turn1 = http.post(Http.request("claude", "How do I cross the street?"));
        int before = gateway.anthropic.requests().size();

        ObjectNode turn2 = Http.request("claude", null);
        ArrayNode input = turn2.putArray("input");
        input.addObject().put("role", "user").put("content", "How do I cross the street?");
        ObjectNode edited = (ObjectNode) turn1.path("output").get(0).deepCopy();
        edited.putArray("summary").addObject().put("type", "summary_text").put("text", "Something I never thought.");
        input.add(edited);
        input.add(turn1.path("output").get(1));
        input.addObject().put("role", "user").put("content", "And at night?");
        http.post(turn2);

        // the signature covers the backend's own thinking: the summary is a view of it, not a replacement
        RecordedRequest sent = gateway.anthropic.requests().get(before);
        assertThinkingSentBack(sent, turn1);
        assertThat(sent.body()).doesNotContain("Something I never thought");
    }

    @Test
    void anAnswerWhoseTextTheClientChangedKeepsTheClientsText() {
        JsonNode turn1 = http.post(Http.request("claude", "How do I cross the street?"));
        int before = gateway.anthropic.requests().size();

        ObjectNode turn2 = Http.request("claude", null);
        ArrayNode input = turn2.putArray("input");
        input.addObject().put("role", "user").put("content", "How do I cross the street?");
        input.add(turn1.path("output").get(0));
        ObjectNode edited = (ObjectNode) turn1.path("output").get(1).deepCopy();
        edited.putArray("content").addObject().put("type", "output_text").put("text", "Look both ways.");
        input.add(edited);
        input.addObject().put("role", "user").put("content", "And at night?");
        http.post(turn2);

        RecordedRequest sent = gateway.anthropic.requests().get(before);
        assertThinkingSentBack(sent, turn1);
        assertThat(Http.json(sent.body()).path("messages").get(1).path("content").get(1).path("text").asString())
                .isEqualTo("Look both ways.");
    }

    @Test
    void geminiGetsItsCallsSignatureBackForOutputItemsSentVerbatim() {
        JsonNode turn1 = geminiTurn1();
        int before = gateway.gemini.requests().size();

        ObjectNode turn2 = geminiRequest();
        ArrayNode input = turn2.putArray("input");
        input.addObject().put("role", "user").put("content", QUESTION);
        turn1.path("output").forEach(input::add);
        input.add(Http.toolOutput(Http.callId(turn1), "Mexico"));
        JsonNode answer = geminiTurn2(turn2);

        assertCallSentBack(gateway.gemini.requests().get(before), "{}");
        assertThat(answer.path("output").toString()).contains("Mexico City");
    }

    @Test
    void geminiGetsItsCallsSignatureBackForACallSentByCallIdOnlyAsTheAiSdkDoes() {
        JsonNode turn1 = geminiTurn1();
        int before = gateway.gemini.requests().size();

        ObjectNode turn2 = geminiRequest();
        ArrayNode input = turn2.putArray("input");
        input.addObject().put("role", "user").putArray("content").addObject().put("type", "input_text").put("text", QUESTION);
        input.addObject().put("type", "function_call").put("call_id", Http.callId(turn1)).put("name", "get_country")
                .put("arguments", "{ }");
        input.add(Http.toolOutput(Http.callId(turn1), "Mexico"));
        geminiTurn2(turn2);

        // the client re-serialized the arguments: equal as JSON, so the backend gets its own call back
        assertCallSentBack(gateway.gemini.requests().get(before), "{}");
    }

    @Test
    void aCallWhoseArgumentsTheClientChangedKeepsThemAndGetsItsSignature() {
        JsonNode turn1 = geminiTurn1();
        int before = gateway.gemini.requests().size();

        ObjectNode turn2 = geminiRequest();
        ArrayNode input = turn2.putArray("input");
        input.addObject().put("role", "user").put("content", QUESTION);
        for (JsonNode item : turn1.path("output")) {
            input.add("function_call".equals(item.path("type").asString())
                    ? ((ObjectNode) item.deepCopy()).put("arguments", "{\"country\":\"France\"}") : item);
        }
        input.add(Http.toolOutput(Http.callId(turn1), "France"));
        geminiTurn2(turn2);

        // the call id is the call's identity: the client's arguments go, with the call's signature
        assertCallSentBack(gateway.gemini.requests().get(before), "{\"country\":\"France\"}");
    }

    @Test
    void aCallIdTheGatewayDidNotIssueRestoresNothing() {
        geminiTurn1();
        int before = gateway.gemini.requests().size();

        ObjectNode turn2 = geminiRequest();
        ArrayNode input = turn2.putArray("input");
        input.addObject().put("role", "user").put("content", QUESTION);
        input.addObject().put("type", "function_call").put("call_id", "call_1").put("name", "get_country")
                .put("arguments", "{}");
        input.add(Http.toolOutput("call_1", "Mexico"));
        Http.Failure failure = http.fail(turn2);

        // a foreign call of the current turn has no signature, which Gemini 3 rejects: nothing of turn 1 went
        assertThat(failure.status()).isEqualTo(502);
        RecordedRequest sent = gateway.gemini.requests().get(before);
        assertThat(sent.rejectedBy()).isNotNull();
        assertThat(sent.body()).doesNotContain(field(GEMINI_TURN1, "thoughtSignature"));
    }

    private static ObjectNode geminiRequest() {
        ObjectNode request = Http.request("gemini-3", null);
        request.putArray("tools").addObject().put("type", "function").put("name", "get_country")
                .putObject("parameters").put("type", "object");
        return request;
    }

    /** Turn 1 with store on (the default). */
    private static JsonNode geminiTurn1() {
        ProviderEmulator gemini = gateway.gemini;
        gemini.enqueue(EmulatorResponse.replay(GatewayHarness.fixture(GEMINI_TURN1), "text/event-stream"));
        ObjectNode request = geminiRequest().put("input", QUESTION);
        JsonNode turn1 = http.post(request);
        assertThat(Http.types(turn1.path("output"))).contains("function_call");
        assertThat(turn1.toString()).doesNotContain("encrypted_content");
        return turn1;
    }

    /** Turn 2, answered with its recording. */
    private static JsonNode geminiTurn2(ObjectNode request) {
        gateway.gemini.enqueue(EmulatorResponse.replay(GatewayHarness.fixture(GEMINI_TURN2), "text/event-stream"));
        return http.post(request);
    }

    /** Gemini accepted the request and got its call back with the thought signature it sent. */
    private static void assertCallSentBack(RecordedRequest sent, String arguments) {
        assertThat(sent.rejectedBy()).isNull();
        JsonNode modelTurn = Http.json(sent.body()).path("contents").get(1);
        assertThat(modelTurn.path("role").asString()).isEqualTo("model");
        JsonNode call = modelTurn.path("parts").get(0);
        assertThat(call.path("functionCall").path("name").asString()).isEqualTo("get_country");
        assertThat(call.path("functionCall").path("args").toString()).isEqualTo(arguments);
        assertThat(call.path("thoughtSignature").asString()).isEqualTo(field(GEMINI_TURN1, "thoughtSignature"));
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
        assertThat(assistant.path("content").get(1).path("type").asString()).isEqualTo("text");
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
