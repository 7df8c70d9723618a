package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class GeminiResponseSchemaRuleTest {

    private static final String PATH = "/v1beta/models/gemini-3-flash-preview:generateContent";
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}";

    private final AcceptanceRules rules = AcceptanceRules.gemini();

    private Violation check(String generationConfig) {
        return rules.check(Sendback.post(PATH, Sendback.JSON.readTree("{\"contents\":[{\"role\":\"user\",\"parts\":"
                + "[{\"text\":\"Where?\"}]}],\"generationConfig\":" + generationConfig + "}")));
    }

    @Test
    void aJsonSchemaWithTheJsonMediaTypePasses() {
        assertThat(check("{\"responseMimeType\":\"application/json\",\"responseJsonSchema\":" + SCHEMA + "}")).isNull();
        assertThat(check("{\"response_mime_type\":\"application/json\",\"response_json_schema\":" + SCHEMA + "}")).isNull();
        assertThat(check("{\"responseMimeType\":\"text/x.enum\",\"responseSchema\":{\"type\":\"STRING\",\"enum\":[\"a\"]}}"))
                .isNull();
        assertThat(check("{\"responseMimeType\":\"application/json\"}")).isNull();
        assertThat(check("{\"temperature\":0.2}")).isNull();
    }

    @Test
    void aJsonSchemaWithoutTheJsonMediaTypeIsRefusedAsInvalidArgument() {
        Violation missing = check("{\"responseJsonSchema\":" + SCHEMA + "}");
        Violation text = check("{\"responseMimeType\":\"text/plain\",\"responseJsonSchema\":" + SCHEMA + "}");

        assertThat(missing).isNotNull();
        assertThat(missing.rule()).isEqualTo(GeminiResponseSchemaRule.NAME);
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.message()).contains("response_mime_type").contains("response_json_schema");
        assertThat(text).isNotNull();
        JsonNode error = Sendback.errorBody(rules, missing).get("error");
        assertThat(error.get("status").asString()).isEqualTo("INVALID_ARGUMENT");
        assertThat(error.get("code").asInt()).isEqualTo(400);
    }

    @Test
    void theOlderSchemaNeedsAJsonOrEnumTypeAndBothSchemasTogetherAreRefused() {
        assertThat(check("{\"responseSchema\":{\"type\":\"OBJECT\"}}")).isNotNull();
        assertThat(check("{\"responseMimeType\":\"application/json\",\"responseSchema\":{\"type\":\"OBJECT\"},"
                + "\"responseJsonSchema\":" + SCHEMA + "}").message()).contains("cannot both be set");
        assertThat(rules.without(GeminiResponseSchemaRule.NAME).check(Sendback.post(PATH, Sendback.JSON.readTree(
                "{\"generationConfig\":{\"responseJsonSchema\":" + SCHEMA + "}}")))).isNull();
    }
}
