package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A forced tool choice while thinking is on is refused by Anthropic ({@link AnthropicToolChoiceRule})
 * and by Bedrock for Claude ({@link BedrockToolChoiceRule}), checked on requests the APIs accepted
 * with one field changed.
 */
class ForcedToolWithThinkingRulesTest {

    /** Thinking enabled (budget 3000) with {@code tool_choice: {"type":"auto"}}. */
    private static final String ANTHROPIC = "anthropic/pydantic-thinking-tool-use.turn2.request.json";
    /** Adaptive thinking through {@code additionalModelRequestFields}, no toolConfig. */
    private static final String BEDROCK = "bedrock/pydantic-bedrock-claude-adaptive-effort.turn2.request.json";
    private static final String BEDROCK_PATH = "/model/us.anthropic.claude-sonnet-4-6/converse";

    private static Violation anthropic(AcceptanceRules rules, JsonNode body) {
        return rules.check(Sendback.post("/v1/messages", body));
    }

    private static ObjectNode forced(String type) {
        ObjectNode body = Sendback.body(ANTHROPIC);
        ObjectNode choice = body.putObject("tool_choice");
        choice.put("type", type);
        if (type.equals("tool")) {
            choice.put("name", "get_user_country");
        }
        return body;
    }

    @Test
    void anthropicAcceptsAutoToolChoiceWithThinking() {
        assertThat(anthropic(AcceptanceRules.anthropic(), Sendback.body(ANTHROPIC))).isNull();
    }

    @Test
    void anthropicRefusesAToolChoiceOfTypeToolWithThinkingInItsErrorBody() {
        AcceptanceRules rules = AcceptanceRules.anthropic();

        Violation violation = anthropic(rules, forced("tool"));

        assertThat(violation).isNotNull();
        assertThat(violation.status()).isEqualTo(400);
        assertThat(violation.rule()).isEqualTo(AnthropicToolChoiceRule.NAME);
        assertThat(violation.message()).isEqualTo("Thinking may not be enabled when tool_choice forces tool use.");
        JsonNode error = Sendback.errorBody(rules, violation);
        assertThat(error.get("type").asString()).isEqualTo("error");
        assertThat(error.get("error").get("type").asString()).isEqualTo("invalid_request_error");
        assertThat(error.get("error").get("message").asString()).isEqualTo(violation.message());
    }

    @Test
    void anthropicRefusesAnyAndAdaptiveThinkingToo() {
        assertThat(anthropic(AcceptanceRules.anthropic(), forced("any"))).isNotNull();
        ObjectNode adaptive = forced("tool");
        adaptive.putObject("thinking").put("type", "adaptive");
        assertThat(anthropic(AcceptanceRules.anthropic(), adaptive)).isNotNull();
    }

    @Test
    void anthropicAcceptsAForcedToolWhenThinkingIsDisabledOrTheRuleIsOff() {
        ObjectNode disabled = forced("tool");
        disabled.putObject("thinking").put("type", "disabled");
        assertThat(anthropic(AcceptanceRules.anthropic(), disabled)).isNull();
        assertThat(anthropic(AcceptanceRules.anthropic().without(AnthropicToolChoiceRule.NAME), forced("tool"))).isNull();
    }

    private static ObjectNode bedrockWithChoice(String choice) {
        ObjectNode body = Sendback.body(BEDROCK);
        ObjectNode toolConfig = body.putObject("toolConfig");
        ObjectNode spec = toolConfig.putArray("tools").addObject().putObject("toolSpec");
        spec.put("name", "answer");
        spec.putObject("inputSchema").putObject("json").put("type", "object");
        ObjectNode toolChoice = toolConfig.putObject("toolChoice");
        if (choice.equals("tool")) {
            toolChoice.putObject("tool").put("name", "answer");
        } else {
            toolChoice.putObject(choice);
        }
        return body;
    }

    @Test
    void bedrockRefusesAForcedToolWithThinkingAsAValidationException() {
        AcceptanceRules rules = AcceptanceRules.bedrock();
        assertThat(rules.check(Sendback.post(BEDROCK_PATH, Sendback.body(BEDROCK)))).isNull();

        Violation violation = rules.check(Sendback.post(BEDROCK_PATH, bedrockWithChoice("tool")));

        assertThat(violation).isNotNull();
        assertThat(violation.rule()).isEqualTo(BedrockToolChoiceRule.NAME);
        assertThat(violation.message()).isEqualTo("The model returned the following errors: "
                + "Thinking may not be enabled when tool_choice forces tool use.");
        assertThat(rules.reject(violation).headers()).contains(Map.entry("x-amzn-ErrorType",
                "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/"));
        assertThat(rules.check(Sendback.post(BEDROCK_PATH, bedrockWithChoice("any")))).isNotNull();
    }

    @Test
    void bedrockAcceptsAutoAndAForcedToolWithoutThinking() {
        AcceptanceRules rules = AcceptanceRules.bedrock();
        assertThat(rules.check(Sendback.post(BEDROCK_PATH, bedrockWithChoice("auto")))).isNull();
        ObjectNode noThinking = bedrockWithChoice("tool");
        noThinking.remove("additionalModelRequestFields");
        assertThat(rules.check(Sendback.post(BEDROCK_PATH, noThinking))).isNull();
    }
}
