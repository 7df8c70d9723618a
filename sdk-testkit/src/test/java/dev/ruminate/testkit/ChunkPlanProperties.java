package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ChunkPlanProperties {

    static LongStream seeds() {
        return Seeds.of(200);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomChunksConcatenateToTheBodyWithinTheSizeBound(long seed) {
        Random random = Seeds.random(seed);
        byte[] body = Seeds.bytes(random, 3000);
        int maxSize = 1 + random.nextInt(100);
        List<byte[]> chunks = ChunkPlan.random(seed, maxSize).split(body);

        assertThat(ChunkPlanTest.concat(chunks)).isEqualTo(body);
        assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.length).isBetween(1, maxSize));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void fixedChunksConcatenateToTheBody(long seed) {
        Random random = Seeds.random(seed);
        byte[] body = Seeds.bytes(random, 3000);
        int size = 1 + random.nextInt(5000);
        List<byte[]> chunks = ChunkPlan.fixed(size).split(body);

        assertThat(ChunkPlanTest.concat(chunks)).isEqualTo(body);
        assertThat(chunks).hasSize((body.length + size - 1) / size);
    }
}
