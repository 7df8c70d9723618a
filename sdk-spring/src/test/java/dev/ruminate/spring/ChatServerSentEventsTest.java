package dev.ruminate.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.json.EventJson;
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.providers.responses.ResponsesStreamEncoder;
import dev.ruminate.testkit.NettyLeakCheck;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

@ExtendWith(NettyLeakCheck.class)
class ChatServerSentEventsTest {

    private static final List<ChatEvent> TURN = List.of(
            new ResponseStarted("deepseek", "deepseek-reasoner", "r-1"),
            new ReasoningDelta(0, "Blue light ", false, "reasoning_content"),
            new ReasoningDelta(0, "scatters more.", false, "reasoning_content"),
            new PartEnded(0),
            new ContentDelta(1, "Rayleigh scattering."),
            new PartEnded(1),
            new ResponseCompleted(FinishReason.STOP, "stop"));

    private static List<String> names(List<ServerSentEvent<String>> events) {
        return events.stream().map(ServerSentEvent::event).toList();
    }

    /** Each encoding draws its own ids and reads the clock for {@code created_at}; two runs may straddle a second. */
    private static String withoutIds(String data) {
        return data.replaceAll("(resp|rs|msg|fc)_[0-9a-f]{32}", "$1_ID").replaceAll("\"created_at\":\\d+", "\"created_at\":0");
    }

    @Test
    void jsonIsTheWireFormatFrameForFrame() {
        List<SseFrame> frames = EventJson.toSse(Flux.fromIterable(TURN)).collectList().block(Duration.ofSeconds(5));

        StepVerifier.create(ChatServerSentEvents.json(Flux.fromIterable(TURN)).collectList())
                .assertNext(events -> {
                    assertThat(events).extracting(ServerSentEvent::event).containsExactlyElementsOf(
                            frames.stream().map(SseFrame::event).toList());
                    assertThat(events).extracting(ServerSentEvent::data).containsExactlyElementsOf(
                            frames.stream().map(SseFrame::data).toList());
                    List<String> names = names(events);
                    assertThat(names.lastIndexOf("reasoning.delta")).isLessThan(names.indexOf("content.delta"));
                    assertThat(names).last().isEqualTo("response.completed");
                })
                .expectComplete().verify(Duration.ofSeconds(5));
    }

    @Test
    void jsonNeverSendsOpaqueState() {
        Flux<ChatEvent> signed = Flux.just(new ResponseStarted("anthropic", "claude", "m-1"),
                new ReasoningDelta(0, "Thinking.", false, "thinking"),
                new Seal(0, Seal.Kind.SIGNATURE, "sig-opaque-123"),
                new ResponseCompleted(FinishReason.STOP, "end_turn"));
        StepVerifier.create(ChatServerSentEvents.json(signed).map(ServerSentEvent::data).collectList())
                .assertNext(data -> assertThat(String.join("\n", data)).doesNotContain("sig-opaque-123"))
                .expectComplete().verify(Duration.ofSeconds(5));
    }

    @Test
    void responsesIsTheResponsesStreamShape() {
        List<SseFrame> frames = ResponsesStreamEncoder.encode(Flux.fromIterable(TURN)).collectList().block(Duration.ofSeconds(5));

        StepVerifier.create(ChatServerSentEvents.responses(Flux.fromIterable(TURN)).collectList())
                .assertNext(events -> {
                    // Each encoding draws its own ids and creation time; everything else is the same.
                    assertThat(events).extracting(e -> withoutIds(e.data())).containsExactlyElementsOf(
                            frames.stream().map(f -> withoutIds(f.data())).toList());
                    List<String> names = names(events);
                    assertThat(names).containsExactlyElementsOf(frames.stream().map(SseFrame::event).toList());
                    assertThat(names).first().isEqualTo("response.created");
                    // raw reasoning goes out as summary by default, for clients that read only summaries
                    assertThat(names).contains("response.reasoning_summary_text.delta", "response.reasoning_summary_text.done",
                            "response.output_text.delta", "response.output_text.done");
                    assertThat(names.indexOf("response.reasoning_summary_text.delta"))
                            .isLessThan(names.indexOf("response.output_text.delta"));
                    assertThat(names).last().isEqualTo("response.completed");
                })
                .expectComplete().verify(Duration.ofSeconds(5));
    }

    @Test
    void cancellingTheEventsCancelsTheProviderFlux() {
        AtomicBoolean cancelled = new AtomicBoolean();
        Flux<ChatEvent> endless = Flux.concat(Flux.fromIterable(TURN.subList(0, 2)), Flux.<ChatEvent>never())
                .doOnCancel(() -> cancelled.set(true));
        StepVerifier.create(ChatServerSentEvents.json(endless))
                .expectNextCount(2)
                .thenCancel()
                .verify(Duration.ofSeconds(5));
        assertThat(cancelled).isTrue();
    }

    @Test
    void anUpstreamErrorBecomesAFinalFailedEventInsteadOfABrokenStream() {
        Flux<ChatEvent> failing = Flux.concat(Flux.fromIterable(TURN.subList(0, 2)),
                Flux.error(new IncompleteStreamException("the body ended without a terminal event", null)));
        StepVerifier.create(ChatServerSentEvents.json(failing).collectList())
                .assertNext(events -> {
                    ServerSentEvent<String> last = events.get(events.size() - 1);
                    assertThat(events).hasSize(3);
                    assertThat(last.event()).isEqualTo("response.failed");
                    assertThat(last.data()).contains("\"type\":\"incomplete_stream\"", "\"retryable\":");
                })
                .expectComplete().verify(Duration.ofSeconds(5));
    }
}

