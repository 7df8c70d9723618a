package dev.ruminate.examples.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** End to end over real HTTP: WebTestClient → the example's controller → the provider → the emulator. */
@ExtendWith(NettyLeakCheck.class)
class ChatStreamTest {

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

    private static Flux<ServerSentEvent<String>> ask(String question) {
        return ask("/chat", question);
    }

    private static Flux<ServerSentEvent<String>> ask(String path, String question) {
        return client.get().uri(b -> b.path(path).queryParam("q", question).build())
                .accept(MediaType.TEXT_EVENT_STREAM)
                .exchange()
                .expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_EVENT_STREAM)
                .returnResult(SSE).getResponseBody();
    }

    private static Flux<ServerSentEvent<String>> inConversation(String conversation, String question) {
        return client.get().uri(b -> b.path("/chat").queryParam("c", conversation).queryParam("q", question).build())
                .accept(MediaType.TEXT_EVENT_STREAM)
                .exchange()
                .expectStatus().isOk()
                .returnResult(SSE).getResponseBody();
    }

    @Test
    void reasoningStreamsBeforeTheAnswerAndCompletedComesLast() {
        StepVerifier.create(ask("Why is the sky blue?").collectList())
                .assertNext(events -> {
                    List<String> names = events.stream().map(ServerSentEvent::event).toList();
                    assertThat(names).first().isEqualTo("response.started");
                    assertThat(names).last().isEqualTo("response.completed");
                    assertThat(names).contains("reasoning.delta", "content.delta").doesNotContain("seal", "response.failed");
                    assertThat(names.lastIndexOf("reasoning.delta")).isLessThan(names.indexOf("content.delta"));
                    assertThat(names).filteredOn("response.completed"::equals).hasSize(1);
                    assertThat(events.get(events.size() - 1).data())
                            .isEqualTo("{\"type\":\"response.completed\",\"finish_reason\":\"stop\",\"raw_finish_reason\":\"stop\"}");
                    assertThat(text(events, "reasoning.delta")).startsWith("The user asks why the sky is blue.");
                    assertThat(text(events, "content.delta")).startsWith("Because air scatters blue light")
                            .endsWith("and reds remain.");
                })
                .expectComplete()
                .verify(Duration.ofSeconds(10));
        assertThat(app.emulator().requests()).last()
                .satisfies(sent -> assertThat(sent.body()).contains("Why is the sky blue?", "deepseek-reasoner"));
    }

    @Test
    void aConversationSendsTheEarlierTurnBackByTheProvidersRules() {
        String conversation = "c-" + System.nanoTime();
        StepVerifier.create(inConversation(conversation, "Why is the sky blue?").then()).expectComplete().verify(Duration.ofSeconds(10));
        StepVerifier.create(inConversation(conversation, "And at sunset?").map(ServerSentEvent::event).last())
                .expectNext("response.completed").expectComplete().verify(Duration.ofSeconds(10));

        String second = app.emulator().requests().get(app.emulator().requests().size() - 1).body();
        JsonNode messages = JSON.readTree(second).get("messages");
        assertThat(messages.values()).extracting(m -> m.get("role").asString()).containsExactly("user", "assistant", "user");
        assertThat(messages.get(0).get("content").asString()).isEqualTo("Why is the sky blue?");
        assertThat(messages.get(1).get("content").asString()).startsWith("Because air scatters blue light");
        assertThat(messages.get(2).get("content").asString()).isEqualTo("And at sunset?");
        // DeepSeek's rule: an earlier turn's reasoning is not sent back outside a tool loop
        assertThat(second).doesNotContain("reasoning_content", "The user asks why the sky is blue.");
    }

    @Test
    void aFailedTurnIsNotKeptInTheConversation() {
        String conversation = "c-" + System.nanoTime();
        app.emulator().enqueue(EmulatorResponse.httpError(400, "{\"error\":{\"message\":\"bad request\",\"type\":\"invalid_request_error\"}}"));
        StepVerifier.create(inConversation(conversation, "First try").map(ServerSentEvent::event))
                .expectNext("response.failed").expectComplete().verify(Duration.ofSeconds(10));
        StepVerifier.create(inConversation(conversation, "Second try").then()).expectComplete().verify(Duration.ofSeconds(10));

        String second = app.emulator().requests().get(app.emulator().requests().size() - 1).body();
        assertThat(JSON.readTree(second).get("messages").values()).extracting(m -> m.get("content").asString())
                .containsExactly("Second try");
    }

    /** Joins the texts of one kind of event, as the page does. */
    private static String text(List<ServerSentEvent<String>> events, String name) {
        StringBuilder text = new StringBuilder();
        for (ServerSentEvent<String> e : events) {
            if (name.equals(e.event())) {
                text.append(JSON.readTree(e.data()).get("text").asString());
            }
        }
        return text.toString();
    }

    @Test
    void theResponsesEndpointStreamsTheResponsesShape() {
        StepVerifier.create(ask("/chat/responses", "Why is the sky blue?").collectList())
                .assertNext(events -> {
                    List<String> names = events.stream().map(ServerSentEvent::event).toList();
                    assertThat(names).first().isEqualTo("response.created");
                    // Raw reasoning goes out as summary events by default (ReasoningSummaries.MIRROR): the clients that
                    // read only summaries see it too.
                    assertThat(names.indexOf("response.reasoning_summary_text.delta"))
                            .isNotNegative().isLessThan(names.indexOf("response.output_text.delta"));
                    assertThat(names).last().isEqualTo("response.completed");
                    assertThat(events.get(names.indexOf("response.output_text.done")).data())
                            .contains("Because air scatters blue light");
                })
                .expectComplete()
                .verify(Duration.ofSeconds(10));
    }

    @Test
    void aProviderErrorBecomesAFinalFailedEventWithItsType() {
        app.emulator().enqueue(EmulatorResponse.httpError(400, "{\"error\":{\"message\":\"bad request\",\"type\":\"invalid_request_error\"}}"));
        StepVerifier.create(ask("Fail, please"))
                .assertNext(failed -> {
                    assertThat(failed.event()).isEqualTo("response.failed");
                    assertThat(failed.data()).startsWith("{\"type\":\"response.failed\",\"error\":{\"type\":\"http_error\"")
                            .contains("bad request", "\"retryable\":false");
                })
                .expectComplete()
                .verify(Duration.ofSeconds(10));
    }

    @Test
    void cancellingTheSseRequestClosesTheProviderExchange() {
        String sse = ChatCompletionsScript.create().reasoning("I will think about this for a very long time").content("never")
                .toSse();
        int afterFirstReasoning = sse.indexOf("\n\n", sse.indexOf("reasoning_content")) + 2;
        app.emulator().enqueue(EmulatorResponse.sse(sse).stallAfter(afterFirstReasoning));
        int index = app.emulator().requests().size();

        StepVerifier.create(ask("Think forever").map(ServerSentEvent::event).filter("reasoning.delta"::equals).take(1))
                .expectNext("reasoning.delta")
                .expectComplete()
                .verify(Duration.ofSeconds(10));

        StepVerifier.create(app.emulator().connectionClosed(index)).expectComplete().verify(Duration.ofSeconds(10));
    }
}
