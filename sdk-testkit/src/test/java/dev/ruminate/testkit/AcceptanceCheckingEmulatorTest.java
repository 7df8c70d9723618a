package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A checking emulator over HTTP: refused requests get the provider's error and keep the queue; accepted ones are served. */
@ExtendWith(NettyLeakCheck.class)
class AcceptanceCheckingEmulatorTest {

    private static final String ACCEPTED = "anthropic/pydantic-thinking-tool-use.turn2.request.json";
    private static final Map<String, String> JSON_HEADERS = Map.of("content-type", "application/json");

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private static String unsigned() {
        ObjectNode body = Sendback.body(ACCEPTED);
        Sendback.object(body.get("messages").get(1).get("content").get(0)).remove("signature");
        return body.toString();
    }

    @Test
    void aRefusedRequestGetsTheProvidersErrorIsRecordedWithItsRuleAndLeavesTheQueuedResponse() {
        emulator.checking(AcceptanceRules.anthropic());
        emulator.enqueue(AnthropicScript.create().text("Mexico City").toResponse());

        Http.Received refused = Http.post(emulator.baseUrl(), "/v1/messages", JSON_HEADERS, unsigned());
        Http.Received served = Http.post(emulator.baseUrl(), "/v1/messages", JSON_HEADERS, Sendback.text(ACCEPTED));

        assertThat(refused.status()).isEqualTo(400);
        JsonNode error = Sendback.JSON.readTree(new String(refused.body(), StandardCharsets.UTF_8));
        assertThat(error.get("type").asString()).isEqualTo("error");
        assertThat(error.get("error").get("message").asString()).contains("thinking.signature: Field required");
        assertThat(served.status()).isEqualTo(200);
        assertThat(new String(served.body(), StandardCharsets.UTF_8)).contains("\"text\":\"Mexi");
        assertThat(emulator.requests()).extracting(RecordedRequest::rejectedBy)
                .containsExactly(AnthropicThinkingRule.NAME, null);
        assertThat(emulator.requests().get(0).toString()).contains("rejectedBy=" + AnthropicThinkingRule.NAME);
    }

    @Test
    void aRuleSwitchedOffOrCheckingStoppedServesTheBrokenRequest() {
        emulator.checking(AcceptanceRules.anthropic().without(AnthropicThinkingRule.NAME));
        emulator.always(AnthropicScript.create().text("ok").toResponse());

        assertThat(Http.post(emulator.baseUrl(), "/v1/messages", JSON_HEADERS, unsigned()).status()).isEqualTo(200);
        emulator.checking(AcceptanceRules.anthropic()).checking(null);
        assertThat(Http.post(emulator.baseUrl(), "/v1/messages", JSON_HEADERS, unsigned()).status()).isEqualTo(200);
        assertThat(emulator.requests()).extracting(RecordedRequest::rejectedBy).containsOnlyNulls();
    }

    @Test
    void theResponsesRuleLearnsFromAServedStreamWhichCallFollowedReasoning() {
        emulator.checking(AcceptanceRules.responses());
        emulator.enqueue(ResponsesScript.create().reasoning("rs_1", "enc-1", "Paris first.")
                .functionCall("call_1", "weather", "{\"city\":\"Paris\"}").toResponse());
        emulator.always(ResponsesScript.create().text("Paris 20.").toResponse());
        String first = "{\"model\":\"o4-mini\",\"store\":false,\"input\":[{\"role\":\"user\",\"content\":\"Weather?\"}]}";
        String withReasoning = "{\"model\":\"o4-mini\",\"store\":false,\"input\":[{\"role\":\"user\",\"content\":\"Weather?\"},"
                + "{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[],\"encrypted_content\":\"enc-1\"},"
                + "{\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"weather\",\"arguments\":\"{}\"},"
                + "{\"type\":\"function_call_output\",\"call_id\":\"call_1\",\"output\":\"20\"}]}";
        String without = withReasoning.replace("{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[],\"encrypted_content\":\"enc-1\"},", "");

        assertThat(Http.post(emulator.baseUrl(), "/v1/responses", JSON_HEADERS, first).status()).isEqualTo(200);
        Http.Received refused = Http.post(emulator.baseUrl(), "/v1/responses", JSON_HEADERS, without);
        Http.Received accepted = Http.post(emulator.baseUrl(), "/v1/responses", JSON_HEADERS, withReasoning);

        assertThat(refused.status()).isEqualTo(400);
        assertThat(new String(refused.body(), StandardCharsets.UTF_8))
                .contains("'call_1' of type 'function_call' was provided without its required 'reasoning' item: 'rs_1'");
        assertThat(accepted.status()).isEqualTo(200);
    }

    @Test
    void aBodyThatIsNotJsonIsNotChecked() {
        emulator.checking(AcceptanceRules.deepSeek()).always(EmulatorResponse.json(200, "{}"));

        assertThat(Http.get(emulator.baseUrl(), "/v1/models").status()).isEqualTo(200);
        assertThat(emulator.requests().get(0).rejectedBy()).isNull();
    }
}
