package dev.ruminate.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BaseUrlTest {

    @ParameterizedTest
    @ValueSource(strings = {"https://api.deepseek.com", "https://api.deepseek.com/", "https://api.deepseek.com///",
            " https://api.deepseek.com/ ", "HTTPS://api.deepseek.com"})
    void trailingSlashesAndCaseOfTheSchemeDoNotMatter(String url) {
        assertThat(BaseUrl.of(url).resolve("/chat/completions"))
                .isEqualTo(URI.create("https://api.deepseek.com/chat/completions"));
    }

    @Test
    void aPathIsKeptBeforeTheEndpointsPath() {
        assertThat(BaseUrl.of("http://127.0.0.1:8080/v1/").resolve("/responses"))
                .isEqualTo(URI.create("http://127.0.0.1:8080/v1/responses"));
    }

    @Test
    void theBaseUrlsQueryFollowsTheEndpointAndJoinsTheEndpointsOwnQuery() {
        BaseUrl azure = BaseUrl.of("https://r.openai.azure.com/openai/v1/?api-version=preview");
        assertThat(azure.resolve("/responses"))
                .isEqualTo(URI.create("https://r.openai.azure.com/openai/v1/responses?api-version=preview"));
        assertThat(azure.resolve("/models/m:streamGenerateContent?alt=sse"))
                .isEqualTo(URI.create("https://r.openai.azure.com/openai/v1/models/m:streamGenerateContent?alt=sse&api-version=preview"));
    }

    @Test
    void toStringNeverShowsTheQuery() {
        assertThat(BaseUrl.of("https://proxy.example/v1?key=sekret")).hasToString("https://proxy.example/v1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp://host/x", "api.deepseek.com", "/v1", "mailto:someone@example.com"})
    void notAnAbsoluteHttpUrlIsRefused(String url) {
        assertThatThrownBy(() -> BaseUrl.of(url)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("absolute http or https URL");
    }

    @Test
    void anInvalidUriIsRefused() {
        assertThatThrownBy(() -> BaseUrl.of("https://")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a valid URI");
        assertThatThrownBy(() -> BaseUrl.of("https://a b")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRefusalNamesTheUrlWithoutSecrets() {
        assertThatThrownBy(() -> BaseUrl.of("ftp://user:pw@host/x?key=k"))
                .hasMessageContaining("ftp://host/x").hasMessageNotContaining("pw").hasMessageNotContaining("key=k");
    }

    @Test
    void userInfoAndFragmentsAreRefused() {
        assertThatThrownBy(() -> BaseUrl.of("https://user:secret@api.example.com"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("secret");
        assertThatThrownBy(() -> BaseUrl.of("https://api.example.com/#x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aMissingUrlWithoutDefaultNamesTheProvider() {
        assertThatThrownBy(() -> BaseUrl.of(null, null, "vllm"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("vllm");
        assertThat(BaseUrl.of(null, "https://a.example", "x")).isEqualTo(BaseUrl.of("https://a.example/"));
        assertThat(BaseUrl.of("https://b.example", "https://a.example", "x")).hasToString("https://b.example");
    }

    @Test
    void endpointPathsStartWithASlash() {
        assertThatThrownBy(() -> BaseUrl.of("https://a.example").resolve("chat"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
