package dev.ruminate.transport.wire;

import static dev.ruminate.transport.wire.Bodies.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

class JsonArraysTest {

    private static final Duration NEVER_ENDING = Duration.ofSeconds(10);

    /** Two pretty-printed chunks as Gemini streams them without {@code alt=sse}, with the awkward bytes a cut can land in. */
    private static final String GEMINI = "[{\n  \"candidates\": [{\"content\": {\"parts\": [{\"text\": \"é 🙂 \\\"}]\\\\\"}]}}]\n}\n"
            + ",\r\n{\n  \"candidates\": [{\"finishReason\": \"STOP\", \"text\": \"[{,\\u005d\"}]\n}\n]";

    private static List<Tuple> decode(Flux<ByteBuf> body) {
        List<JsonArrayElement> elements = JsonArrays.decode(body).collectList().block(NEVER_ENDING);
        assertThat(elements).isNotNull();
        return elements.stream().map(e -> tuple(e.asString(), e.index(), e.line(), e.byteOffset())).toList();
    }

    @Test
    void emitsEachElementWithItsIndexLineAndOffset() {
        assertThat(decode(Bodies.of(GEMINI))).containsExactly(
                tuple("{\n  \"candidates\": [{\"content\": {\"parts\": [{\"text\": \"é 🙂 \\\"}]\\\\\"}]}}]\n}", 0, 1L, 1L),
                tuple("{\n  \"candidates\": [{\"finishReason\": \"STOP\", \"text\": \"[{,\\u005d\"}]\n}", 1, 5L,
                        (long) utf8(GEMINI.substring(0, GEMINI.indexOf(",\r\n") + 3)).length));
    }

    @Test
    void anyCuttingGivesTheSameElementsAndNoBufferIsKept() {
        byte[] body = utf8("  \n" + GEMINI + "\n");
        List<Tuple> whole = decode(Bodies.of("  \n" + GEMINI + "\n"));
        Random random = new Random(20261126L);
        for (int run = 0; run < 300; run++) {
            List<Integer> sizes = new ArrayList<>();
            for (int k = 0; k < 8; k++) {
                sizes.add(random.nextInt(run % 3 == 0 ? 2 : 12));
            }
            List<byte[]> chunks = Bodies.split(body, sizes);
            assertThat(decode(Bodies.releasedAfterNext(Bodies.HEAP, chunks))).as("cut by %s", sizes).isEqualTo(whole);
        }
    }

    @Test
    void everyElementIsEmittedAsSoonAsItsClosingBracketArrives() {
        // the second element never comes: the first must not wait for it
        Flux<ByteBuf> body = Flux.concat(Bodies.of("[{\"a\":1}", ",{\"b\""), Flux.never());
        StepVerifier.create(JsonArrays.decode(body).map(JsonArrayElement::asString))
                .expectNext("{\"a\":1}")
                .thenCancel()
                .verify(NEVER_ENDING);
    }

    @Test
    void aLoneObjectIsItsOneElementAndABlankBodyHasNone() {
        assertThat(decode(Bodies.of("\n{\"error\": {\"code\": 500}}\n"))).containsExactly(tuple("{\"error\": {\"code\": 500}}", 0, 2L, 1L));
        assertThat(decode(Bodies.of("[]"))).isEmpty();
        assertThat(decode(Bodies.of(" \n "))).isEmpty();
        assertThat(decode(Flux.empty())).isEmpty();
    }

    @Test
    void garbageBetweenElementsIsMalformedJsonAfterTheElementsBeforeIt() {
        StepVerifier.create(JsonArrays.decode(Bodies.of("[{\"a\":1}\n", "data: {\"b\":2}]")).map(JsonArrayElement::asString))
                .expectNext("{\"a\":1}")
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(ProtocolException.class);
                    ProtocolException p = (ProtocolException) e;
                    assertThat(p.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
                    assertThat(p.line()).isEqualTo(2);
                    assertThat(p.byteOffset()).isEqualTo(9);
                    assertThat(p.getMessage()).contains("expected ',' or ']' after element 0", "data: {");
                })
                .verify(NEVER_ENDING);
    }

    @Test
    void aTrailingCommaAScalarElementAndBytesAfterTheEndAreMalformed() {
        for (String body : List.of("[{\"a\":1},]", "[1]", "[{\"a\":1}] x", "{\"a\":1}{\"b\":2}", "x[{}]", "[{}{}]")) {
            StepVerifier.create(JsonArrays.decode(Bodies.of(body)))
                    .thenConsumeWhile(e -> true)
                    .expectErrorSatisfies(e -> assertThat(e).as(body).isInstanceOfSatisfying(ProtocolException.class,
                            p -> assertThat(p.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON)))
                    .verify(NEVER_ENDING);
        }
    }

    @Test
    void aBodyCutInsideAnElementOrBeforeTheClosingBracketIsIncomplete() {
        StepVerifier.create(JsonArrays.decode(Bodies.of("[{\"a\":1},\n{\"b\": \"cut")).map(JsonArrayElement::asString))
                .expectNext("{\"a\":1}")
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(IncompleteStreamException.class)
                        .hasMessageContaining("inside element 1").hasMessageContaining("line 2"))
                .verify(NEVER_ENDING);
        StepVerifier.create(JsonArrays.decode(Bodies.of("[{\"a\":1}\n,")).map(JsonArrayElement::asString))
                .expectNext("{\"a\":1}")
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(IncompleteStreamException.class)
                        .hasMessageContaining("before its closing ']'"))
                .verify(NEVER_ENDING);
    }

    @Test
    void anUpstreamErrorPassesAfterTheCompleteElements() {
        IllegalStateException reset = new IllegalStateException("reset");
        StepVerifier.create(JsonArrays.decode(Flux.concat(Bodies.of("[{\"a\":1},{\"b\""), Flux.error(reset)))
                        .map(JsonArrayElement::asString))
                .expectNext("{\"a\":1}")
                .expectErrorMatches(e -> e == reset)
                .verify(NEVER_ENDING);
    }

    @Test
    void anElementPastTheLimitFailsEvenWhenItNeverEnds() {
        AtomicLong served = new AtomicLong();
        byte[] piece = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".getBytes(StandardCharsets.US_ASCII);
        Flux<ByteBuf> endless = Flux.concat(Bodies.of("[{\"ok\":1},\n{\"text\": \""),
                Flux.<ByteBuf>generate(sink -> sink.next(Unpooled.wrappedBuffer(piece))).doOnNext(b -> served.addAndGet(piece.length)));

        StepVerifier.create(JsonArrays.decode(endless, new WireLimits(1024, 4096)).map(JsonArrayElement::asString))
                .expectNext("{\"ok\":1}")
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(ProtocolException.class, p -> {
                    assertThat(p.reason()).isEqualTo(ProtocolException.Reason.LINE_TOO_LONG);
                    assertThat(p.line()).isEqualTo(2);
                    assertThat(p.byteOffset()).isEqualTo(11);
                }))
                .verify(NEVER_ENDING);
        assertThat(served.get()).isLessThan(4096 + 2 * piece.length);
    }

    @Test
    void sseOrJsonArrayTellsTheFramingFromTheContent() {
        StreamFraming<SseEvent> sniffing = StreamFraming.SSE_OR_JSON_ARRAY;
        assertThat(sniffing.acceptedMediaTypes()).containsExactly("text/event-stream", "application/json");
        List<SseEvent> fromArray = sniffing.decode(Bodies.of("\n ", "\n[{\"a\":\n1}", ",{\"b\":2}]"), WireLimits.DEFAULT)
                .collectList().block(NEVER_ENDING);
        assertThat(fromArray).extracting(SseEvent::type, SseEvent::dataAsString, SseEvent::line, SseEvent::byteOffset)
                .containsExactly(tuple("message", "{\"a\":\n1}", 3L, 4L), tuple("message", "{\"b\":2}", 4L, 13L));
        List<SseEvent> fromSse = sniffing.decode(Bodies.of("\n", "data: {\"a\":1}\n\nevent: x\ndata: [1]\n\n"), WireLimits.DEFAULT)
                .collectList().block(NEVER_ENDING);
        assertThat(fromSse).extracting(SseEvent::type, SseEvent::dataAsString, SseEvent::line)
                .containsExactly(tuple("message", "{\"a\":1}", 2L), tuple("x", "[1]", 4L));
        assertThat(StreamFraming.SSE.acceptedMediaTypes()).containsExactly("text/event-stream");
    }
}
