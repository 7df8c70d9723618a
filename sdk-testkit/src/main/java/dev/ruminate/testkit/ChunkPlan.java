package dev.ruminate.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.jspecify.annotations.Nullable;

/**
 * Says how a response body is cut into the chunks the emulator writes (and flushes) one by one.
 *
 * <p>The chunks are what the server hands to the socket; TCP and the client may still merge or
 * split them, so a client must never depend on them. The plan exists to make splits inside a
 * UTF-8 character, a line end or a JSON token happen on purpose rather than by luck:
 *
 * <pre>{@code
 * EmulatorResponse.replay(recording, "text/event-stream").chunked(ChunkPlan.everyByte());
 * EmulatorResponse.sse(body).chunked(ChunkPlan.random(42L));   // the same cuts on every run
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class ChunkPlan {

    private static final int DEFAULT_RANDOM_MAX = 32;

    private enum Kind { WHOLE, FIXED, RANDOM }

    private static final ChunkPlan WHOLE = new ChunkPlan(Kind.WHOLE, 0, 0L);

    private final Kind kind;
    private final int size;
    private final long seed;

    private ChunkPlan(Kind kind, int size, long seed) {
        this.kind = kind;
        this.size = size;
        this.seed = seed;
    }

    /**
     * Returns the plan that writes the whole body as one chunk.
     *
     * @return the whole-body plan
     * @since 0.1
     */
    public static ChunkPlan whole() {
        return WHOLE;
    }

    /**
     * Returns a plan that cuts the body into chunks of {@code size} bytes (the last may be shorter).
     *
     * @param size the chunk size in bytes, at least 1
     * @return the fixed-size plan
     * @throws IllegalArgumentException if {@code size < 1}
     * @since 0.1
     */
    public static ChunkPlan fixed(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("chunk size must be at least 1, got " + size);
        }
        return new ChunkPlan(Kind.FIXED, size, 0L);
    }

    /**
     * Returns the plan that writes every byte as its own chunk.
     *
     * @return {@code fixed(1)}
     * @since 0.1
     */
    public static ChunkPlan everyByte() {
        return fixed(1);
    }

    /**
     * Returns a plan with random chunk sizes between 1 and 32 bytes drawn from {@code seed}.
     *
     * @param seed the seed; the same seed gives the same cuts for the same body on every run
     * @return the random plan
     * @since 0.1
     */
    public static ChunkPlan random(long seed) {
        return random(seed, DEFAULT_RANDOM_MAX);
    }

    /**
     * Returns a plan with random chunk sizes between 1 and {@code maxSize} bytes drawn from
     * {@code seed}.
     *
     * @param seed the seed; the same seed gives the same cuts for the same body on every run
     * @param maxSize the largest chunk, at least 1
     * @return the random plan
     * @throws IllegalArgumentException if {@code maxSize < 1}
     * @since 0.1
     */
    public static ChunkPlan random(long seed, int maxSize) {
        if (maxSize < 1) {
            throw new IllegalArgumentException("maximum chunk size must be at least 1, got " + maxSize);
        }
        return new ChunkPlan(Kind.RANDOM, maxSize, seed);
    }

    /**
     * Cuts a body into chunks according to this plan.
     *
     * <p>The chunks are copies; concatenated they equal {@code body}. An empty body gives no chunks.
     * Useful on its own to feed a decoder the same cuts without a server.
     *
     * @param body the bytes to cut; not modified
     * @return the chunks in order
     * @since 0.1
     */
    public List<byte[]> split(byte[] body) {
        Objects.requireNonNull(body, "body");
        List<byte[]> chunks = new ArrayList<>();
        if (body.length == 0) {
            return chunks;
        }
        // java.util.Random's sequence is fixed by its specification, and so is mix(), so a seed means the
        // same cuts on any JVM; mixing keeps consecutive seeds (as property tests pass) from cutting alike.
        Random random = new Random(mix(seed));
        int from = 0;
        while (from < body.length) {
            int length = switch (kind) {
                case WHOLE -> body.length;
                case FIXED -> size;
                case RANDOM -> 1 + random.nextInt(size);
            };
            int to = (int) Math.min((long) from + length, body.length);
            chunks.add(Arrays.copyOfRange(body, from, to));
            from = to;
        }
        return chunks;
    }

    /**
     * Compares plans by kind, size and seed.
     *
     * @param other the object to compare with
     * @return true for a plan that cuts every body the same way
     */
    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof ChunkPlan that && kind == that.kind && size == that.size && seed == that.seed;
    }

    /**
     * Hashes the kind, size and seed.
     *
     * @return the hash code
     */
    @Override
    public int hashCode() {
        return Objects.hash(kind, size, seed);
    }

    /**
     * Describes the plan as the factory call that made it.
     *
     * @return for example {@code ChunkPlan.fixed(16)}
     */
    @Override
    public String toString() {
        return switch (kind) {
            case WHOLE -> "ChunkPlan.whole()";
            case FIXED -> "ChunkPlan.fixed(" + size + ")";
            case RANDOM -> "ChunkPlan.random(seed=" + seed + ", maxSize=" + size + ")";
        };
    }

    /** SplitMix64's finalizer: nearby seeds map to unrelated ones. */
    private static long mix(long seed) {
        long z = (seed ^ (seed >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
