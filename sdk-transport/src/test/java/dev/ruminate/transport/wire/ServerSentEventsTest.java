package dev.ruminate.transport.wire;

import static dev.ruminate.transport.wire.Bodies.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import reactor.test.publisher.TestPublisher;

class ServerSentEventsTest {

    /** Bounds the tests whose failure mode is a stream that never ends, so they fail instead of hanging. */
    private static final Duration NEVER_ENDING = Duration.ofSeconds(10);

    private static List<SseEventValue> decode(Flux<ByteBuf> body) {
        return decode(body, WireLimits.DEFAULT);
    }

    private static List<SseEventValue> decode(Flux<ByteBuf> body, WireLimits limits) {
        List<SseEventValue> events = new ArrayList<>();
        StepVerifier.create(ServerSentEvents.decode(body, limits).map(SseEventValue::of))
                .recordWith(() -> events)
                .thenConsumeWhile(event -> true)
                .expectComplete()
                .verify(NEVER_ENDING);
        return events;
    }

    private static SseEventValue event(String type, String data, long line, long offset) {
        return SseEventValue.ofText(type, data, null, line, offset);
    }

    @Test
    void decodesOneEventWithItsPosition() {
        assertThat(decode(Bodies.of("data: hello\n\n"))).containsExactly(event("message", "hello", 1, 0));
    }

    @Test
    void joinsSeveralDataLinesWithNewlines() {
        assertThat(decode(Bodies.of("data: first\ndata:second\ndata:  third\n\n")))
                .containsExactly(event("message", "first\nsecond\n third", 1, 0));
    }

    @Test
    void stripsOnlyOneSpaceAfterTheColon() {
        assertThat(decode(Bodies.of("data:no space\n\ndata:  two spaces\n\ndata: \n\n")))
                .extracting(SseEventValue::rawData)
                .containsExactly("no space", " two spaces", "");
    }

    @Test
    void takesTheTypeFromTheEventFieldAndResetsItAfterEachEvent() {
        String body = "event: message_start\ndata: {\"a\":1}\n\n"
                + "data: plain\n\n"
                + "event: content_block_delta\nevent: ping\ndata: {}\n\n";
        assertThat(decode(Bodies.of(body)))
                .containsExactly(
                        event("message_start", "{\"a\":1}", 1, 0),
                        event("message", "plain", 4, 36),
                        event("ping", "{}", 6, 49));
    }

    @Test
    void reusesTheStringOfARepeatedEventType() {
        List<SseEvent> events = ServerSentEvents.decode(
                        Bodies.of("event: content_block_delta\ndata: 1\n\n", "event: content_block_delta\ndata: 2\n\n"))
                .collectList()
                .block(NEVER_ENDING);
        assertThat(events).hasSize(2);
        assertThat(events.get(1).type()).isSameAs(events.get(0).type());
    }

    @Test
    void skipsCommentsAndStartsTheEventAtItsFirstFieldLine() {
        String body = ": OPENROUTER PROCESSING\n\n: keep-alive\ndata: x\n: between fields\ndata: y\n\n:\n\n";
        assertThat(decode(Bodies.of(body))).containsExactly(event("message", "x\ny", 4, 38));
    }

    @Test
    void ignoresRetryAndUnknownFieldsAndLinesWithoutKnownNames() {
        String body = "retry: 1000\nfoo: bar\nDATA: upper case is another field\ndata: kept\nunknown\n\n";
        assertThat(decode(Bodies.of(body))).containsExactly(event("message", "kept", 1, 0));
    }

    @ParameterizedTest(name = "line end {0}")
    @ValueSource(strings = {"\n", "\r\n", "\r"})
    void acceptsEachLineEnd(String eol) {
        String body = "event: a" + eol + "data: 1" + eol + "data: 2" + eol + eol + "data: 3" + eol + eol;
        long second = utf8("event: a" + eol + "data: 1" + eol + "data: 2" + eol + eol).length;
        assertThat(decode(Bodies.of(body)))
                .containsExactly(event("a", "1\n2", 1, 0), event("message", "3", 5, second));
    }

    @Test
    void acceptsMixedLineEnds() {
        assertThat(decode(Bodies.of("data: 1\r\ndata: 2\rdata: 3\n\r\ndata: 4\r\r")))
                .containsExactly(event("message", "1\n2\n3", 1, 0), event("message", "4", 5, 27));
    }

    @Test
    void treatsACarriageReturnAndALineFeedInTwoBuffersAsOneLineEnd() {
        // Were the \n a line end of its own, it would be a blank line dispatching "a" alone.
        assertThat(decode(Bodies.of("data: a\r", "\ndata: b\r", "\n\r", "\ndata: c\r\n\r\n")))
                .containsExactly(event("message", "a\nb", 1, 0), event("message", "c", 4, 20));
    }

    @Test
    void treatsALoneCarriageReturnBeforeAnEmptyBufferAsALineEnd() {
        assertThat(decode(Bodies.of("data: a\r", "", "\r", "", "data: b\r", "\r")))
                .containsExactly(event("message", "a", 1, 0), event("message", "b", 3, 9));
    }

    @Test
    void dispatchesTheLastEventWhenTheFinalBlankLineIsMissing() {
        assertThat(decode(Bodies.of("data: a\n\ndata: b\n"))).containsExactly(
                event("message", "a", 1, 0), event("message", "b", 3, 9));
        assertThat(decode(Bodies.of("data: a\n\nevent: last\ndata: b")))
                .containsExactly(event("message", "a", 1, 0), event("last", "b", 3, 9));
    }

    @Test
    void dropsATrailingEventWithoutDataAtTheEnd() {
        assertThat(decode(Bodies.of("data: a\n\nevent: orphan\n"))).containsExactly(event("message", "a", 1, 0));
    }

    @Test
    void recognisesTheDoneSentinel() {
        List<SseEvent> events = ServerSentEvents.decode(Bodies.of("data: {\"x\":1}\n\ndata: [DONE]\n\n"))
                .collectList()
                .block(NEVER_ENDING);
        assertThat(events).extracting(SseEvent::isDone).containsExactly(false, true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"[DONE]", " [DONE]", "[DONE] ", "\t[DONE]\r\n", "\n [DONE]\n\n"})
    void recognisesTheDoneSentinelAmidWhitespace(String data) {
        assertThat(new SseEvent("message", utf8(data), null, 1, 0).isDone()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "[DONE", "DONE]", "[done]", "[DONE]x", "x[DONE]", "[ DONE]", "[DONE]\u00a0", "{\"a\":1}\n[DONE]"})
    void recognisesNothingElseAsTheDoneSentinel(String data) {
        assertThat(new SseEvent("message", utf8(data), null, 1, 0).isDone()).isFalse();
    }

    @Test
    void skipsAByteOrderMarkAtTheStartOfTheBody() {
        assertThat(decode(Bodies.of("\uFEFFdata: x\n\n"))).containsExactly(event("message", "x", 1, 3));
    }

    @Test
    void skipsAByteOrderMarkSplitBetweenBuffers() {
        byte[] body = utf8("\uFEFFdata: x\n\n");
        assertThat(decode(Bodies.wrapped(Bodies.bytewise(body)))).containsExactly(event("message", "x", 1, 3));
    }

    @Test
    void keepsAByteOrderMarkAfterTheStartAsPartOfTheFieldName() {
        assertThat(decode(Bodies.of("data: a\n\n\uFEFFdata: x\n\n"))).containsExactly(event("message", "a", 1, 0));
    }

    @Test
    void dispatchesAnEventWithAnEmptyDataLine() {
        assertThat(decode(Bodies.of("data\n\ndata:\n\ndata:\ndata:\n\n")))
                .extracting(SseEventValue::rawData)
                .containsExactly("", "", "\n");
    }

    @Test
    void doesNotDispatchAnEventWithoutData() {
        assertThat(decode(Bodies.of("event: ping\n\nid: 7\n\ndata: x\n\n")))
                .containsExactly(SseEventValue.ofText("message", "x", "7", 5, 20));
    }

    @Test
    void carriesTheLastIdOverToLaterEventsAndIgnoresIdsWithNul() {
        List<SseEvent> events = ServerSentEvents.decode(
                        Bodies.of("id: 1\ndata: a\n\ndata: b\n\nid: 2\u0000\ndata: c\n\nid\ndata: d\n\n"))
                .collectList()
                .block(NEVER_ENDING);
        assertThat(events).extracting(SseEvent::id).containsExactly("1", "1", "1", null);
    }

    @Test
    void keepsDataBytesRawEvenWhenTheyAreNotUtf8() {
        byte[] body = {'d', 'a', 't', 'a', ':', ' ', (byte) 0xFF, (byte) 0xC3, 'x', '\n', '\n'};
        List<SseEvent> events = ServerSentEvents.decode(Bodies.wrapped(List.of(body))).collectList().block(NEVER_ENDING);
        assertThat(events).hasSize(1);
        assertThat(events.get(0).data()).containsExactly((byte) 0xFF, (byte) 0xC3, 'x');
    }

    @Test
    void keepsMultiByteCharactersSplitBetweenBuffers() {
        byte[] body = utf8("event: é\ndata: 🧠 thinking… 中文\n\n");
        assertThat(decode(Bodies.wrapped(Bodies.bytewise(body))))
                .containsExactly(event("é", "🧠 thinking… 中文", 1, 0));
    }

    @Test
    void decodesHugeLinesAndEventsSpreadOverBuffersAndTheSmallOnesAfterThem() {
        String big = "x".repeat(40_000);
        String body = "data: " + big + "\n\ndata: a\ndata: " + big + "\ndata: b\n\ndata: small\n\n";
        long second = utf8("data: " + big + "\n\n").length;
        long third = second + utf8("data: a\ndata: " + big + "\ndata: b\n\n").length;
        assertThat(decode(Bodies.wrapped(Bodies.split(utf8(body), List.of(1000, 7)))))
                .containsExactly(
                        event("message", big, 1, 0),
                        event("message", "a\n" + big + "\nb", 3, second),
                        event("message", "small", 7, third));
    }

    @Test
    void failsOnAnOverLongLineNamingWhereItStarts() {
        WireLimits limits = new WireLimits(16, 1000);
        Flux<SseEvent> events = ServerSentEvents.decode(Bodies.of("data: ok\n\n: fine\ndata: 0123456789abcdef\n\n"), limits);
        StepVerifier.create(events)
                .assertNext(event -> assertThat(event.dataAsString()).isEqualTo("ok"))
                .expectErrorSatisfies(error -> assertThat(error)
                        .isInstanceOfSatisfying(ProtocolException.class, protocol -> {
                            assertThat(protocol.reason()).isEqualTo(ProtocolException.Reason.LINE_TOO_LONG);
                            assertThat(protocol.line()).isEqualTo(4);
                            assertThat(protocol.byteOffset()).isEqualTo(17);
                            assertThat(protocol).hasMessageContaining("line 4").hasMessageContaining("byte 17");
                        }))
                .verify(NEVER_ENDING);
    }

    @Test
    void acceptsALineOfExactlyTheLimit() {
        assertThat(decode(Bodies.of("data: 0123456789\n\n"), new WireLimits(16, 1000)))
                .containsExactly(event("message", "0123456789", 1, 0));
    }

    @Test
    void failsOnAnOverLongLineSpreadOverBuffers() {
        byte[] body = utf8("data: ok\n\ndata: 0123456789abcdef\n\n");
        StepVerifier.create(ServerSentEvents.decode(Bodies.wrapped(Bodies.bytewise(body)), new WireLimits(16, 1000)))
                .expectNextCount(1)
                .expectErrorSatisfies(error -> assertTooLong(error, 3, 10))
                .verify(NEVER_ENDING);
    }

    @Test
    void failsOnAnEndlessLineWithoutWaitingForItsEnd() {
        AtomicBoolean cancelled = new AtomicBoolean();
        Flux<ByteBuf> endless = Flux.concat(
                        Bodies.of("data: ok\n\ndata: "),
                        Flux.generate(sink -> sink.next(Unpooled.wrappedBuffer(utf8("xxxxxxxx")))))
                .doOnCancel(() -> cancelled.set(true));
        StepVerifier.create(ServerSentEvents.decode(endless, new WireLimits(1024, 1 << 20)))
                .expectNextCount(1)
                .expectErrorSatisfies(error -> assertTooLong(error, 3, 10))
                .verify(NEVER_ENDING);
        assertThat(cancelled).isTrue();
    }

    @Test
    void failsOnAnOverLargeEventNamingTheDataLineThatCrossedTheLimit() {
        WireLimits limits = new WireLimits(100, 20);
        String body = "data: ok\n\nevent: big\ndata: 0123456789\ndata: 0123456789\n\n";
        StepVerifier.create(ServerSentEvents.decode(Bodies.of(body), limits))
                .expectNextCount(1)
                .expectErrorSatisfies(error -> {
                    assertTooLong(error, 5, 38);
                    assertThat(error).hasMessageContaining("event starting at line 3");
                })
                .verify(NEVER_ENDING);
    }

    @Test
    void acceptsAnEventOfExactlyTheLimit() {
        assertThat(decode(Bodies.of("data: 0123456789\ndata: 012345678\n\n"), new WireLimits(100, 20)))
                .extracting(SseEventValue::rawData)
                .containsExactly("0123456789\n012345678");
    }

    @Test
    void failsOnAnEndlessDataLineAtTheEventLimitBeforeTheLineLimit() {
        Flux<ByteBuf> endless = Flux.concat(
                Bodies.of("data: 0123\ndata: "), Flux.generate(sink -> sink.next(Unpooled.wrappedBuffer(utf8("xxxxxxxx")))));
        AtomicInteger buffers = new AtomicInteger();
        StepVerifier.create(ServerSentEvents.decode(endless.doOnNext(buf -> buffers.incrementAndGet()), new WireLimits(1 << 20, 64)))
                .expectErrorSatisfies(error -> assertTooLong(error, 2, 11))
                .verify(NEVER_ENDING);
        // 64 bytes of data take 8 buffers after the first; a decoder waiting for the line limit takes 130,000.
        assertThat(buffers.get()).isLessThan(20);
    }

    @Test
    void passesAnUpstreamErrorOnUnchangedAfterTheEventsBeforeIt() {
        IllegalStateException boom = new IllegalStateException("connection reset");
        Flux<ByteBuf> body = Flux.concat(Bodies.of("data: a\n\ndata: b\n\ndata: partial"), Flux.error(boom));
        // No demand at first: the error arrives while both events wait, and must not overtake them.
        StepVerifier.create(ServerSentEvents.decode(body), 0)
                .thenRequest(1)
                .assertNext(event -> assertThat(event.dataAsString()).isEqualTo("a"))
                .thenRequest(1)
                .assertNext(event -> assertThat(event.dataAsString()).isEqualTo("b"))
                .expectErrorSatisfies(error -> assertThat(error).isSameAs(boom))
                .verify(NEVER_ENDING);
    }

    @Test
    void dispatchesTheEventOfCompleteLinesBeforeAnUpstreamError() {
        IllegalStateException boom = new IllegalStateException("connection reset");
        Flux<ByteBuf> body = Flux.concat(Bodies.of("data: {\"a\":1}\n\ndata: {\"b\":2}\n"), Flux.error(boom));
        StepVerifier.create(ServerSentEvents.decode(body).map(SseEventValue::of))
                .expectNext(event("message", "{\"a\":1}", 1, 0), event("message", "{\"b\":2}", 3, 15))
                .expectErrorSatisfies(error -> assertThat(error).isSameAs(boom))
                .verify(NEVER_ENDING);
    }

    @Test
    void dropsAnUnterminatedLineAtAnUpstreamError() {
        IllegalStateException boom = new IllegalStateException("connection reset");
        StepVerifier.create(ServerSentEvents.decode(Flux.concat(Bodies.of("data: {\"b\":2}"), Flux.error(boom))))
                .expectErrorSatisfies(error -> assertThat(error).isSameAs(boom))
                .verify(NEVER_ENDING);
        // the complete data line dispatches; the unterminated one is cut and dropped
        StepVerifier.create(ServerSentEvents.decode(Flux.concat(Bodies.of("data: a\r\ndata: {\"b\""), Flux.error(boom))))
                .assertNext(event -> assertThat(event.dataAsString()).isEqualTo("a"))
                .expectErrorSatisfies(error -> assertThat(error).isSameAs(boom))
                .verify(NEVER_ENDING);
    }

    @Test
    void cancelsTheBodyWhenCancelledMidStream() {
        TestPublisher<ByteBuf> body = TestPublisher.create();
        StepVerifier.create(ServerSentEvents.decode(body.flux()))
                .then(() -> body.next(Unpooled.wrappedBuffer(utf8("data: a\n\ndata: b\n\n"))))
                .assertNext(event -> assertThat(event.dataAsString()).isEqualTo("a"))
                .thenCancel()
                .verify(NEVER_ENDING);
        body.assertCancelled();
    }

    @Test
    void emitsNoMoreEventsThanRequestedWhenOneBufferHoldsMany() {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            body.append("data: ").append(i).append("\n\n");
        }
        // StepVerifier fails on any event emitted beyond the demand.
        StepVerifier.create(ServerSentEvents.decode(Bodies.of(body.toString())), 0)
                .expectSubscription()
                .thenRequest(1)
                .assertNext(event -> assertThat(event.dataAsString()).isEqualTo("0"))
                .thenRequest(1)
                .assertNext(event -> assertThat(event.dataAsString()).isEqualTo("1"))
                .thenRequest(2)
                .expectNextCount(2)
                .thenRequest(1)
                .assertNext(event -> assertThat(event.dataAsString()).isEqualTo("4"))
                .expectComplete()
                .verify(NEVER_ENDING);
    }

    static Stream<ByteBufAllocator> allocators() {
        // Unpooled: a freed buffer refuses reads. Pooled direct, as Reactor Netty uses: a freed buffer
        // is recycled for the next chunk, so a late read sees the wrong bytes.
        return Stream.of(UnpooledByteBufAllocator.DEFAULT, PooledByteBufAllocator.DEFAULT);
    }

    @ParameterizedTest
    @MethodSource("allocators")
    void readsEachBufferBeforeTheBodyReleasesIt(ByteBufAllocator allocator) {
        StringBuilder body = new StringBuilder();
        List<SseEventValue> expected = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            expected.add(event("e" + i % 3, "{\"n\":" + i + "}", 3L * i + 1, utf8(body.toString()).length));
            body.append("event: e").append(i % 3).append("\ndata: {\"n\":").append(i).append("}\n\n");
        }
        List<byte[]> chunks = Bodies.split(utf8(body.toString()), List.of(7, 1, 64, 0, 3, 45));
        List<SseEventValue> seen = new ArrayList<>();
        // Demand of one event at a time keeps decoded events waiting while more buffers arrive.
        Flux<SseEventValue> events = ServerSentEvents.decode(Bodies.releasedAfterNext(allocator, chunks))
                .map(SseEventValue::of)
                .doOnNext(seen::add);
        StepVerifier.create(events, 0)
                .thenRequest(1)
                .expectNextCount(1)
                .thenRequest(1)
                .expectNextCount(1)
                .thenRequest(Long.MAX_VALUE)
                .expectNextCount(38)
                .expectComplete()
                .verify(NEVER_ENDING);
        assertThat(seen).isEqualTo(expected);
    }

    @Test
    void neitherReleasesNorMovesTheBuffers() {
        List<ByteBuf> buffers = List.of(
                Unpooled.copiedBuffer("data: a\n", StandardCharsets.UTF_8),
                Unpooled.copiedBuffer("\ndata: b", StandardCharsets.UTF_8));
        try {
            assertThat(decode(Flux.fromIterable(buffers))).hasSize(2);
            for (ByteBuf buf : buffers) {
                assertThat(buf.refCnt()).isEqualTo(1);
                assertThat(buf.readerIndex()).isZero();
            }
        } finally {
            buffers.forEach(ByteBuf::release);
        }
    }

    @Test
    void startsWithFreshStateForEachSubscription() {
        Flux<SseEvent> events = ServerSentEvents.decode(Bodies.of("event: t\nid: 1\ndata: a\n\ndata: b"));
        StepVerifier.create(events.take(1)).expectNextCount(1).expectComplete()
                .verify(NEVER_ENDING);
        List<SseEventValue> first = decode(Bodies.of("event: t\nid: 1\ndata: a\n\ndata: b"));
        List<SseEventValue> again = new ArrayList<>();
        events.map(SseEventValue::of).doOnNext(again::add).blockLast(NEVER_ENDING);
        assertThat(again).isEqualTo(first).hasSize(2);
    }

    private static void assertTooLong(Throwable error, long line, long offset) {
        assertThat(error).isInstanceOfSatisfying(ProtocolException.class, protocol -> {
            assertThat(protocol.reason()).isEqualTo(ProtocolException.Reason.LINE_TOO_LONG);
            assertThat(protocol.line()).as("line").isEqualTo(line);
            assertThat(protocol.byteOffset()).as("byte offset").isEqualTo(offset);
        });
    }
}
