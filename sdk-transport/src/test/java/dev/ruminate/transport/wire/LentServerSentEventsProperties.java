package dev.ruminate.transport.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.transport.testing.Seeds;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/**
 * SSE framing that lends events ({@link StreamFraming#read}) reads exactly what owning framing
 * ({@link ServerSentEvents#decode}) decodes, whatever the buffer splits, on heap and direct buffers:
 * every buffer is scribbled over as soon as its {@code onNext} returns, so an event lent from a
 * buffer after its read (a view kept across reads) would show the scribble.
 */
class LentServerSentEventsProperties {

    static LongStream seeds() {
        return Seeds.of(200);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void lentEventsEqualOwnedOnesWhateverTheSplits(long seed) {
        Random random = Seeds.random(seed);
        String document = ServerSentEventsProperties.document(random);
        byte[] body = Bodies.utf8(document);
        List<byte[]> chunks = Bodies.split(body, Texts.bufferSizes(random));
        Outcome<SseEventValue> owned = Outcome.sse(Bodies.wrapped(List.of(body)), WireLimits.DEFAULT);

        assertThat(lent(scribbledAfterNext(chunks, false), WireLimits.DEFAULT)).isEqualTo(owned);
        assertThat(lent(scribbledAfterNext(chunks, true), WireLimits.DEFAULT)).isEqualTo(owned);
        assertThat(lent(scribbledAfterNext(Bodies.bytewise(body), false), WireLimits.DEFAULT)).isEqualTo(owned);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void lentEventsFailAtTheSameLineAsOwnedOnes(long seed) {
        Random random = Seeds.random(seed);
        String document = ServerSentEventsProperties.document(random);
        byte[] body = Bodies.utf8(document);
        WireLimits limits = new WireLimits(Texts.between(random, 1, 80), Texts.between(random, 1, 120));
        List<byte[]> chunks = Bodies.split(body, Texts.bufferSizes(random));

        assertThat(lent(scribbledAfterNext(chunks, random.nextBoolean()), limits))
                .isEqualTo(Outcome.sse(Bodies.wrapped(List.of(body)), limits));
    }

    static LongStream longLineSeeds() {
        return Seeds.of(40);
    }

    /**
     * Lines longer than the scanner's retained scratch (a Responses event repeating a whole text) are
     * lent from the scratch array the scanner hands over: they must survive the reads after theirs
     * (their blank line may come reads later, and short lines straddling those reads are held in a
     * scratch of their own), and they must not be copied.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("longLineSeeds")
    void longLinesAreLentFromTheHandedOverScratchAndStayIntact(long seed) {
        Random random = Seeds.random(seed);
        StringBuilder document = new StringBuilder();
        int longLines = 0;
        for (int i = 0; i < 12; i++) {
            boolean isLong = random.nextInt(3) == 0;
            longLines += isLong ? 1 : 0;
            int length = isLong ? Texts.between(random, LineScanner.RETAINED_CAPACITY - 8,
                    3 * LineScanner.RETAINED_CAPACITY) : Texts.between(random, 1, 300);
            document.append(random.nextBoolean() ? "event: e" + i + "\n" : "").append("data: ");
            for (int c = 0; c < length; c++) {
                int pick = random.nextInt(40);
                document.append(pick == 0 ? 'é' : pick == 1 ? '😀' : (char) ('a' + random.nextInt(26)));
            }
            document.append(random.nextBoolean() ? "\n\n" : "\r\n\r\n");
        }
        byte[] body = Bodies.utf8(document.toString());
        List<byte[]> chunks = Bodies.split(body, List.of(Texts.between(random, 200, 3000),
                Texts.between(random, 1, 40), Texts.between(random, 500, 1460)));
        Outcome<SseEventValue> owned = Outcome.sse(Bodies.wrapped(List.of(body)), WireLimits.DEFAULT);

        assertThat(lent(scribbledAfterNext(chunks, random.nextBoolean()), WireLimits.DEFAULT)).isEqualTo(owned);
        AtomicInteger lentLong = new AtomicInteger();
        StreamFraming.SSE.read(scribbledAfterNext(chunks, false), WireLimits.DEFAULT, () -> reader(e -> {
            if (e.dataLength() > LineScanner.RETAINED_CAPACITY && e.owned() != e) {
                lentLong.incrementAndGet();
            }
        })).blockLast(Duration.ofSeconds(30));
        // every event whose data alone is past the retained scratch came in a handed-over scratch
        long beyondScratch = owned.frames().stream()
                .filter(v -> v.rawData().length() > LineScanner.RETAINED_CAPACITY).count();
        assertThat(lentLong.get()).isEqualTo(beyondScratch).isLessThanOrEqualTo(longLines);
    }

    @Test
    void mostEventsOfATcpSizedReadAreLentNotCopied() {
        StringBuilder document = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            document.append("data: {\"n\":").append(i).append(",\"text\":\"some tokens of an answer\"}\n\n");
        }
        byte[] body = Bodies.utf8(document.toString());
        for (boolean direct : new boolean[] {false, true}) {
            AtomicInteger lent = new AtomicInteger();
            AtomicInteger all = new AtomicInteger();
            StreamFraming.SSE.read(scribbledAfterNext(Bodies.split(body, List.of(1460)), direct), WireLimits.DEFAULT,
                    () -> reader(e -> {
                        all.incrementAndGet();
                        if (e.owned() != e) {
                            lent.incrementAndGet();
                        }
                    })).blockLast(Duration.ofSeconds(30));
            assertThat(all.get()).isEqualTo(500);
            // each 1460-byte read cuts about one event of 60 bytes in two: that one is copied
            assertThat(lent.get()).as("lent events, direct buffers: " + direct).isGreaterThan(400);
        }
    }

    @Test
    void aReaderFailureEndsTheFluxAfterWhatItAddedAndReadsNothingMore() {
        byte[] body = Bodies.utf8("data: 1\n\ndata: 2\n\ndata: 3\n\n");
        List<String> seen = new ArrayList<>();
        Flux<String> read = StreamFraming.SSE.read(Flux.just(Unpooled.wrappedBuffer(body)), WireLimits.DEFAULT,
                () -> new StreamFraming.FrameReader<SseEvent, String>() {
                    @Override
                    public void frame(SseEvent frame, List<String> out) {
                        seen.add(frame.dataAsString());
                        out.add("before " + frame.dataAsString());
                        if (frame.dataAsString().equals("2")) {
                            throw new IllegalStateException("bad frame 2");
                        }
                    }

                    @Override
                    public void end(List<String> out) {
                        out.add("end");
                    }
                });
        StepVerifier.create(read)
                .expectNext("before 1", "before 2")
                .expectErrorMessage("bad frame 2")
                .verify(Duration.ofSeconds(10));
        assertThat(seen).containsExactly("1", "2");
    }

    @Test
    void anUpstreamErrorEndsTheFluxUnchangedAfterTheEventOfCompleteLines() {
        IllegalStateException reset = new IllegalStateException("connection reset");
        Flux<ByteBuf> body = Flux.concat(Flux.just(Unpooled.wrappedBuffer(Bodies.utf8("data: 1\n\ndata: 2\n"))),
                Flux.error(reset));
        StepVerifier.create(StreamFraming.SSE.read(body, WireLimits.DEFAULT, () -> reader(e -> { })))
                .expectNext("1", "2")
                .expectErrorSatisfies(e -> assertThat(e).isSameAs(reset))
                .verify(Duration.ofSeconds(10));
    }

    @Test
    void theReaderEndsTheResponseOnlyWhenTheBodyEnds() {
        Flux<ByteBuf> body = Flux.just(Unpooled.wrappedBuffer(Bodies.utf8("data: a\n\ndata: b")));
        StepVerifier.create(StreamFraming.SSE.read(body, WireLimits.DEFAULT, () -> reader(e -> { })))
                .expectNext("a", "b", "end")
                .verifyComplete();
    }

    @Test
    void aLimitViolationEndsTheFluxAfterTheEventsBeforeIt() {
        StepVerifier.create(StreamFraming.SSE.read(Flux.just(Unpooled.wrappedBuffer(
                        Bodies.utf8("data: ok\n\ndata: far too long\n\n"))), new WireLimits(8, 8), () -> reader(e -> { })))
                .expectNext("ok")
                .expectError(ProtocolException.class)
                .verify(Duration.ofSeconds(10));
    }

    /** A reader that turns each event into its data text, read during the call, and adds "end" at the end. */
    private static StreamFraming.FrameReader<SseEvent, String> reader(Consumer<SseEvent> look) {
        return new StreamFraming.FrameReader<>() {
            @Override
            public void frame(SseEvent frame, List<String> out) {
                look.accept(frame);
                out.add(frame.dataAsString());
            }

            @Override
            public void end(List<String> out) {
                out.add("end");
            }
        };
    }

    /** Reads a body with lending framing, each event turned into a value during the call. */
    private static Outcome<SseEventValue> lent(Flux<ByteBuf> body, WireLimits limits) {
        return Outcome.of(StreamFraming.SSE.read(body, limits, () -> new StreamFraming.FrameReader<SseEvent, SseEventValue>() {
            @Override
            public void frame(SseEvent frame, List<SseEventValue> out) {
                out.add(SseEventValue.of(frame));
            }

            @Override
            public void end(List<SseEventValue> out) {
                // values only
            }
        }), v -> v);
    }

    /**
     * The chunks as buffers emitted on demand, each overwritten with {@code '#'} and released as soon as
     * {@code onNext} returns: a view of it kept past its read shows the scribble.
     */
    private static Flux<ByteBuf> scribbledAfterNext(List<byte[]> chunks, boolean direct) {
        return Flux.generate(() -> 0, (index, sink) -> {
            if (index == chunks.size()) {
                sink.complete();
                return index;
            }
            byte[] chunk = chunks.get(index);
            ByteBuf buf = direct ? Unpooled.directBuffer(chunk.length).writeBytes(chunk)
                    : Unpooled.wrappedBuffer(Arrays.copyOf(chunk, chunk.length));
            try {
                sink.next(buf);
            } finally {
                byte[] scribble = new byte[buf.capacity()];
                Arrays.fill(scribble, (byte) '#');
                buf.setBytes(0, scribble);
                buf.release();
            }
            return index + 1;
        });
    }
}
