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
 * The NDJSON decoder's output does not depend on where the body is split into buffers, and matches
 * a plain reference model of the framing.
 */
class JsonLinesProperties {

    @Property(tries = 200)
    void decodesLikeTheReferenceWhateverTheBufferSplits(
            @ForAll("documents") String document, @ForAll("bufferSizes") List<Integer> sizes) {
        byte[] body = Bodies.utf8(document);
        Outcome<JsonLineValue> expected = JsonLinesReference.decode(document, WireLimits.DEFAULT);
        Outcome<JsonLineValue> whole = Outcome.jsonLines(Bodies.wrapped(List.of(body)), WireLimits.DEFAULT);
        Outcome<JsonLineValue> split = Outcome.jsonLines(
                Bodies.releasedAfterNext(Bodies.HEAP, Bodies.split(body, sizes)), WireLimits.DEFAULT);

        assertThat(whole).isEqualTo(expected);
        assertThat(split).isEqualTo(whole);
        Statistics.label("lines").collect(expected.frames().size() < 4 ? "0-3" : "4+");
        Statistics.label("lines").coverage(coverage -> coverage.check("4+").percentage(percent -> percent > 25));
    }

    @Property(tries = 100)
    void decodesOneByteBuffersLikeTheReference(@ForAll("documents") String document) {
        byte[] body = Bodies.utf8(document);
        Outcome<JsonLineValue> split = Outcome.jsonLines(Bodies.releasedAfterNext(Bodies.HEAP, Bodies.bytewise(body)), WireLimits.DEFAULT);

        assertThat(split).isEqualTo(JsonLinesReference.decode(document, WireLimits.DEFAULT));
    }

    @Property(tries = 200)
    void failsAtTheSameLineWhateverTheBufferSplits(
            @ForAll("documents") String document,
            @ForAll("bufferSizes") List<Integer> sizes,
            @ForAll @IntRange(min = 1, max = 60) int maxLineBytes) {
        WireLimits limits = new WireLimits(maxLineBytes, 1);
        byte[] body = Bodies.utf8(document);
        Outcome<JsonLineValue> expected = JsonLinesReference.decode(document, limits);
        Outcome<JsonLineValue> whole = Outcome.jsonLines(Bodies.wrapped(List.of(body)), limits);
        Outcome<JsonLineValue> split = Outcome.jsonLines(Bodies.releasedAfterNext(Bodies.HEAP, Bodies.split(body, sizes)), limits);

        assertThat(whole).isEqualTo(expected);
        assertThat(split).isEqualTo(whole);
        Statistics.label("failed").collect(expected.error() != null);
        Statistics.label("failed").coverage(coverage -> {
            coverage.check(true).percentage(percent -> percent > 20);
            coverage.check(false).percentage(percent -> percent > 5);
        });
    }

    @Provide
    Arbitrary<List<Integer>> bufferSizes() {
        return Texts.bufferSizes();
    }

    /** Generates NDJSON bodies: text lines (a {@code \r} inside some), blank ones, LF or CRLF ends, an unfinished last line. */
    @Provide
    Arbitrary<String> documents() {
        Arbitrary<String> text = Texts.text(30, '\r');
        Arbitrary<String> blank = Arbitraries.of("", " ", "\t", " \t ", "\r");
        Arbitrary<String> content = Arbitraries.frequencyOf(Tuple.of(5, text), Tuple.of(2, blank));
        Arbitrary<String> line = Combinators.combine(content, Arbitraries.of("\n", "\r\n")).as(String::concat);
        Arbitrary<String> unfinished = Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just("")), Tuple.of(1, content));
        return Combinators.combine(line.list().ofMaxSize(30).withSizeDistribution(RandomDistribution.uniform()), unfinished).as((lines, last) -> String.join("", lines) + last);
    }
}
