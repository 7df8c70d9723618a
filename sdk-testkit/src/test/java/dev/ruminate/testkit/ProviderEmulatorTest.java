package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

@ExtendWith(NettyLeakCheck.class)
class ProviderEmulatorTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ProviderEmulator emulator;
    private URI base;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
        base = emulator.baseUrl();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    @Test
    void bindsLoopbackOnAFreePort() {
        assertThat(base.getScheme()).isEqualTo("http");
        assertThat(base.getHost()).isEqualTo("127.0.0.1");
        assertThat(base.getPort()).isPositive();
        assertThat(base.getPath()).isEmpty();
    }

    @Test
    void servesQueuedResponsesInOrderOnePerRequestWhateverThePath() {
        emulator.enqueue(EmulatorResponse.json(200, "{\"n\":1}"))
                .enqueue(EmulatorResponse.json(201, "{\"n\":2}"))
                .enqueue(EmulatorResponse.sse("data: 3\n\n"));

        Http.Received first = Http.post(base, "/v1/chat/completions", Map.of(), "{}");
        Http.Received second = Http.get(base, "/anything/else?x=1");
        Http.Received third = Http.post(base, "/", Map.of(), "");

        assertThat(first.status()).isEqualTo(200);
        assertThat(first.text()).isEqualTo("{\"n\":1}");
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.text()).isEqualTo("{\"n\":2}");
        assertThat(third.text()).isEqualTo("data: 3\n\n");
        assertThat(third.headers().get("content-type")).isEqualTo("text/event-stream");
    }

    @Test
    void servesTheStandingResponseOnlyWhenTheQueueIsEmpty() {
        emulator.always(EmulatorResponse.json(200, "{\"always\":true}"));
        emulator.enqueue(EmulatorResponse.json(200, "{\"queued\":true}"));

        assertThat(Http.get(base, "/a").text()).isEqualTo("{\"queued\":true}");
        assertThat(Http.get(base, "/b").text()).isEqualTo("{\"always\":true}");
        assertThat(Http.get(base, "/c").text()).isEqualTo("{\"always\":true}");

        emulator.always(null);
        assertThat(Http.get(base, "/d").status()).isEqualTo(500);
    }

    @Test
    void answersFiveHundredWithAJsonErrorWhenNothingIsQueued() {
        Http.Received received = Http.post(base, "/v1/chat/completions", Map.of(), "{}");

        assertThat(received.status()).isEqualTo(500);
        assertThat(received.headers().get("content-type")).isEqualTo("application/json");
        JsonNode error = MAPPER.readTree(received.text()).get("error");
        assertThat(error.get("type").stringValue()).isEqualTo("emulator_error");
        assertThat(error.get("message").stringValue())
                .contains("no response queued")
                .contains("POST /v1/chat/completions");
    }

    @Test
    void recordsMethodPathWithQueryHeadersAndBody() {
        emulator.always(EmulatorResponse.json(200, "{}"));
        String body = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"héllo 👋\"}]}";

        Http.post(base, "/v1/chat/completions?api-version=2024", Map.of(
                "Authorization", "Bearer sk-live-secret",
                "X-Custom", "visible"), body);
        Http.get(base, "/v1/models");

        assertThat(emulator.requests()).hasSize(2);
        RecordedRequest post = emulator.requests().get(0);
        assertThat(post.method()).isEqualTo("POST");
        assertThat(post.path()).isEqualTo("/v1/chat/completions?api-version=2024");
        assertThat(post.body()).isEqualTo(body);
        assertThat(post.header("authorization")).isEqualTo("Bearer sk-live-secret");
        assertThat(post.header("AUTHORIZATION")).isEqualTo("Bearer sk-live-secret");
        assertThat(post.headers().get("x-custom")).containsExactly("visible");
        assertThat(post.header("x-missing")).isNull();

        RecordedRequest get = emulator.requests().get(1);
        assertThat(get.method()).isEqualTo("GET");
        assertThat(get.path()).isEqualTo("/v1/models");
        assertThat(get.body()).isEmpty();
    }

    @Test
    void recordedRequestsPrintWithoutCredentials() {
        emulator.always(EmulatorResponse.json(200, "{}"));

        Http.post(base, "/v1beta/models/g:streamGenerateContent?alt=sse&key=AIza-query-secret", Map.of(
                "Authorization", "Bearer sk-header-secret",
                "x-api-key", "sk-ant-secret",
                "api-key", "azure-secret",
                "x-goog-api-key", "goog-secret",
                "anthropic-version", "2023-06-01"), "{}");

        String printed = emulator.requests().get(0).toString();
        assertThat(printed)
                .doesNotContain("sk-header-secret", "sk-ant-secret", "azure-secret", "goog-secret", "AIza-query-secret")
                .contains("<redacted>", "alt=sse", "key=<redacted>", "2023-06-01", "/v1beta/models/g:streamGenerateContent");
        assertThat(emulator.requests().get(0).header("x-api-key")).isEqualTo("sk-ant-secret");
    }

    @Test
    void sendsStatusHeadersAndRetryAfter() {
        String error = "{\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}";
        emulator.enqueue(EmulatorResponse.rateLimited(7, error))
                .enqueue(EmulatorResponse.httpError(401, "{\"error\":{\"type\":\"authentication_error\"}}")
                        .header("x-request-id", "req_123")
                        .header("x-multi", "a")
                        .header("x-multi", "b"));

        Http.Received limited = Http.get(base, "/");
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.headers().get("retry-after")).isEqualTo("7");
        assertThat(limited.headers().get("content-length")).isEqualTo(Integer.toString(error.length()));
        assertThat(limited.text()).isEqualTo(error);

        Http.Received unauthorized = Http.get(base, "/");
        assertThat(unauthorized.status()).isEqualTo(401);
        assertThat(unauthorized.headers().get("x-request-id")).isEqualTo("req_123");
        assertThat(unauthorized.headers().getAll("x-multi")).containsExactly("a", "b");
        assertThat(unauthorized.text()).contains("authentication_error");
    }

    @Test
    void streamsAreChunkedAndErrorPagesHaveALength() {
        emulator.enqueue(EmulatorResponse.sse("data: {}\n\n"))
                .enqueue(EmulatorResponse.json(200, "{}"));

        Http.Received stream = Http.get(base, "/");
        Http.Received json = Http.get(base, "/");

        assertThat(stream.headers().get("transfer-encoding")).isEqualTo("chunked");
        assertThat(stream.headers().contains("content-length")).isFalse();
        assertThat(json.headers().get("content-length")).isEqualTo("2");
        assertThat(json.headers().contains("transfer-encoding")).isFalse();
    }

    @Test
    void servesAnHtmlPageWhereTheClientExpectsAStream() {
        String page = "<html><body><h1>502 Bad Gateway</h1></body></html>";
        emulator.enqueue(EmulatorResponse.html(502, page))
                .enqueue(ChatCompletionsScript.create().content("hi").toResponse().contentType("text/plain"));

        Http.Received gateway = Http.post(base, "/v1/chat/completions", Map.of("Accept", "text/event-stream"), "{}");
        assertThat(gateway.status()).isEqualTo(502);
        assertThat(gateway.headers().get("content-type")).isEqualTo("text/html; charset=utf-8");
        assertThat(gateway.text()).isEqualTo(page);

        Http.Received mislabelled = Http.get(base, "/");
        assertThat(mislabelled.status()).isEqualTo(200);
        assertThat(mislabelled.headers().get("content-type")).isEqualTo("text/plain");
        assertThat(mislabelled.text()).startsWith("data: {");
    }

    @Test
    void connectionClosedRejectsAnIndexNotYetReceived() {
        assertThatThrownBy(() -> emulator.connectionClosed(0)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void closeIsIdempotentAndReleasesThePort() {
        emulator.always(EmulatorResponse.json(200, "{}"));
        Http.get(base, "/");

        emulator.close();
        emulator.close();

        assertThat(emulator.openConnections()).isZero();
        assertThatThrownBy(() -> Http.get(base, "/")).isNotNull();
    }
}
