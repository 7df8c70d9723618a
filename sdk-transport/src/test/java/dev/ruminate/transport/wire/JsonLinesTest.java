package dev.ruminate.transport.wire;

import static dev.ruminate.transport.wire.Bodies.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ruminate.core.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import reactor.test.publisher.TestPublisher;

class JsonLinesTest {

    /** Bounds the tests whose failure mode is a stream that never ends, so they fail instead of hanging. */
    private static final Duration NEVER_ENDING = Duration.ofSeconds(10);

    private static List<Tuple> decode(Flux<ByteBuf> body) {
        List<JsonLine> lines = JsonLines.decode(body).collectList().block(NEVER_ENDING);
        assertThat(lines).isNotNull();
        return lines.stream().map(line -> tuple(line.asString(), line.line(), line.byteOffset())).toList();
    }

    @Test
    void splitsOnNewlinesAndRecordsWhereEachLineStarts() {
        assertThat(decode(Bodies.of("{\"a\":1}\n{\"b\":2}\n")))
                .containsExactly(tuple("{\"a\":1}", 1L, 0L), tuple("{\"b\":2}", 2L, 8L));
    }

    @Test
    void stripsTheCarriageReturnOfCrLf() {
        assertThat(decode(Bodies.of("{\"a\":1}\r\n{\"b\":2}\r\n")))
                .containsExactly(tuple("{\"a\":1}", 1L, 0L), tuple("{\"b\":2}", 2L, 9L));
    }

    @Test
    void stripsACarriageReturnWhoseNewlineComesInTheNextBuffer() {
        assertThat(decode(Bodies.of("{\"a\":1}\r", "\n{\"b\":2}\r", "\n")))
                .containsExactly(tuple("{\"a\":1}", 1L, 0L), tuple("{\"b\":2}", 2L, 9L));
    }

    @Test
    void keepsACarriageReturnInsideALine() {
        assertThat(decode(Bodies.of("{\"a\":1}\r{\"b\":2}\n"))).containsExactly(tuple("{\"a\":1}\r{\"b\":2}", 1L, 0L));
    }

    @Test
    void skipsBlankLinesButCountsThem() {
        assertThat(decode(Bodies.of("\n{\"a\":1}\n\n  \t\n\r\n{\"b\":2}\n\n")))
                .containsExactly(tuple("{\"a\":1}", 2L, 1L), tuple("{\"b\":2}", 6L, 16L));
    }

    @Test
    void emitsALastLineWithoutNewlineAtTheEnd() {
        assertThat(decode(Bodies.of("{\"a\":1}\n{\"done\":", "true}")))
                .containsExactly(tuple("{\"a\":1}", 1L, 0L), tuple("{\"done\":true}", 2L, 8L));
        assertThat(decode(Bodies.of("{\"done\":true}\r"))).containsExactly(tuple("{\"done\":true}", 1L, 0L));
    }

    @Test
    void keepsMultiByteCharactersSplitBetweenBuffers() {
        byte[] body = utf8("{\"thinking\":\"🧠 é 中\"}\n{\"response\":\"ok\"}");
        assertThat(decode(Bodies.wrapped(Bodies.bytewise(body))))
                .containsExactly(tuple("{\"thinking\":\"🧠 é 中\"}", 1L, 0L), tuple("{\"response\":\"ok\"}", 2L, 27L));
    }

    @Test
    void failsOnAnOverLongLineNamingWhereItStarts() {
        StepVerifier.create(JsonLines.decode(Bodies.of("{\"a\":1}\n{\"b\":\"0123456789\"}\n"), new WireLimits(16, 16)))
                .assertNext(line -> assertThat(line.asString()).isEqualTo("{\"a\":1}"))
                .expectErrorSatisfies(error -> assertTooLong(error, 2, 8))
                .verify(NEVER_ENDING);
    }

    @Test
    void acceptsALineOfExactlyTheLimitEvenWithItsCarriageReturnHeldAlone() {
        List<JsonLine> lines = JsonLines.decode(Bodies.of("{\"b\":\"01234567\"}\r", "\n"), new WireLimits(16, 16))
                .collectList()
                .block(NEVER_ENDING);
        assertThat(lines).extracting(JsonLine::asString).containsExactly("{\"b\":\"01234567\"}");
    }

    @Test
    void failsOnAnEndlessLineWithoutWaitingForItsEnd() {
        AtomicBoolean cancelled = new AtomicBoolean();
        Flux<ByteBuf> endless = Flux.concat(
                        Bodies.of("{}\n{\"x\":\""), Flux.generate(sink -> sink.next(Unpooled.wrappedBuffer(utf8("xxxxxxxx")))))
                .doOnCancel(() -> cancelled.set(true));
        StepVerifier.create(JsonLines.decode(endless, new WireLimits(1024, 1024)))
                .expectNextCount(1)
                .expectErrorSatisfies(error -> assertTooLong(error, 2, 3))
                .verify(NEVER_ENDING);
        assertThat(cancelled).isTrue();
    }

    @Test
    void passesAnUpstreamErrorOnUnchangedAfterTheLinesBeforeIt() {
        IllegalStateException boom = new IllegalStateException("connection reset");
        Flux<ByteBuf> body = Flux.concat(Bodies.of("{\"a\":1}\n{\"b\":2}\n{\"c\""), Flux.error(boom));
        StepVerifier.create(JsonLines.decode(body), 0)
                .thenRequest(1)
                .assertNext(line -> assertThat(line.asString()).isEqualTo("{\"a\":1}"))
                .thenRequest(1)
                .assertNext(line -> assertThat(line.asString()).isEqualTo("{\"b\":2}"))
                .expectErrorSatisfies(error -> assertThat(error).isSameAs(boom))
                .verify(NEVER_ENDING);
    }

    @Test
    void cancelsTheBodyWhenCancelledMidStream() {
        TestPublisher<ByteBuf> body = TestPublisher.create();
        StepVerifier.create(JsonLines.decode(body.flux()))
                .then(() -> body.next(Unpooled.wrappedBuffer(utf8("{\"a\":1}\n{\"b\":2}\n"))))
                .expectNextCount(1)
                .thenCancel()
                .verify(NEVER_ENDING);
        body.assertCancelled();
    }

    @Test
    void emitsNoMoreLinesThanRequestedAndReadsEachBufferBeforeItIsReleased() {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            body.append("{\"n\":").append(i).append("}\n");
        }
        List<byte[]> chunks = Bodies.split(utf8(body.toString()), List.of(40, 3, 0, 17));
        List<String> seen = new ArrayList<>();
        Flux<String> lines = JsonLines.decode(Bodies.releasedAfterNext(UnpooledByteBufAllocator.DEFAULT, chunks))
                .map(JsonLine::asString)
                .doOnNext(seen::add);
        StepVerifier.create(lines, 0)
                .thenRequest(1)
                .expectNextCount(1)
                .thenRequest(2)
                .expectNextCount(2)
                .thenRequest(Long.MAX_VALUE)
                .expectNextCount(27)
                .expectComplete()
                .verify(NEVER_ENDING);
        assertThat(seen).hasSize(30);
        for (int i = 0; i < 30; i++) {
            assertThat(seen.get(i)).isEqualTo("{\"n\":" + i + "}");
        }
    }

    private static void assertTooLong(Throwable error, long line, long offset) {
        assertThat(error).isInstanceOfSatisfying(ProtocolException.class, protocol -> {
            assertThat(protocol.reason()).isEqualTo(ProtocolException.Reason.LINE_TOO_LONG);
            assertThat(protocol.line()).as("line").isEqualTo(line);
            assertThat(protocol.byteOffset()).as("byte offset").isEqualTo(offset);
        });
    }
}
