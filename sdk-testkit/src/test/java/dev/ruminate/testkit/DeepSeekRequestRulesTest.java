package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The DeepSeek request rules of 0.3, each written from PROTOCOLS.md and DeepSeek's guides:
 * no forced tool choice in thinking mode, JSON mode only with "json" in the prompt, text only.
 */
class DeepSeekRequestRulesTest {

    private static final String V4_PARALLEL = "deepseek/crush-hyper-deepseek-v4-pro-reasoning-parallel-tools-stream.turn4.request.json";

    private final AcceptanceRules rules = AcceptanceRules.deepSeek();

    private Violation check(JsonNode body) {
        return rules.check(Sendback.post("/chat/completions", body));
    }

    private static ObjectNode body(String json) {
        return (ObjectNode) Sendback.JSON.readTree(json);
    }

    @Test
    void aForcedToolChoiceInThinkingModeIsRefusedWithOpenAisErrorBody() {
        ObjectNode forced = body("{\"model\":\"deepseek-v4-flash\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"answer\",\"parameters\":{\"type\":\"object\"}}}],"
                + "\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"answer\"}}}");

        Violation violation = check(forced);

        assertThat(violation).isNotNull();
        assertThat(violation.rule()).isEqualTo(DeepSeekForcedToolChoiceRule.NAME);
        assertThat(violation.status()).isEqualTo(400);
        JsonNode error = Sendback.errorBody(rules, violation).get("error");
        assertThat(error.get("type").asString()).isEqualTo("invalid_request_error");
        assertThat(error.get("param").asString()).isEqualTo("tool_choice");

        forced.put("tool_choice", "required");
        assertThat(check(forced)).isNotNull();
    }

    @Test
    void autoOrNoneOrThinkingOffPass() {
        ObjectNode request = body("{\"model\":\"deepseek-v4-flash\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                + "\"tool_choice\":\"auto\"}");
        assertThat(check(request)).isNull();
        request.put("tool_choice", "none");
        assertThat(check(request)).isNull();

        request.set("tool_choice", Sendback.JSON.readTree("{\"type\":\"function\",\"function\":{\"name\":\"f\"}}"));
        request.set("thinking", Sendback.JSON.readTree("{\"type\":\"disabled\"}"));
        assertThat(check(request)).isNull();
        request.put("model", "deepseek-chat");
        request.remove("thinking");
        assertThat(check(request)).isNull();
        request.put("model", "deepseek-reasoner");
        assertThat(check(request)).isNotNull();
    }

    @Test
    void jsonModeNeedsTheWordJsonSomewhereInTheMessages() {
        ObjectNode request = body("{\"model\":\"deepseek-chat\",\"messages\":[{\"role\":\"user\",\"content\":\"Give me a city\"}],"
                + "\"response_format\":{\"type\":\"json_object\"}}");

        Violation violation = check(request);
        assertThat(violation).isNotNull();
        assertThat(violation.rule()).isEqualTo(JsonObjectPromptRule.NAME);
        assertThat(violation.message()).contains("must contain the word 'json'");

        request.set("messages", Sendback.JSON.readTree("[{\"role\":\"system\",\"content\":\"Answer in JSON.\"},"
                + "{\"role\":\"user\",\"content\":\"Give me a city\"}]"));
        assertThat(check(request)).isNull();
        request.set("messages", Sendback.JSON.readTree("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"as json\"}]}]"));
        assertThat(check(request)).isNull();
        request.set("response_format", Sendback.JSON.readTree("{\"type\":\"text\"}"));
        request.set("messages", Sendback.JSON.readTree("[{\"role\":\"user\",\"content\":\"Give me a city\"}]"));
        assertThat(check(request)).isNull();
    }

    @Test
    void imagePartsAreRefusedTextPartsPass() {
        ObjectNode request = body("{\"model\":\"deepseek-chat\",\"messages\":[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,iVBORw0KGgo=\"}},"
                + "{\"type\":\"text\",\"text\":\"What is this?\"}]}]}");

        Violation violation = check(request);
        assertThat(violation).isNotNull();
        assertThat(violation.rule()).isEqualTo(TextOnlyContentRule.NAME);
        assertThat(violation.message()).contains("image_url");

        request.set("messages", Sendback.JSON.readTree("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}]"));
        assertThat(check(request)).isNull();
        assertThat(AcceptanceRules.chatCompletionsTextOnly().names()).containsExactly(TextOnlyContentRule.NAME);
    }

    @Test
    void theRequestsDeepSeekAcceptedStillPass() {
        assertThat(check(Sendback.body(V4_PARALLEL))).isNull();
    }
}
