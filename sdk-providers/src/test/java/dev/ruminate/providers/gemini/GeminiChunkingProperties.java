package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.providers.gemini.GeminiEmulated.Reduced;
import dev.ruminate.providers.testing.Provenances;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * However the network cuts a Gemini response (single bytes, inside a UTF-8 character, inside a
 * {@code data:} field name or its JSON, between a {@code \r} and its {@code \n}), the provider, over
 * real HTTP, reduces it to the same message as the unsplit body: reasoning parts, text, tool calls
 * with their arguments, every thought signature on its own part, usage and the finish reason. Every
 * recording (AI Studio and Vertex AI streams, the Interactions API's streams, whole
 * {@code generateContent} bodies) and random scripted streams.
 *
 * <p>Three random cuttings of every recording by default; widen with
 * {@code -Druminate.property.tries=N} (see {@link Seeds}).
 */
@ExtendWith(NettyLeakCheck.class)
class GeminiChunkingProperties {

    private static final String SSE = "text/event-stream";
    private static final List<String> STREAMS = Recorded.under("gemini", ".sse");
    /**
     * The whole bodies; not llm-gemini's {@code -json-array-stream} recording, a stream read without
     * {@code alt=sse} (one JSON array of chunks), which {@link GeminiJsonArrayStreamTest} cuts.
     */
    private static final List<String> BODIES = Recorded.under("gemini", ".json").stream()
            .filter(p -> !p.contains("-json-array-stream")).toList();
    private static final Map<String, ChatResult> WHOLE = new ConcurrentHashMap<>();

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    static LongStream recordingSeeds() {
        return Seeds.of(3 * STREAMS.size());
    }

    static LongStream bodySeeds() {
        return Seeds.of(2 * BODIES.size());
    }

    static LongStream scriptSeeds() {
        return Seeds.of(12);
    }

    /** A recording added later is cut too: the lists are read off the folder. */
    @Test
    void theRecordingsAreAllThere() {
        assertThat(STREAMS).hasSizeGreaterThanOrEqualTo(8).anyMatch(p -> p.contains("interactions")).anyMatch(GeminiEmulated::isVertex);
        assertThat(BODIES).hasSizeGreaterThanOrEqualTo(3);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("recordingSeeds")
    void aRecordedStreamCutAnywhereReducesAsTheUnsplitBody(long seed) {
        Random random = Seeds.random(seed);
        String path = STREAMS.get(Math.floorMod(seed, STREAMS.size()));
        byte[] body = Recorded.bytes(path);
        // every byte on some seeds (every boundary is hit); random small pieces on the others
        ChunkPlan plan = random.nextInt(4) == 0 ? ChunkPlan.everyByte() : ChunkPlan.random(random.nextLong(), 1 + random.nextInt(48));
        boolean vertex = GeminiEmulated.isVertex(path);

        Reduced cut = stream(vertex, EmulatorResponse.replay(body, SSE).chunked(plan));

        assertThat(Provenances.checked(cut.ok())).as("%s cut by %s", path, plan).isEqualTo(wholeStream(path));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("bodySeeds")
    void aWholeBodyCutAnywhereReducesAsTheUnsplitBody(long seed) {
        Random random = Seeds.random(seed);
        String path = BODIES.get(Math.floorMod(seed, BODIES.size()));
        byte[] body = Recorded.bytes(path);
        ChunkPlan plan = ChunkPlan.random(random.nextLong(), 1 + random.nextInt(512));
        emulator.enqueue(EmulatorResponse.replay(body, "application/json").chunked(plan));

        Reduced cut = GeminiEmulated.reduce(GeminiEmulated.provider(emulator, false).completeAsEvents(GeminiEmulated.REQUEST));

        ChatResult whole = GeminiEmulated.reduce(GeminiCodec.decodeResponse("gemini", body)).ok();
        assertThat(Provenances.checked(cut.ok())).as("%s cut by %s", path, plan).isEqualTo(whole);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("scriptSeeds")
    void aScriptedStreamCutInsideCharactersAndDataLinesReducesAsTheUnsplitBody(long seed) {
        Random random = Seeds.random(seed);
        GeminiRandomScript script = GeminiRandomScript.of(random);
        boolean vertex = random.nextBoolean();
        ChunkPlan plan = planCuttingCharactersAndFieldNames(random, script.body);

        Reduced cut = stream(vertex, EmulatorResponse.bytes(SSE, script.body).chunked(plan));
        Reduced whole = stream(vertex, EmulatorResponse.bytes(SSE, script.body));

        assertThat(Provenances.checked(whole.ok())).as("%s served whole", script).isEqualTo(GeminiEmulated.referenceOfBody(vertex, script.body).ok());
        assertThat(cut.ok()).as("%s cut by %s", script, plan).isEqualTo(whole.ok());
        script.assertReducedTo(cut.ok().message());
    }

    /**
     * A random plan of small pieces that cuts at least one multi-byte character and one
     * {@code data:} field name, so that every seed tests both (a plan that misses either is redrawn).
     */
    static ChunkPlan planCuttingCharactersAndFieldNames(Random random, byte[] body) {
        for (int attempt = 0; attempt < 100; attempt++) {
            ChunkPlan plan = ChunkPlan.random(random.nextLong(), 1 + random.nextInt(8));
            if (cuts(plan, body, at -> (body[at] & 0xC0) == 0x80) && cuts(plan, body, at -> insideFieldName(body, at))) {
                return plan;
            }
        }
        throw new AssertionError("no plan of 100 cuts both a character and a data: field name of "
                + new String(body, StandardCharsets.UTF_8));
    }

    /** Tells whether a chunk boundary falls before a byte that passes the test. */
    private static boolean cuts(ChunkPlan plan, byte[] body, java.util.function.IntPredicate before) {
        int offset = 0;
        for (byte[] chunk : plan.split(body)) {
            offset += chunk.length;
            if (offset < body.length && before.test(offset)) {
                return true;
            }
        }
        return false;
    }

    /** Tells whether the byte at an offset is the second to fifth byte of a line's {@code data:}. */
    private static boolean insideFieldName(byte[] body, int at) {
        for (int start = Math.max(0, at - 4); start < at; start++) {
            boolean lineStart = start == 0 || body[start - 1] == '\n';
            if (lineStart && start + 5 <= body.length
                    && new String(body, start, 5, StandardCharsets.US_ASCII).equals("data:")) {
                return true;
            }
        }
        return false;
    }

    private static Reduced stream(boolean vertex, EmulatorResponse response) {
        emulator.enqueue(response);
        return GeminiEmulated.reduce(GeminiEmulated.provider(emulator, vertex).stream(GeminiEmulated.REQUEST));
    }

    private static ChatResult wholeStream(String path) {
        return WHOLE.computeIfAbsent(path, p -> GeminiEmulated.referenceOfBody(GeminiEmulated.isVertex(p), Recorded.bytes(p)).ok());
    }
}
