package dev.ruminate.providers.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.transport.wire.SseEvent;
import dev.ruminate.transport.wire.StreamFraming;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * The operator every family's stream decoder runs under: a failure waits behind the events its frame
 * gave, nothing is decoded after it, malformed JSON and wrong shapes get the frame's position.
 */
class StreamDecodingTest {

    /** Decodes frames whose data is "ok", "shape" or anything else (parsed as JSON, so it fails). */
    private static final class Decoder implements StreamDecoder<SseEvent> {
        final List<String> seen = new ArrayList<>();
        boolean ended;

        @Override
        public void decode(SseEvent frame, List<ChatEvent> out) {
            String data = frame.dataAsString();
            seen.add(data);
            out.add(new ContentDelta(0, "before " + data));
            if (data.equals("shape")) {
                throw new ShapeException("no such field");
            }
            if (!data.equals("ok")) {
                try (JsonParser p = new JsonFactory().createParser(ObjectReadContext.empty(), data)) {
                    while (p.nextToken() != null) {
                        // reading to the malformed token throws
                    }
                }
            }
        }

        @Override
        public void end(List<ChatEvent> out) {
            ended = true;
            throw new IncompleteStreamException("the body ended too soon", null);
        }
    }

    private static SseEvent frame(String data, long line, long offset) {
        return new SseEvent("message", data.getBytes(StandardCharsets.UTF_8), null, line, offset);
    }

    @Test
    void aMalformedFrameFailsAfterItsOwnEventsWithItsPositionAndNothingIsDecodedAfterIt() {
        Decoder decoder = new Decoder();
        Function<Flux<SseEvent>, Flux<ChatEvent>> operator = StreamDecoding.operator(StreamFraming.SSE, () -> decoder);

        StepVerifier.create(Flux.just(frame("ok", 1, 0), frame("{\"a\": tru}", 4, 37), frame("ok", 7, 80))
                        .transform(operator))
                .expectNext(new ContentDelta(0, "before ok"), new ContentDelta(0, "before {\"a\": tru}"))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(ProtocolException.class);
                    ProtocolException p = (ProtocolException) e;
                    assertThat(p.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
                    assertThat(p.line()).isEqualTo(4);
                    assertThat(p.byteOffset()).isEqualTo(37);
                    assertThat(p.detail()).contains("data: {\"a\": tru}");
                })
                .verify();
        assertThat(decoder.seen).containsExactly("ok", "{\"a\": tru}");
        assertThat(decoder.ended).isFalse();
    }

    @Test
    void aWrongShapeIsTypedWithTheFramesPosition() {
        StepVerifier.create(Flux.just(frame("shape", 2, 9)).transform(StreamDecoding.operator(StreamFraming.SSE, Decoder::new)))
                .expectNext(new ContentDelta(0, "before shape"))
                .expectErrorSatisfies(e -> {
                    ProtocolException p = (ProtocolException) e;
                    assertThat(p.reason()).isEqualTo(ProtocolException.Reason.UNEXPECTED_SHAPE);
                    assertThat(p.line()).isEqualTo(2);
                    assertThat(p.byteOffset()).isEqualTo(9);
                    assertThat(p.detail()).startsWith("no such field; data: shape");
                })
                .verify();
    }

    @Test
    void theEndOfTheFramesAsksTheDecoderAndEachSubscriptionGetsItsOwnDecoder() {
        List<Decoder> made = new ArrayList<>();
        Flux<ChatEvent> events = Flux.just(frame("ok", 1, 0)).transform(StreamDecoding.operator(StreamFraming.SSE, () -> {
            Decoder d = new Decoder();
            made.add(d);
            return d;
        }));
        StepVerifier.create(events).expectNextCount(1).expectError(IncompleteStreamException.class).verify();
        StepVerifier.create(events).expectNextCount(1).expectError(IncompleteStreamException.class).verify();
        assertThat(made).hasSize(2).allSatisfy(d -> assertThat(d.ended).isTrue());
    }
}
