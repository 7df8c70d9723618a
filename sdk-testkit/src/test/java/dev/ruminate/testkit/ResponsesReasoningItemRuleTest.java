package dev.ruminate.testkit;

import static dev.ruminate.testkit.Sendback.array;
import static dev.ruminate.testkit.Sendback.object;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

class ResponsesReasoningItemRuleTest {

    private static final String GPT5 = "openai-responses/pydantic-gpt5-reasoning-tool-calls.turn2.request.json";
    private static final String GPT55 = "openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn3.request.json";

    private final AcceptanceRules rules = AcceptanceRules.responses();

    /** Serves the recorded responses that came before the request, so the rule knows which call followed reasoning. */
    private AcceptanceRules after(String... responses) {
        for (String response : responses) {
            rules.served(EmulatorResponse.json(200, Sendback.text(response)));
        }
        return rules;
    }

    private AcceptanceRules gpt55() {
        return after("openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn1.json",
                "openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn2.json");
    }

    private AcceptanceRules gpt5() {
        return after("openai-responses/pydantic-gpt5-reasoning-tool-calls.turn1.json");
    }

    private static Violation check(AcceptanceRules rules, JsonNode body) {
        return rules.check(Sendback.post("/v1/responses", body));
    }

    @Test
    void theRequestsOpenAiAcceptedPass() {
        // gpt-5.5 store:false: the second call had no reasoning item in its response, and none goes back
        assertThat(check(gpt55(), Sendback.body(GPT55))).isNull();
        assertThat(check(gpt5(), Sendback.body(GPT5))).isNull();
    }

    @Test
    void aFunctionCallWhoseReasoningItemWasRemovedIsRefusedWithOpenAisErrorBody() {
        ObjectNode body = Sendback.body(GPT55);
        ArrayNode input = array(body, "input");
        String reasoningId = input.get(1).get("id").asString();
        input.remove(1);

        Violation violation = check(gpt55(), body);

        assertThat(violation).isNotNull();
        assertThat(violation.status()).isEqualTo(400);
        assertThat(violation.param()).isEqualTo("input");
        assertThat(violation.message()).contains("of type 'function_call' was provided without its required 'reasoning' item")
                .contains(reasoningId);
        JsonNode error = Sendback.errorBody(rules, violation).get("error");
        assertThat(error.get("type").asString()).isEqualTo("invalid_request_error");
        assertThat(error.get("param").asString()).isEqualTo("input");
        assertThat(error.get("message").asString()).isEqualTo(violation.message());
    }

    @Test
    void aReasoningItemMovedAfterItsFunctionCallIsRefused() {
        ObjectNode body = Sendback.body(GPT5);
        ArrayNode input = array(body, "input");
        JsonNode reasoning = input.remove(1);
        input.insert(2, reasoning);

        Violation violation = check(gpt5(), body);

        // the call now comes first, so the API sees it without the reasoning item it needs
        assertThat(violation).isNotNull();
        assertThat(violation.status()).isEqualTo(400);
        assertThat(violation.message()).contains("was provided without its required 'reasoning' item");
    }

    @Test
    void aReasoningItemWithoutTheItemThatFollowedItIsRefused() {
        ObjectNode body = Sendback.body(GPT5);
        array(body, "input").remove(2);

        Violation violation = check(gpt5(), body);

        assertThat(violation).isNotNull();
        assertThat(violation.message()).contains("of type 'reasoning' was provided without its required following item");
    }

    @Test
    void aReasoningItemWithoutItsEncryptedContentIsNotFoundUnderStoreFalse() {
        ObjectNode body = Sendback.body(GPT55);
        object(array(body, "input").get(1)).remove("encrypted_content");

        Violation violation = check(gpt55(), body);

        assertThat(violation).isNotNull();
        assertThat(violation.status()).isEqualTo(404);
        assertThat(violation.message()).contains("Items are not persisted when `store` is set to false");
    }

    @Test
    void withoutKnowingTheEarlierResponseOrSwitchedOffARemovedItemPasses() {
        ObjectNode body = Sendback.body(GPT55);
        array(body, "input").remove(1);

        assertThat(check(AcceptanceRules.responses(), body)).isNull();
        assertThat(check(gpt55().without(ResponsesReasoningItemRule.NAME), body)).isNull();
    }

    @Test
    void statefulRequestsAreNotChecked() {
        ObjectNode body = Sendback.body(GPT55);
        array(body, "input").remove(1);
        body.remove("include");
        body.put("store", true);

        assertThat(check(gpt55(), body)).isNull();
    }
}
