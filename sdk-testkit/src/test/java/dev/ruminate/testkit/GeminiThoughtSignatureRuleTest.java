package dev.ruminate.testkit;

import static dev.ruminate.testkit.Sendback.array;
import static dev.ruminate.testkit.Sendback.object;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class GeminiThoughtSignatureRuleTest {

    private static final String PARALLEL = "gemini/fantasy-gemini31-pro-parallel-calls-signature.turn2.request.json";
    private static final String PARALLEL_PATH = "/v1beta/models/gemini-3-pro-preview:generateContent";
    private static final String SNAKE = "gemini/llmg-gemini3-flash-signed-call-json-array-stream.turn2.request.json";
    private static final String SNAKE_PATH = "/v1beta/models/gemini-3-flash-preview:streamGenerateContent";

    private final AcceptanceRules rules = AcceptanceRules.gemini();

    private Violation check(String path, JsonNode body) {
        return rules.check(Sendback.post(path, body));
    }

    private static ObjectNode firstCall(ObjectNode body) {
        return object(array(array(body, "contents").get(1), "parts").get(0));
    }

    @Test
    void theRequestsGeminiAcceptedPass() {
        // parallel calls: only the first is signed
        assertThat(check(PARALLEL_PATH, Sendback.body(PARALLEL))).isNull();
        assertThat(check(SNAKE_PATH, Sendback.body(SNAKE))).isNull();
    }

    @Test
    void aFirstFunctionCallWithoutItsSignatureIsRefusedWithGeminisErrorBody() {
        ObjectNode body = Sendback.body(PARALLEL);
        firstCall(body).remove("thoughtSignature");

        Violation violation = check(PARALLEL_PATH, body);

        assertThat(violation).isNotNull();
        assertThat(violation.status()).isEqualTo(400);
        assertThat(violation.message()).contains("function call `add`").contains("missing a `thought_signature`");
        JsonNode error = Sendback.errorBody(rules, violation).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(400);
        assertThat(error.get("status").asString()).isEqualTo("INVALID_ARGUMENT");
        assertThat(error.get("message").asString()).isEqualTo(violation.message());
    }

    @Test
    void theSignatureMovedToTheSecondParallelCallIsRefused() {
        ObjectNode body = Sendback.body(PARALLEL);
        JsonNode signature = firstCall(body).remove("thoughtSignature");
        object(array(array(body, "contents").get(1), "parts").get(1)).set("thoughtSignature", signature);

        assertThat(check(PARALLEL_PATH, body)).isNotNull();
    }

    @Test
    void aSnakeCaseCallWithoutItsSignatureIsRefused() {
        ObjectNode body = Sendback.body(SNAKE);
        for (JsonNode part : array(array(body, "contents").get(1), "parts")) {
            object(part).remove("thoughtSignature");
        }

        assertThat(check(SNAKE_PATH, body)).isNotNull();
    }

    @Test
    void turnsBeforeTheLastUserTextAndOlderModelsAreNotChecked() {
        ObjectNode body = Sendback.body(PARALLEL);
        firstCall(body).remove("thoughtSignature");
        assertThat(check("/v1beta/models/gemini-2.5-pro:generateContent", body)).isNull();
        assertThat(rules.without(GeminiThoughtSignatureRule.NAME).check(Sendback.post(PARALLEL_PATH, body))).isNull();

        array(body, "contents").add(Sendback.JSON.readTree("{\"role\":\"model\",\"parts\":[{\"text\":\"5 and 6\"}]}"));
        array(body, "contents").add(Sendback.JSON.readTree("{\"role\":\"user\",\"parts\":[{\"text\":\"Thanks\"}]}"));
        assertThat(check(PARALLEL_PATH, body)).isNull();
    }
}
