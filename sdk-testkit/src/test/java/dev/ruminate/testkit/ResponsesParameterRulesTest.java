package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The Responses parameter rules: a json_schema {@code text.format} without its name or schema, an
 * inline {@code input_image} that is not an image, and sampling parameters on a reasoning model are
 * each refused with OpenAI's error; well-formed requests, and a recorded accepted one, pass.
 */
class ResponsesParameterRulesTest {

    private static final String ACCEPTED = "openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn2.request.json";

    private final AcceptanceRules rules = AcceptanceRules.responses();

    private @Nullable Violation check(String json) {
        return rules.check(Sendback.post("/v1/responses", Sendback.JSON.readTree(json)));
    }

    private JsonNode error(Violation violation) {
        return Sendback.errorBody(rules, violation).get("error");
    }

    @Test
    void aRecordedAcceptedRequestAndWellFormedOnesPass() {
        assertThat(rules.check(Sendback.post("/v1/responses", Sendback.body(ACCEPTED)))).isNull();
        assertThat(check("{\"model\":\"gpt-5.1\",\"input\":\"hi\",\"text\":{\"format\":{\"type\":\"json_schema\","
                + "\"name\":\"a\",\"schema\":{\"type\":\"object\"},\"strict\":true},\"verbosity\":\"low\"}}")).isNull();
        assertThat(check("{\"model\":\"gpt-5.1\",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_image\","
                + "\"image_url\":\"data:image/png;base64,iVBORw0KGgo=\"},{\"type\":\"input_image\","
                + "\"image_url\":\"https://example.com/a.pdf\"},{\"type\":\"input_text\",\"text\":\"x\"}]}]}")).isNull();
        assertThat(check("{\"model\":\"gpt-4.1\",\"input\":\"hi\",\"temperature\":0.2,\"top_p\":0.5}")).isNull();
        assertThat(check("{\"model\":\"gpt-5-chat-latest\",\"input\":\"hi\",\"temperature\":0.2}")).isNull();
        assertThat(check("{\"model\":\"gpt-5.2\",\"input\":\"hi\",\"temperature\":0.2,\"reasoning\":{\"effort\":\"none\"}}"))
                .isNull();
    }

    @Test
    void aJsonSchemaFormatWithoutItsNameOrSchemaIsRefused() {
        Violation noName = check("{\"model\":\"gpt-5.1\",\"input\":\"hi\",\"text\":{\"format\":{\"type\":\"json_schema\","
                + "\"schema\":{\"type\":\"object\"}}}}");
        assertThat(noName).isNotNull();
        assertThat(noName.rule()).isEqualTo(ResponsesTextFormatRule.NAME);
        assertThat(noName.status()).isEqualTo(400);
        JsonNode error = error(noName);
        assertThat(error.get("message").asString()).isEqualTo("Missing required parameter: 'text.format.name'.");
        assertThat(error.get("param").asString()).isEqualTo("text.format.name");
        assertThat(error.get("code").asString()).isEqualTo("missing_required_parameter");

        Violation noSchema = check("{\"model\":\"gpt-5.1\",\"input\":\"hi\",\"text\":{\"format\":{\"type\":\"json_schema\","
                + "\"name\":\"a\"}}}");
        assertThat(noSchema).isNotNull();
        assertThat(error(noSchema).get("message").asString()).isEqualTo("Missing required parameter: 'text.format.schema'.");

        Violation notObject = check("{\"model\":\"gpt-5.1\",\"input\":\"hi\",\"text\":{\"format\":{\"type\":\"json_schema\","
                + "\"name\":\"a\",\"schema\":\"{}\"}}}");
        assertThat(notObject).isNotNull();
        assertThat(error(notObject).get("code").asString()).isEqualTo("invalid_type");
    }

    @Test
    void anInlineImageThatIsNotAnImageIsRefused() {
        Violation pdf = check("{\"model\":\"gpt-5.1\",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\","
                + "\"text\":\"x\"},{\"type\":\"input_image\",\"image_url\":\"data:application/pdf;base64,JVBERi0=\"}]}]}");
        assertThat(pdf).isNotNull();
        assertThat(pdf.rule()).isEqualTo(ResponsesInputImageRule.NAME);
        JsonNode error = error(pdf);
        assertThat(error.get("message").asString()).isEqualTo("Invalid 'input[0].content[1].image_url'. Expected a"
                + " base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='),"
                + " but got unsupported MIME type 'application/pdf'.");
        assertThat(error.get("param").asString()).isEqualTo("input[0].content[1].image_url");
        assertThat(error.get("code").asString()).isEqualTo("invalid_value");

        Violation inToolResult = check("{\"model\":\"gpt-5.1\",\"input\":[{\"type\":\"function_call_output\","
                + "\"call_id\":\"c\",\"output\":[{\"type\":\"input_image\",\"image_url\":\"data:text/plain;base64,eA==\"}]}]}");
        assertThat(inToolResult).isNotNull();
        assertThat(inToolResult.param()).isEqualTo("input[0].output[0].image_url");

        assertThat(rules.without(ResponsesInputImageRule.NAME).check(Sendback.post("/v1/responses",
                Sendback.JSON.readTree("{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":"
                        + "\"input_image\",\"image_url\":\"data:application/pdf;base64,JVBERi0=\"}]}]}")))).isNull();
    }

    @Test
    void samplingOnAReasoningModelIsRefused() {
        Violation o3 = check("{\"model\":\"o3\",\"input\":\"hi\",\"temperature\":0.2}");
        assertThat(o3).isNotNull();
        assertThat(o3.rule()).isEqualTo(ResponsesSamplingRule.NAME);
        JsonNode error = error(o3);
        assertThat(error.get("message").asString()).isEqualTo("Unsupported parameter: 'temperature' is not supported with"
                + " this model.");
        assertThat(error.get("param").asString()).isEqualTo("temperature");
        assertThat(error.get("code").asString()).isEqualTo("unsupported_parameter");

        assertThat(check("{\"model\":\"openai/gpt-5-mini\",\"input\":\"hi\",\"top_p\":0.9}")).isNotNull();
        assertThat(check("{\"model\":\"gpt-5.2\",\"input\":\"hi\",\"temperature\":1,\"reasoning\":{\"effort\":\"low\"}}"))
                .isNotNull();
        assertThat(check("{\"model\":\"o4-mini\",\"input\":\"hi\"}")).isNull();
    }
}
