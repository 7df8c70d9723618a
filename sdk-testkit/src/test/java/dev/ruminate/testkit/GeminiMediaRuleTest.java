package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GeminiMediaRuleTest {

    private static final String PATH = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse";

    private final AcceptanceRules rules = AcceptanceRules.gemini();

    private Violation check(String part) {
        return rules.check(Sendback.post(PATH, Sendback.JSON.readTree("{\"contents\":[{\"role\":\"user\",\"parts\":["
                + part + ",{\"text\":\"What is this?\"}]}]}")));
    }

    @Test
    void typedInlineDataInEitherBase64AlphabetAndTypedOrUploadedFilesPass() {
        assertThat(check("{\"inlineData\":{\"mimeType\":\"image/png\",\"data\":\"iVBORw0KGgo=\"}}")).isNull();
        assertThat(check("{\"inline_data\":{\"mime_type\":\"image/png\",\"data\":\"iVBORw0KGgo\"}}")).isNull();
        assertThat(check("{\"inlineData\":{\"mimeType\":\"image/png\",\"data\":\"-_-_\"}}")).isNull();
        assertThat(check("{\"fileData\":{\"mimeType\":\"application/pdf\",\"fileUri\":\"gs://bucket/a.pdf\"}}")).isNull();
        // an uploaded file's type is known to the API
        assertThat(check("{\"fileData\":{\"fileUri\":\"https://generativelanguage.googleapis.com/v1beta/files/abc123\"}}"))
                .isNull();
    }

    @Test
    void aFileUrlWithoutAMediaTypeIsRefused() {
        Violation v = check("{\"fileData\":{\"fileUri\":\"https://example.com/cat.png\"}}");

        assertThat(v).isNotNull();
        assertThat(v.rule()).isEqualTo(GeminiMediaRule.NAME);
        assertThat(v.status()).isEqualTo(400);
        assertThat(v.message()).contains("mimeType").contains("contents[0].parts[0].file_data");
        assertThat(Sendback.errorBody(rules, v).get("error").get("status").asString()).isEqualTo("INVALID_ARGUMENT");
        assertThat(check("{\"fileData\":{\"mimeType\":\"image/png\"}}").message()).contains("fileUri");
    }

    @Test
    void inlineDataThatIsNotBase64OrHasNoTypeIsRefused() {
        assertThat(check("{\"inlineData\":{\"mimeType\":\"image/png\",\"data\":\"not base64!\"}}").message())
                .contains("Base64 decoding failed").contains("contents[0].parts[0].inline_data.data");
        assertThat(check("{\"inlineData\":{\"mimeType\":\"image/png\",\"data\":\"abcde\"}}")).isNotNull();
        assertThat(check("{\"inlineData\":{\"data\":\"iVBORw0KGgo=\"}}").message()).contains("mimeType");
    }
}
