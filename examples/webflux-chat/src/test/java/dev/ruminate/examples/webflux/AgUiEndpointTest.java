package dev.ruminate.examples.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.NettyLeakCheck;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code POST /ag-ui} end to end over real HTTP: WebTestClient → the example's controller → the provider → the emulator. */
@ExtendWith(NettyLeakCheck.class)
class AgUiEndpointTest {

    private static final ParameterizedTypeReference<ServerSentEvent<String>> SSE = new ParameterizedTypeReference<>() {
    };
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static RunningApp app;
    private static WebTestClient client;

    @BeforeAll
    static void start() {
        app = RunningApp.start();
        client = WebTestClient.bindToServer().baseUrl(app.baseUrl()).responseTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static List<JsonNode> run(String body) {
        List<ServerSentEvent<String>> events = client.post().uri("/ag-ui").contentType(MediaType.APPLICATION_JSON)
                .accept(MediaType.TEXT_EVENT_STREAM).bodyValue(body)
                .exchange()
                .expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_EVENT_STREAM)
                .returnResult(SSE).getResponseBody().collectList().block(Duration.ofSeconds(10));
        assertThat(events).allSatisfy(e -> assertThat(e.event()).as("AG-UI events have no event name").isNull());
        return events.stream().map(e -> JSON.readTree(e.data())).toList();
    }

    private static String deltas(List<JsonNode> events, String type) {
        StringBuilder sb = new StringBuilder();
        events.stream().filter(e -> e.path("type").asString().equals(type)).forEach(e -> sb.append(e.path("delta").asString()));
        return sb.toString();
    }

    private static String idOf(List<JsonNode> events, String type) {
        return events.stream().filter(e -> e.path("type").asString().equals(type)).findFirst().orElseThrow()
                .path("messageId").asString();
    }

    @Test
    void aRunStreamsReasoningAndTextAndTheNextRunSendsTheTurnBack() {
        String thread = UUID.randomUUID().toString();
        List<JsonNode> first = run("{\"threadId\":\"" + thread + "\",\"runId\":\"r1\",\"messages\":[{\"id\":\"u1\","
                + "\"role\":\"user\",\"content\":\"Why is the sky blue?\"}],\"tools\":[],\"context\":[],\"state\":{}}");

        List<String> types = first.stream().map(e -> e.path("type").asString()).toList();
        assertThat(types).first().isEqualTo("RUN_STARTED");
        assertThat(types).last().isEqualTo("RUN_FINISHED");
        assertThat(types).contains("REASONING_START", "REASONING_MESSAGE_START", "REASONING_MESSAGE_END", "REASONING_END",
                "TEXT_MESSAGE_START", "TEXT_MESSAGE_END").doesNotContain("RUN_ERROR");
        assertThat(types.indexOf("REASONING_END")).isLessThan(types.indexOf("TEXT_MESSAGE_START"));
        assertThat(deltas(first, "REASONING_MESSAGE_CONTENT")).startsWith("The user asks why the sky is blue.");
        String answer = deltas(first, "TEXT_MESSAGE_CONTENT");
        assertThat(answer).startsWith("Because air scatters blue light");

        String reasoningId = idOf(first, "REASONING_MESSAGE_START");
        String assistantId = idOf(first, "TEXT_MESSAGE_START");
        run("{\"threadId\":\"" + thread + "\",\"runId\":\"r2\",\"messages\":[{\"id\":\"u1\",\"role\":\"user\","
                + "\"content\":\"Why is the sky blue?\"},{\"id\":\"" + reasoningId + "\",\"role\":\"reasoning\",\"content\":"
                + "\"(shown)\"},{\"id\":\"" + assistantId + "\",\"role\":\"assistant\",\"content\":\"(edited by the page)\"},"
                + "{\"id\":\"u2\",\"role\":\"user\",\"content\":\"And at sunset?\"}]}");

        String second = app.emulator().requests().get(app.emulator().requests().size() - 1).body();
        JsonNode messages = JSON.readTree(second).get("messages");
        assertThat(messages.values()).extracting(m -> m.get("role").asString()).containsExactly("user", "assistant", "user");
        // the server's own copy of the turn went upstream, not the page's
        assertThat(messages.get(1).get("content").asString()).isEqualTo(answer);
        assertThat(messages.get(2).get("content").asString()).isEqualTo("And at sunset?");
    }

    @Test
    void aBodyThatIsNotARunAgentInputIs400WithARunError() {
        List<ServerSentEvent<String>> events = client.post().uri("/ag-ui").contentType(MediaType.APPLICATION_JSON)
                .accept(MediaType.TEXT_EVENT_STREAM).bodyValue("{\"threadId\":\"t\",\"runId\":\"r\"}")
                .exchange()
                .expectStatus().isBadRequest()
                .returnResult(SSE).getResponseBody().collectList().block(Duration.ofSeconds(10));
        assertThat(events).singleElement().satisfies(e -> {
            JsonNode error = JSON.readTree(e.data());
            assertThat(error.path("type").asString()).isEqualTo("RUN_ERROR");
            assertThat(error.path("message").asString()).contains("messages");
        });
    }
}
