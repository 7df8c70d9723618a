package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkPlanTest {

    private static final byte[] BODY = "data: {\"a\":\"é\"}\n\n".getBytes(StandardCharsets.UTF_8);

    @Test
    void wholeIsOneChunkAndEmptyBodiesHaveNone() {
        assertThat(ChunkPlan.whole().split(BODY)).singleElement().isEqualTo(BODY);
        assertThat(ChunkPlan.whole().split(new byte[0])).isEmpty();
        assertThat(ChunkPlan.everyByte().split(new byte[0])).isEmpty();
    }

    @Test
    void fixedCutsEqualPiecesWithAShorterLastOne() {
        List<byte[]> chunks = ChunkPlan.fixed(5).split(BODY);

        assertThat(chunks).hasSize((BODY.length + 4) / 5);
        assertThat(chunks.subList(0, chunks.size() - 1)).allSatisfy(chunk -> assertThat(chunk).hasSize(5));
        assertThat(chunks.get(chunks.size() - 1).length).isBetween(1, 5);
        assertThat(concat(chunks)).isEqualTo(BODY);
    }

    @Test
    void everyByteCutsSingleBytesEvenInsideAUtf8Character() {
        List<byte[]> chunks = ChunkPlan.everyByte().split(BODY);

        assertThat(chunks).hasSize(BODY.length).allSatisfy(chunk -> assertThat(chunk).hasSize(1));
        assertThat(concat(chunks)).isEqualTo(BODY);
    }

    @Test
    void randomIsReproducibleFromItsSeedAndDiffersAcrossSeeds() {
        byte[] body = new byte[2000];
        List<Integer> first = sizes(ChunkPlan.random(7L).split(body));
        List<Integer> again = sizes(ChunkPlan.random(7L).split(body));
        List<Integer> other = sizes(ChunkPlan.random(8L).split(body));

        assertThat(first).isEqualTo(again).isNotEqualTo(other);
        assertThat(first).allSatisfy(size -> assertThat(size).isBetween(1, 32));
        assertThat(first.stream().mapToInt(Integer::intValue).sum()).isEqualTo(body.length);
        assertThat(ChunkPlan.random(7L)).isEqualTo(ChunkPlan.random(7L)).isNotEqualTo(ChunkPlan.random(7L, 8));
    }

    @Test
    void splitDoesNotShareTheCallersArray() {
        byte[] body = {1, 2, 3};
        List<byte[]> chunks = ChunkPlan.whole().split(body);
        body[0] = 9;

        assertThat(chunks.get(0)).containsExactly(1, 2, 3);
    }

    @Test
    void rejectsSizesBelowOne() {
        assertThatThrownBy(() -> ChunkPlan.fixed(0)).hasMessageContaining("0");
        assertThatThrownBy(() -> ChunkPlan.random(1L, -3)).hasMessageContaining("-3");
    }

    static byte[] concat(List<byte[]> chunks) {
        int length = 0;
        for (byte[] chunk : chunks) {
            length += chunk.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] chunk : chunks) {
            System.arraycopy(chunk, 0, all, at, chunk.length);
            at += chunk.length;
        }
        return all;
    }

    private static List<Integer> sizes(List<byte[]> chunks) {
        return chunks.stream().map(chunk -> chunk.length).toList();
    }
}
