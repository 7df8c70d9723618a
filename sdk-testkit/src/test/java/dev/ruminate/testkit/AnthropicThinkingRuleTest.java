package dev.ruminate.testkit;

import static dev.ruminate.testkit.Sendback.array;
import static dev.ruminate.testkit.Sendback.object;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

class AnthropicThinkingRuleTest {

    private static final String ACCEPTED = "anthropic/pydantic-thinking-tool-use.turn2.request.json";

    private final AcceptanceRules rules = AcceptanceRules.anthropic();

    private Violation check(JsonNode body) {
        return rules.check(Sendback.post("/v1/messages", body));
    }

    /** The assistant turn of the accepted request: thinking, text, tool_use. */
    private static ArrayNode toolTurn(ObjectNode body) {
        return array(array(body, "messages").get(1), "content");
    }

    @Test
    void theRequestAnthropicAcceptedPasses() {
        assertThat(check(Sendback.body(ACCEPTED))).isNull();
    }

    @Test
    void aThinkingBlockWithoutItsSignatureIsRefusedWithAnthropicsErrorBody() {
        ObjectNode body = Sendback.body(ACCEPTED);
        object(toolTurn(body).get(0)).remove("signature");

        Violation violation = check(body);

        assertThat(violation).isNotNull();
        assertThat(violation.status()).isEqualTo(400);
        assertThat(violation.rule()).isEqualTo(AnthropicThinkingRule.NAME);
        assertThat(violation.message()).isEqualTo("messages.1.content.0.thinking.signature: Field required");
        JsonNode error = Sendback.errorBody(rules, violation);
        assertThat(error.get("type").asString()).isEqualTo("error");
        assertThat(error.get("error").get("type").asString()).isEqualTo("invalid_request_error");
        assertThat(error.get("error").get("message").asString()).isEqualTo(violation.message());
    }

    @Test
    void anEmptySignatureIsRefused() {
        ObjectNode body = Sendback.body(ACCEPTED);
        object(toolTurn(body).get(0)).put("signature", "");

        assertThat(check(body)).isNotNull();
    }

    @Test
    void aThinkingBlockMovedAfterTheToolUseIsRefused() {
        ObjectNode body = Sendback.body(ACCEPTED);
        ArrayNode turn = toolTurn(body);
        JsonNode thinking = turn.remove(0);
        turn.add(thinking);

        Violation violation = check(body);

        assertThat(violation).isNotNull();
        assertThat(violation.message()).startsWith("messages.1.content.0.type: Expected `thinking` or `redacted_thinking`,"
                + " but found `text`");
    }

    @Test
    void aDroppedThinkingBlockIsRefused() {
        ObjectNode body = Sendback.body(ACCEPTED);
        toolTurn(body).remove(0);

        assertThat(check(body)).isNotNull();
    }

    @Test
    void aRedactedBlockWithoutItsDataIsRefused() {
        ObjectNode body = Sendback.body(ACCEPTED);
        toolTurn(body).insert(1, Sendback.JSON.readTree("{\"type\":\"redacted_thinking\"}"));

        assertThat(check(body).message()).isEqualTo("messages.1.content.1.redacted_thinking.data: Field required");
    }

    @Test
    void withoutThinkingEnabledNothingIsChecked() {
        ObjectNode body = Sendback.body(ACCEPTED);
        toolTurn(body).remove(0);
        body.remove("thinking");

        assertThat(check(body)).isNull();
    }

    @Test
    void anEarlierCycleAfterANewUserTextIsNotChecked() {
        ObjectNode body = Sendback.body(ACCEPTED);
        toolTurn(body).remove(0);
        array(body, "messages").add(Sendback.JSON.readTree("{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Mexico City\"}]}"));
        array(body, "messages").add(Sendback.JSON.readTree("{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Thanks\"}]}"));

        assertThat(check(body)).isNull();
    }

    @Test
    void switchedOffTheRuleLetsTheBrokenRequestThrough() {
        ObjectNode body = Sendback.body(ACCEPTED);
        object(toolTurn(body).get(0)).remove("signature");

        assertThat(rules.without(AnthropicThinkingRule.NAME).check(Sendback.post("/v1/messages", body))).isNull();
    }
}
