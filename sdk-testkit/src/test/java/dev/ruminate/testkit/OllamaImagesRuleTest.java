package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class OllamaImagesRuleTest {

    private final AcceptanceRules rules = AcceptanceRules.ollama();

    private Violation chat(String images) {
        return rules.check(Sendback.post("/api/chat", Sendback.JSON.readTree("{\"model\":\"llava\",\"messages\":[{\"role\":"
                + "\"user\",\"content\":\"What is this?\",\"images\":" + images + "}],\"stream\":false}")));
    }

    private Violation generate(String images) {
        return rules.check(Sendback.post("/api/generate", Sendback.JSON.readTree("{\"model\":\"llava\",\"prompt\":\"What?\","
                + "\"images\":" + images + "}")));
    }

    @Test
    void paddedStandardBase64Passes() {
        assertThat(chat("[\"iVBORw0KGgo=\",\"/9j/4AAQ\"]")).isNull();
        assertThat(generate("[\"iVBORw0KGgo=\"]")).isNull();
        assertThat(chat("[]")).isNull();
        assertThat(rules.check(Sendback.post("/api/chat", Sendback.JSON.readTree(
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}")))).isNull();
    }

    @Test
    void imagesThatAreNotBase64AreRefusedWithOllamasErrorBody() {
        Violation v = chat("[\"iVBORw0KGgo=\",\"data:image/png;base64,iVBORw0KGgo=\"]");

        assertThat(v).isNotNull();
        assertThat(v.rule()).isEqualTo(OllamaImagesRule.NAME);
        assertThat(v.status()).isEqualTo(400);
        // 'data:' fails at its ':' (byte 4), as Go's decoder reports it
        assertThat(v.message()).isEqualTo("illegal base64 data at input byte 4");
        JsonNode body = Sendback.errorBody(rules, v);
        assertThat(body.get("error").asString()).isEqualTo(v.message());
        assertThat(body.size()).isEqualTo(1);
    }

    @Test
    void unpaddedUrlSafeOrNonStringImagesAreRefusedOnBothEndpoints() {
        assertThat(generate("[\"iVBORw0KGgo\"]")).isNotNull();
        assertThat(generate("[\"-_-_\"]")).isNotNull();
        assertThat(chat("[42]").message()).contains("cannot unmarshal");
        assertThat(chat("\"iVBORw0KGgo=\"").message()).contains("cannot unmarshal");
    }
}
