package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * {@link ResponsesBackground} behind a real {@link ProviderEmulator}: stored events served again after
 * {@code starting_after}, byte for byte; 404 with OpenAI's error body for an unknown or expired id;
 * cancellation recorded; other requests left to the queue; and {@link ResponsesBackgroundStoreRule}.
 */
@ExtendWith(NettyLeakCheck.class)
class ResponsesBackgroundTest {

    private static final String SSE = ResponsesScript.create().id("resp_bg").text("Hello there.").toSse();

    @Test
    void aStoredStreamIsServedAgainAfterTheGivenSequenceNumber() {
        ResponsesBackground stored = ResponsesBackground.create();
        List<String> events = ResponsesBackground.events(SSE);
        assertThat(String.join("", events)).isEqualTo(SSE);
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.routing(stored::answer).enqueue(stored.stream(SSE));
            assertThat(new String(Http.post(emulator.baseUrl(), "/v1/responses", Map.of(), "{}").body(),
                    StandardCharsets.UTF_8)).isEqualTo(SSE);

            Http.Received resumed = Http.get(emulator.baseUrl(), "/v1/responses/resp_bg?stream=true&starting_after=2");
            assertThat(resumed.status()).isEqualTo(200);
            assertThat(resumed.headers().get("content-type")).startsWith("text/event-stream");
            assertThat(new String(resumed.body(), StandardCharsets.UTF_8))
                    .isEqualTo(String.join("", events.subList(3, events.size())));

            Http.Received all = Http.get(emulator.baseUrl(), "/v1/responses/resp_bg?stream=true");
            assertThat(new String(all.body(), StandardCharsets.UTF_8)).isEqualTo(SSE);
        }
    }

    @Test
    void anUnknownOrExpiredResponseIsA404WithOpenAisErrorBody() {
        ResponsesBackground stored = ResponsesBackground.create();
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.routing(stored::answer).enqueue(stored.stream(SSE));
            Http.post(emulator.baseUrl(), "/v1/responses", Map.of(), "{}");
            stored.expire("resp_bg");
            Http.Received missing = Http.get(emulator.baseUrl(), "/v1/responses/resp_bg?stream=true&starting_after=0");
            assertThat(missing.status()).isEqualTo(404);
            JsonNode error = Sendback.JSON.readTree(new String(missing.body(), StandardCharsets.UTF_8)).get("error");
            assertThat(error.get("message").asString()).isEqualTo("No response found with id 'resp_bg'.");
            assertThat(error.get("type").asString()).isEqualTo("invalid_request_error");
        }
    }

    @Test
    void aCancellationIsRecordedAndOtherRequestsGoToTheQueue() {
        ResponsesBackground stored = ResponsesBackground.create();
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.routing(stored::answer).enqueue(stored.stream(SSE)).enqueue(EmulatorResponse.json(200, "{}"));
            Http.post(emulator.baseUrl(), "/v1/responses", Map.of(), "{}");
            Http.Received cancelled = Http.post(emulator.baseUrl(), "/v1/responses/resp_bg/cancel", Map.of(), "{}");
            assertThat(cancelled.status()).isEqualTo(200);
            assertThat(new String(cancelled.body(), StandardCharsets.UTF_8)).contains("\"status\":\"cancelled\"");
            assertThat(stored.cancelled()).containsExactly("resp_bg");
            assertThat(Http.post(emulator.baseUrl(), "/v1/chat/completions", Map.of(), "{}").status()).isEqualTo(200);
        }
    }

    @Test
    void backgroundNeedsStore() {
        AcceptanceRules rules = AcceptanceRules.responses();
        assertThat(rules.check(Sendback.post("/v1/responses", Sendback.JSON.readTree(
                "{\"model\":\"o4-mini\",\"input\":\"Hi\",\"background\":true,\"store\":true}")))).isNull();
        assertThat(rules.check(Sendback.post("/v1/responses", Sendback.JSON.readTree(
                "{\"model\":\"o4-mini\",\"input\":\"Hi\",\"background\":true}")))).isNull();
        assertThat(rules.check(Sendback.post("/v1/responses", Sendback.JSON.readTree(
                "{\"model\":\"o4-mini\",\"input\":\"Hi\",\"store\":false}")))).isNull();
        Violation v = rules.check(Sendback.post("/v1/responses", Sendback.JSON.readTree(
                "{\"model\":\"o4-mini\",\"input\":\"Hi\",\"background\":true,\"store\":false}")));
        assertThat(v).isNotNull();
        assertThat(v.rule()).isEqualTo(ResponsesBackgroundStoreRule.NAME);
        assertThat(v.status()).isEqualTo(400);
        assertThat(Sendback.errorBody(rules, v).get("error").get("param").asString()).isEqualTo("store");
    }
}
