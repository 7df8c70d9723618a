package dev.ruminate.testkit;

import static dev.ruminate.testkit.Sendback.array;
import static dev.ruminate.testkit.Sendback.object;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The emulators refuse opaque values they did not issue ({@link AnthropicSignatureRule},
 * {@link ResponsesEncryptedContentRule}, {@link GeminiThoughtSignatureRule}): what a served response
 * carried passes, the same value with one character changed is refused with the provider's error,
 * and before anything was issued nothing is checked (scripts without such values keep working).
 */
class IssuedOpaqueStateRulesTest {

    private static JsonNode tree(String json) {
        return Sendback.JSON.readTree(json);
    }

    // ---- Anthropic

    private static ObjectNode anthropicTurn(String signature, String redacted) {
        return (ObjectNode) tree("{\"model\":\"claude-sonnet-4-5\",\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2048},"
                + "\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Hi\"}]},"
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"Hm.\",\"signature\":\"" + signature
                + "\"},{\"type\":\"redacted_thinking\",\"data\":\"" + redacted + "\"},{\"type\":\"text\",\"text\":\"Hello.\"}]},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Again\"}]}]}");
    }

    @Test
    void anthropicRefusesASignatureOrRedactedDataItDidNotIssue() {
        AcceptanceRules rules = AcceptanceRules.anthropic();
        // nothing issued yet: nothing checked
        assertThat(rules.check(Sendback.post("/v1/messages", anthropicTurn("EqQBforged", "EmwKAforged")))).isNull();

        rules.served(AnthropicScript.create().thinking("Hm.", "EqQBissued").redactedThinking("EmwKAissued").text("Hello.")
                .toResponse());

        assertThat(rules.check(Sendback.post("/v1/messages", anthropicTurn("EqQBissued", "EmwKAissued")))).isNull();
        Violation signature = rules.check(Sendback.post("/v1/messages", anthropicTurn("EqQBissuee", "EmwKAissued")));
        assertThat(signature).isNotNull();
        assertThat(signature.rule()).isEqualTo(AnthropicSignatureRule.NAME);
        assertThat(signature.status()).isEqualTo(400);
        assertThat(signature.message()).isEqualTo("messages.1.content.0: Invalid `signature` in `thinking` block");
        JsonNode error = Sendback.errorBody(rules, signature);
        assertThat(error.get("type").asString()).isEqualTo("error");
        assertThat(error.get("error").get("type").asString()).isEqualTo("invalid_request_error");
        Violation redacted = rules.check(Sendback.post("/v1/messages", anthropicTurn("EqQBissued", "EmwKAissuee")));
        assertThat(redacted.message()).isEqualTo("messages.1.content.1: Invalid `data` in `redacted_thinking` block");
    }

    // ---- OpenAI Responses

    private static final String GPT55 = "openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn3.request.json";

    private static AcceptanceRules gpt55() {
        AcceptanceRules rules = AcceptanceRules.responses();
        rules.served(EmulatorResponse.json(200, Sendback.text("openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn1.json")));
        rules.served(EmulatorResponse.json(200, Sendback.text("openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn2.json")));
        return rules;
    }

    private static ObjectNode firstReasoningItem(ObjectNode body) {
        for (JsonNode item : array(body, "input")) {
            if (Nodes.text(item, "type").equals("reasoning")) {
                return object(item);
            }
        }
        throw new AssertionError("no reasoning item");
    }

    @Test
    void responsesRefusesEncryptedContentItDidNotIssueWithInvalidEncryptedContent() {
        assertThat(gpt55().check(Sendback.post("/v1/responses", Sendback.body(GPT55)))).isNull();

        ObjectNode altered = Sendback.body(GPT55);
        ObjectNode item = firstReasoningItem(altered);
        String blob = Nodes.text(item, "encrypted_content");
        item.put("encrypted_content", blob.substring(0, blob.length() / 2) + (blob.charAt(blob.length() / 2) == 'A' ? 'B' : 'A')
                + blob.substring(blob.length() / 2 + 1));
        AcceptanceRules rules = gpt55();
        Violation violation = rules.check(Sendback.post("/v1/responses", altered));

        assertThat(violation).isNotNull();
        assertThat(violation.rule()).isEqualTo(ResponsesEncryptedContentRule.NAME);
        assertThat(violation.message()).isEqualTo("The encrypted content for item " + Nodes.text(item, "id")
                + " could not be verified.");
        JsonNode error = Sendback.errorBody(rules, violation).get("error");
        assertThat(error.get("code").asString()).isEqualTo(ResponsesEncryptedContentRule.CODE);
        assertThat(error.get("type").asString()).isEqualTo("invalid_request_error");
        // a fresh emulator has issued nothing: the same request passes this rule
        assertThat(new ResponsesEncryptedContentRule().check(Sendback.post("/v1/responses", altered), altered)).isNull();
    }

    // ---- Gemini 3

    private static ObjectNode geminiTurn(String signature) {
        return (ObjectNode) tree("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"Weather?\"}]},"
                + "{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":\"weather\",\"args\":{}},\"thoughtSignature\":\""
                + signature + "\"}]},{\"role\":\"user\",\"parts\":[{\"functionResponse\":{\"name\":\"weather\","
                + "\"response\":{\"temp\":20}}}]}]}");
    }

    @Test
    void gemini3RefusesAThoughtSignatureItDidNotIssueButTakesTheSentinel() {
        String path = "/v1beta/models/gemini-3-pro-preview:streamGenerateContent";
        AcceptanceRules rules = AcceptanceRules.gemini();
        assertThat(rules.check(Sendback.post(path, geminiTurn("CiIBforged")))).isNull();

        rules.served(GeminiScript.create().functionCall("weather", "{}", "CiIBissued").toResponse());

        assertThat(rules.check(Sendback.post(path, geminiTurn("CiIBissued")))).isNull();
        assertThat(rules.check(Sendback.post(path, geminiTurn("skip_thought_signature_validator")))).isNull();
        Violation violation = rules.check(Sendback.post(path, geminiTurn("CiIBissuee")));
        assertThat(violation).isNotNull();
        assertThat(violation.message()).contains("function call `weather` in the 1. content block")
                .contains("invalid `thought_signature`");
        assertThat(Sendback.errorBody(rules, violation).get("error").get("status").asString()).isEqualTo("INVALID_ARGUMENT");
        // other models are not checked
        assertThat(rules.check(Sendback.post("/v1beta/models/gemini-2.5-pro:generateContent", geminiTurn("CiIBissuee"))))
                .isNull();
    }
}
