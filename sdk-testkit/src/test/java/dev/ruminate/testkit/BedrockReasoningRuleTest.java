package dev.ruminate.testkit;

import static dev.ruminate.testkit.Sendback.array;
import static dev.ruminate.testkit.Sendback.object;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

class BedrockReasoningRuleTest {

    private static final String ACCEPTED = "bedrock/pydantic-bedrock-claude-reasoning-tool-use.turn2.request.json";
    private static final String PATH = "/model/us.anthropic.claude-3-7-sonnet-20250219-v1%3A0/converse";

    private final AcceptanceRules rules = AcceptanceRules.bedrock();

    private Violation check(JsonNode body) {
        return rules.check(Sendback.post(PATH, body));
    }

    /** The assistant turn of the accepted request: reasoningContent, text, toolUse. */
    private static ArrayNode toolTurn(ObjectNode body) {
        return array(array(body, "messages").get(1), "content");
    }

    @Test
    void theRequestBedrockAcceptedPasses() {
        assertThat(check(Sendback.body(ACCEPTED))).isNull();
    }

    @Test
    void reasoningWithoutItsSignatureIsRefusedAsAValidationException() {
        ObjectNode body = Sendback.body(ACCEPTED);
        object(toolTurn(body).get(0).get("reasoningContent").get("reasoningText")).remove("signature");

        Violation violation = check(body);

        assertThat(violation).isNotNull();
        assertThat(violation.status()).isEqualTo(400);
        assertThat(violation.message()).contains("messages.1.content.0.thinking.signature: Field required");
        EmulatorResponse response = rules.reject(violation);
        assertThat(response.headers()).contains(Map.entry("x-amzn-ErrorType",
                "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/"));
        JsonNode error = Sendback.errorBody(rules, violation);
        assertThat(error.propertyNames()).containsExactly("message");
        assertThat(error.get("message").asString()).isEqualTo(violation.message());
    }

    @Test
    void reasoningMovedAfterTheToolUseIsRefused() {
        ObjectNode body = Sendback.body(ACCEPTED);
        ArrayNode turn = toolTurn(body);
        turn.add(turn.remove(0));

        assertThat(check(body).message()).contains("Expected `thinking` or `redacted_thinking`");
    }

    @Test
    void droppedReasoningIsRefused() {
        ObjectNode body = Sendback.body(ACCEPTED);
        toolTurn(body).remove(0);

        assertThat(check(body)).isNotNull();
    }

    @Test
    void redactedReasoningPasses() {
        ObjectNode body = Sendback.body(ACCEPTED);
        toolTurn(body).set(0, Sendback.JSON.readTree("{\"reasoningContent\":{\"redactedContent\":\"RXRrRUNr\"}}"));

        assertThat(check(body)).isNull();
    }

    @Test
    void withoutThinkingEnabledOrSwitchedOffNothingIsChecked() {
        ObjectNode body = Sendback.body(ACCEPTED);
        toolTurn(body).remove(0);
        assertThat(rules.without(BedrockReasoningRule.NAME).check(Sendback.post(PATH, body))).isNull();

        body.remove("additionalModelRequestFields");
        assertThat(check(body)).isNull();
    }
}
