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
 * The SSE decoder's output does not depend on where the body is split into buffers, and matches a
 * plain reference model of the rules.
 */
class ServerSentEventsProperties {

    /** A body and the buffer sizes to split it with. */
    record Split(String document, List<Integer> sizes) {

        static Split of(long seed) {
            Random random = Seeds.random(seed);
            return new Split(ServerSentEventsProperties.document(random), Texts.bufferSizes(random));
        }
    }

    /** A split body and the limits to decode it under. */
    record Limited(String document, List<Integer> sizes, WireLimits limits) {

        static Limited of(long seed) {
            Random random = Seeds.random(seed);
            String document = ServerSentEventsProperties.document(random);
            List<Integer> sizes = Texts.bufferSizes(random);
            int maxLineBytes = Texts.between(random, 1, 80);
            int maxEventBytes = Texts.between(random, 1, 120);
            return new Limited(document, sizes, new WireLimits(maxLineBytes, maxEventBytes));
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
        Outcome<SseEventValue> expected = SseReference.decode(c.document(), WireLimits.DEFAULT);
        Outcome<SseEventValue> whole = Outcome.sse(Bodies.wrapped(List.of(body)), WireLimits.DEFAULT);
        Outcome<SseEventValue> split = Outcome.sse(Bodies.releasedAfterNext(Bodies.HEAP, Bodies.split(body, c.sizes())), WireLimits.DEFAULT);

        assertThat(whole).isEqualTo(expected);
        assertThat(split).isEqualTo(whole);
    }

    @Test
    void theSplitCasesIncludeBodiesOfFourEventsOrMore() {
        double share = Coverage.share(seeds(),
                seed -> SseReference.decode(Split.of(seed).document(), WireLimits.DEFAULT).frames().size() >= 4);
        assertThat(share).as("share of bodies with 4+ events").isGreaterThan(0.10);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("bytewiseSeeds")
    void decodesOneByteBuffersLikeTheReference(long seed) {
        String document = document(Seeds.random(seed));
        byte[] body = Bodies.utf8(document);
        Outcome<SseEventValue> split = Outcome.sse(Bodies.releasedAfterNext(Bodies.HEAP, Bodies.bytewise(body)), WireLimits.DEFAULT);

        assertThat(split).isEqualTo(SseReference.decode(document, WireLimits.DEFAULT));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void failsAtTheSameLineWhateverTheBufferSplits(long seed) {
        Limited c = Limited.of(seed);
        byte[] body = Bodies.utf8(c.document());
        Outcome<SseEventValue> expected = SseReference.decode(c.document(), c.limits());
        Outcome<SseEventValue> whole = Outcome.sse(Bodies.wrapped(List.of(body)), c.limits());
        Outcome<SseEventValue> split = Outcome.sse(Bodies.releasedAfterNext(Bodies.HEAP, Bodies.split(body, c.sizes())), c.limits());

        assertThat(whole).isEqualTo(expected);
        assertThat(split).isEqualTo(whole);
    }

    @Test
    void theLimitCasesIncludeFailuresAndSuccesses() {
        double failed = Coverage.share(seeds(), seed -> {
            Limited c = Limited.of(seed);
            return SseReference.decode(c.document(), c.limits()).error() != null;
        });
        assertThat(failed).as("share of bodies that fail").isGreaterThan(0.10);
        assertThat(1 - failed).as("share of bodies that decode").isGreaterThan(0.05);
    }

    /**
     * Returns an event-stream body: a BOM one time in four, 0 to 40 lines (uniformly many) with
     * random field mixes and line-end styles, and an unfinished last line one time in three.
     */
    static String document(Random random) {
        StringBuilder document = new StringBuilder(random.nextInt(4) == 0 ? "\uFEFF" : "");
        int lines = random.nextInt(41);
        for (int i = 0; i < lines; i++) {
            document.append(fieldLine(random)).append(Texts.oneOf(random, "\n", "\r\n", "\r"));
        }
        if (random.nextInt(3) == 0) {
            document.append(fieldLine(random));
        }
        return document.toString();
    }

    /** Returns one line without its end; weights 8 data, 7 blank, 2 event, 2 comment, 1 each id, retry, unknown field, bare field name. */
    private static String fieldLine(Random random) {
        int pick = random.nextInt(23);
        if (pick < 8) {
            return "data:" + space(random) + Texts.text(random, 24);
        }
        if (pick < 15) {
            return "";
        }
        if (pick < 17) {
            String type = random.nextBoolean()
                    ? Texts.oneOf(random, "", "message", "ping", "content_block_delta", "é🧠")
                    : Texts.text(random, 6);
            return "event:" + space(random) + type;
        }
        if (pick < 19) {
            return ":" + Texts.text(random, 12);
        }
        return switch (pick) {
            case 19 -> "id:" + space(random) + Texts.text(random, 5);
            case 20 -> "retry: " + Texts.between(random, 0, 5000);
            case 21 -> Texts.oneOf(random, "foo", "Data", "events", "i", "data ", " data") + ":" + Texts.text(random, 8);
            default -> Texts.oneOf(random, "data", "event", "id", "retry", "data ");
        };
    }

    private static String space(Random random) {
        return Texts.oneOf(random, "", " ", " ", "  ");
    }
}
