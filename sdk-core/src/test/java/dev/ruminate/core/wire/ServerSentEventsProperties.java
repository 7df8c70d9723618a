package dev.ruminate.core.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * The SSE decoder's output does not depend on where the body is split into buffers, and matches a
 * plain reference model of the rules.
 */
class ServerSentEventsProperties {

    @Property(tries = 200)
    void decodesLikeTheReferenceWhateverTheBufferSplits(
            @ForAll("documents") String document, @ForAll("bufferSizes") List<Integer> sizes) {
        byte[] body = Bodies.utf8(document);
        Outcome<SseEventValue> expected = SseReference.decode(document, WireLimits.DEFAULT);
        Outcome<SseEventValue> whole = Outcome.sse(Bodies.wrapped(List.of(body)), WireLimits.DEFAULT);
        Outcome<SseEventValue> split = Outcome.sse(Bodies.releasedAfterNext(Bodies.HEAP, Bodies.split(body, sizes)), WireLimits.DEFAULT);

        assertThat(whole).isEqualTo(expected);
        assertThat(split).isEqualTo(whole);
        Statistics.label("events").collect(expected.frames().isEmpty() ? "none" : expected.frames().size() < 4 ? "1-3" : "4+");
        Statistics.label("events").coverage(coverage -> coverage.check("4+").percentage(percent -> percent > 10));
    }

    @Property(tries = 100)
    void decodesOneByteBuffersLikeTheReference(@ForAll("documents") String document) {
        byte[] body = Bodies.utf8(document);
        Outcome<SseEventValue> split = Outcome.sse(Bodies.releasedAfterNext(Bodies.HEAP, Bodies.bytewise(body)), WireLimits.DEFAULT);

        assertThat(split).isEqualTo(SseReference.decode(document, WireLimits.DEFAULT));
    }

    @Property(tries = 200)
    void failsAtTheSameLineWhateverTheBufferSplits(
            @ForAll("documents") String document,
            @ForAll("bufferSizes") List<Integer> sizes,
            @ForAll @IntRange(min = 1, max = 80) int maxLineBytes,
            @ForAll @IntRange(min = 1, max = 120) int maxEventBytes) {
        WireLimits limits = new WireLimits(maxLineBytes, maxEventBytes);
        byte[] body = Bodies.utf8(document);
        Outcome<SseEventValue> expected = SseReference.decode(document, limits);
        Outcome<SseEventValue> whole = Outcome.sse(Bodies.wrapped(List.of(body)), limits);
        Outcome<SseEventValue> split = Outcome.sse(Bodies.releasedAfterNext(Bodies.HEAP, Bodies.split(body, sizes)), limits);

        assertThat(whole).isEqualTo(expected);
        assertThat(split).isEqualTo(whole);
        Statistics.label("failed").collect(expected.error() != null);
        Statistics.label("failed").coverage(coverage -> {
            coverage.check(true).percentage(percent -> percent > 10);
            coverage.check(false).percentage(percent -> percent > 5);
        });
    }

    @Provide
    Arbitrary<List<Integer>> bufferSizes() {
        return Texts.bufferSizes();
    }

    /** Generates event-stream bodies: random field mixes, line-end styles, a BOM, an unfinished last line. */
    @Provide
    Arbitrary<String> documents() {
        Arbitrary<String> lineEnd = Arbitraries.of("\n", "\r\n", "\r");
        Arbitrary<String> line = Combinators.combine(fieldLine(), lineEnd).as(String::concat);
        Arbitrary<String> bom = Arbitraries.of("", "", "", "\uFEFF");
        Arbitrary<String> unfinished = Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just("")), Tuple.of(1, fieldLine()));
        return Combinators.combine(bom, line.list().ofMaxSize(40).withSizeDistribution(RandomDistribution.uniform()), unfinished)
                .as((start, lines, last) -> start + String.join("", lines) + last);
    }

    private static Arbitrary<String> fieldLine() {
        Arbitrary<String> space = Arbitraries.of("", " ", " ", "  ");
        Arbitrary<String> data = Combinators.combine(space, Texts.text(24)).as((s, v) -> "data:" + s + v);
        Arbitrary<String> type = Arbitraries.oneOf(
                Arbitraries.of("", "message", "ping", "content_block_delta", "é🧠"), Texts.text(6));
        Arbitrary<String> event = Combinators.combine(space, type).as((s, v) -> "event:" + s + v);
        Arbitrary<String> id = Combinators.combine(space, Texts.text(5)).as((s, v) -> "id:" + s + v);
        Arbitrary<String> comment = Texts.text(12).map(v -> ":" + v);
        Arbitrary<String> retry = Arbitraries.integers().between(0, 5000).map(v -> "retry: " + v);
        Arbitrary<String> unknown = Combinators.combine(Arbitraries.of("foo", "Data", "events", "i", "data ", " data"), Texts.text(8))
                .as((name, v) -> name + ":" + v);
        Arbitrary<String> bare = Arbitraries.of("data", "event", "id", "retry", "data ");
        return Arbitraries.frequencyOf(
                Tuple.of(8, data),
                Tuple.of(7, Arbitraries.just("")),
                Tuple.of(2, event),
                Tuple.of(2, comment),
                Tuple.of(1, id),
                Tuple.of(1, retry),
                Tuple.of(1, unknown),
                Tuple.of(1, bare));
    }
}
