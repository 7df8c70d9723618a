package dev.ruminate.testkit;

import static dev.ruminate.testkit.Sendback.array;
import static dev.ruminate.testkit.Sendback.object;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class DeepSeekReasoningContentRuleTest {

    private static final String REASONER = "deepseek/pydantic-deepseek-reasoner-tool-calls.turn3.request.json";
    private static final String V4_PARALLEL = "deepseek/crush-hyper-deepseek-v4-pro-reasoning-parallel-tools-stream.turn4.request.json";

    private final AcceptanceRules rules = AcceptanceRules.deepSeek();

    private Violation check(JsonNode body) {
        return rules.check(Sendback.post("/chat/completions", body));
    }

    @Test
    void theRequestsDeepSeekAcceptedPass() {
        // the reasoner request holds a synthesized tool-call turn with reasoning_content "" (accepted)
        assertThat(check(Sendback.body(REASONER))).isNull();
        assertThat(check(Sendback.body(V4_PARALLEL))).isNull();
    }

    @Test
    void anAssistantToolCallTurnWithoutReasoningContentIsRefusedWithOpenAisErrorBody() {
        ObjectNode body = Sendback.body(REASONER);
        object(array(body, "messages").get(7)).remove("reasoning_content");

        Violation violation = check(body);

        assertThat(violation).isNotNull();
        assertThat(violation.status()).isEqualTo(400);
        assertThat(violation.rule()).isEqualTo(DeepSeekReasoningContentRule.NAME);
        JsonNode error = Sendback.errorBody(rules, violation).get("error");
        assertThat(error.propertyNames()).containsExactly("message", "type", "param", "code");
        assertThat(error.get("message").asString()).isEqualTo("The reasoning_content in the thinking mode must be passed back to the API.");
        assertThat(error.get("type").asString()).isEqualTo("invalid_request_error");
        assertThat(error.get("param").isNull()).isTrue();
    }

    @Test
    void aParallelCallTurnWithReasoningContentNullIsRefused() {
        ObjectNode body = Sendback.body(V4_PARALLEL);
        object(array(body, "messages").get(3)).putNull("reasoning_content");

        assertThat(check(body)).isNotNull();
    }

    @Test
    void outsideThinkingModeOrSwitchedOffNothingIsChecked() {
        ObjectNode body = Sendback.body(REASONER);
        object(array(body, "messages").get(3)).remove("reasoning_content");
        assertThat(rules.without(DeepSeekReasoningContentRule.NAME).check(Sendback.post("/chat/completions", body))).isNull();

        body.put("model", "deepseek-chat");
        assertThat(check(body)).isNull();
        body.set("thinking", Sendback.JSON.readTree("{\"type\":\"enabled\"}"));
        assertThat(check(body)).isNotNull();
    }
}
