package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class ChunkPlanProperties {

    @Property(tries = 200)
    void randomChunksConcatenateToTheBodyWithinTheSizeBound(@ForAll @Size(max = 3000) byte[] body,
                                                            @ForAll long seed,
                                                            @ForAll @IntRange(min = 1, max = 100) int maxSize) {
        List<byte[]> chunks = ChunkPlan.random(seed, maxSize).split(body);

        assertThat(ChunkPlanTest.concat(chunks)).isEqualTo(body);
        assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.length).isBetween(1, maxSize));
    }

    @Property(tries = 200)
    void fixedChunksConcatenateToTheBody(@ForAll @Size(max = 3000) byte[] body,
                                         @ForAll @IntRange(min = 1, max = 5000) int size) {
        List<byte[]> chunks = ChunkPlan.fixed(size).split(body);

        assertThat(ChunkPlanTest.concat(chunks)).isEqualTo(body);
        assertThat(chunks).hasSize((body.length + size - 1) / size);
    }
}
