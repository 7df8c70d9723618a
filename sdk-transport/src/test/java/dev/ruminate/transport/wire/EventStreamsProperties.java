package dev.ruminate.transport.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.transport.testing.Seeds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The event-stream decoder's output does not depend on where the body is split into buffers. */
class EventStreamsProperties {

    private static final String[] NAMES =
            {"all_headers", "empty_message", "int32_header", "payload_no_headers", "payload_one_str_header"};

    static LongStream seeds() {
        return Seeds.of(200);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void decodesAnySplitOfManyFramesLikeTheWholeBody(long seed) {
        Random random = Seeds.random(seed);
        List<String> names = new ArrayList<>();
        int frames = 1 + random.nextInt(12);
        for (int i = 0; i < frames; i++) {
            names.add(NAMES[random.nextInt(NAMES.length)]);
        }
        Collections.shuffle(names, random);
        byte[] body = EventStreamsTest.concat(EventStreamsTest.all(names.toArray(String[]::new)).toArray(byte[][]::new));

        Outcome<EventStreamMessage> whole = Outcome.of(EventStreams.decode(Bodies.wrapped(List.of(body))), m -> m);
        List<byte[]> pieces = random.nextInt(8) == 0 ? Bodies.bytewise(body) : Bodies.split(body, Texts.bufferSizes(random));
        Outcome<EventStreamMessage> split =
                Outcome.of(EventStreams.decode(Bodies.releasedAfterNext(Bodies.HEAP, pieces)), m -> m);

        assertThat(whole.error()).isNull();
        assertThat(whole.frames()).hasSize(frames);
        assertThat(split).isEqualTo(whole);
    }
}
