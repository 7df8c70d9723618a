package dev.ruminate.transport.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.transport.testing.Seeds;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The NDJSON decoder's output does not depend on where the body is split into buffers, and matches
 * a plain reference model of the framing.
 */
class JsonLinesProperties {

    /** A body and the buffer sizes to split it with. */
    record Split(String document, List<Integer> sizes) {

        static Split of(long seed) {
            Random random = Seeds.random(seed);
            return new Split(JsonLinesProperties.document(random), Texts.bufferSizes(random));
        }
    }

    /** A split body and the limits to decode it under. */
    record Limited(String document, List<Integer> sizes, WireLimits limits) {

        static Limited of(long seed) {
            Random random = Seeds.random(seed);
            String document = JsonLinesProperties.document(random);
            List<Integer> sizes = Texts.bufferSizes(random);
            return new Limited(document, sizes, new WireLimits(Texts.between(random, 1, 60), 1));
        }
    }

    static LongStream seeds() {
        return Seeds.of(200);
    }

    static LongStream bytewiseSeeds() {
        return Seeds.of(100);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void decodesLikeTheReferenceWhateverTheBufferSplits(long seed) {
        Split c = Split.of(seed);
        byte[] body = Bodies.utf8(c.document());
        Outcome<JsonLineValue> expected = JsonLinesReference.decode(c.document(), WireLimits.DEFAULT);
        Outcome<JsonLineValue> whole = Outcome.jsonLines(Bodies.wrapped(List.of(body)), WireLimits.DEFAULT);
        Outcome<JsonLineValue> split = Outcome.jsonLines(
                Bodies.releasedAfterNext(Bodies.HEAP, Bodies.split(body, c.sizes())), WireLimits.DEFAULT);

        assertThat(whole).isEqualTo(expected);
        assertThat(split).isEqualTo(whole);
    }

    @Test
    void theSplitCasesIncludeBodiesOfFourLinesOrMore() {
        double share = Coverage.share(seeds(),
                seed -> JsonLinesReference.decode(Split.of(seed).document(), WireLimits.DEFAULT).frames().size() >= 4);
        assertThat(share).as("share of bodies with 4+ lines").isGreaterThan(0.25);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("bytewiseSeeds")
    void decodesOneByteBuffersLikeTheReference(long seed) {
        String document = document(Seeds.random(seed));
        byte[] body = Bodies.utf8(document);
        Outcome<JsonLineValue> split = Outcome.jsonLines(Bodies.releasedAfterNext(Bodies.HEAP, Bodies.bytewise(body)), WireLimits.DEFAULT);

        assertThat(split).isEqualTo(JsonLinesReference.decode(document, WireLimits.DEFAULT));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void failsAtTheSameLineWhateverTheBufferSplits(long seed) {
        Limited c = Limited.of(seed);
        byte[] body = Bodies.utf8(c.document());
        Outcome<JsonLineValue> expected = JsonLinesReference.decode(c.document(), c.limits());
        Outcome<JsonLineValue> whole = Outcome.jsonLines(Bodies.wrapped(List.of(body)), c.limits());
        Outcome<JsonLineValue> split = Outcome.jsonLines(Bodies.releasedAfterNext(Bodies.HEAP, Bodies.split(body, c.sizes())), c.limits());

        assertThat(whole).isEqualTo(expected);
        assertThat(split).isEqualTo(whole);
    }

    @Test
    void theLimitCasesIncludeFailuresAndSuccesses() {
        double failed = Coverage.share(seeds(), seed -> {
            Limited c = Limited.of(seed);
            return JsonLinesReference.decode(c.document(), c.limits()).error() != null;
        });
        assertThat(failed).as("share of bodies that fail").isGreaterThan(0.20);
        assertThat(1 - failed).as("share of bodies that decode").isGreaterThan(0.05);
    }

    /**
     * Returns an NDJSON body: 0 to 30 lines (uniformly many) of text (a {@code \r} inside some) or
     * blanks, LF or CRLF ends, and an unfinished last line one time in three.
     */
    static String document(Random random) {
        StringBuilder document = new StringBuilder();
        int lines = random.nextInt(31);
        for (int i = 0; i < lines; i++) {
            document.append(content(random)).append(Texts.oneOf(random, "\n", "\r\n"));
        }
        if (random.nextInt(3) == 0) {
            document.append(content(random));
        }
        return document.toString();
    }

    /** Returns a line's content: text five times in seven, else a blank one. */
    private static String content(Random random) {
        return random.nextInt(7) < 5
                ? Texts.text(random, 30, '\r')
                : Texts.oneOf(random, "", " ", "\t", " \t ", "\r");
    }
}
