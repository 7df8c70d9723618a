package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordedRequestTest {

    @Test
    void redactsEverySecretHeaderValueAndKeepsTheOthers() {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Authorization", List.of("Bearer one"));
        headers.put("X-Api-Key", List.of("two"));
        headers.put("API-KEY", List.of("three", "four"));
        headers.put("x-goog-api-key", List.of("five"));
        headers.put("Proxy-Authorization", List.of("Basic six"));
        headers.put("Content-Type", List.of("application/json"));

        String printed = new RecordedRequest("POST", "/v1/messages", headers, "{\"model\":\"m\"}").toString();

        assertThat(printed).doesNotContain("one", "two", "three", "four", "five", "six")
                .contains("X-Api-Key=[<redacted>]", "API-KEY=[<redacted>, <redacted>]", "application/json",
                        "{\"model\":\"m\"}", "POST /v1/messages");
    }

    @Test
    void redactsKeyQueryParametersOnly() {
        RecordedRequest request = new RecordedRequest("GET",
                "/v1beta/models?pageSize=2&key=AIza-secret&flag&api_key=other-secret&monkey=ok", Map.of(), "");

        assertThat(request.toString())
                .contains("/v1beta/models?pageSize=2&key=<redacted>&flag&api_key=<redacted>&monkey=ok")
                .doesNotContain("AIza-secret", "other-secret");
        assertThat(request.path()).contains("AIza-secret");
    }

    @Test
    void looksUpHeadersIgnoringCaseAndMergesNamesThatDifferOnlyInCase() {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Accept", List.of("text/event-stream"));
        headers.put("accept", List.of("application/json"));

        RecordedRequest request = new RecordedRequest("GET", "/", headers, "");

        assertThat(request.header("ACCEPT")).isEqualTo("text/event-stream");
        assertThat(request.headers().get("accept")).containsExactly("text/event-stream", "application/json");
        assertThat(request.header("missing")).isNull();
    }

    @Test
    void copiesWhatItIsGiven() {
        List<String> values = new ArrayList<>(List.of("a"));
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("x", values);

        RecordedRequest request = new RecordedRequest("GET", "/", headers, "");
        values.add("b");
        headers.put("y", List.of("c"));

        assertThat(request.headers()).containsOnlyKeys("x");
        assertThat(request.headers().get("x")).containsExactly("a");
        assertThatThrownBy(() -> request.headers().put("z", List.of())).isInstanceOf(UnsupportedOperationException.class);
    }
}
