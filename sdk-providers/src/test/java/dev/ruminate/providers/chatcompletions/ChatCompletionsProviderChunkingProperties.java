package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.ChatCompletionsScript;
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
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * However the network cuts a response (single bytes, cuts inside a UTF-8 character, a line end or
 * a JSON token), the provider reduces it to the same message as when it arrives whole.
 */
@ExtendWith(NettyLeakCheck.class)
class ChatCompletionsProviderChunkingProperties {

    /**
     * About this many chunks per replay: every chunk is a write and a flush of its own on the
     * emulator's side, which is what bounds the run time of the big recordings.
     */
    private static final int CHUNK_BUDGET = 2_000;
    private static final List<String> STREAMS = Recordings.streams();
    private static final Map<String, Emulated.Reduced> WHOLE = new ConcurrentHashMap<>();
    // Accents, CJK and astral characters (four UTF-8 bytes, a surrogate pair in Java), beside ASCII
    // and the characters JSON escapes.
    private static final int[] ALPHABET = "ab z\n\t\"\\{}<>:,éüßñ€→中文😀🧠𝄞🎉".codePoints().toArray();

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    /** Three random cuttings of every recorded stream. */
    static LongStream recordingSeeds() {
        return Seeds.of(3 * STREAMS.size());
    }

    static LongStream scriptSeeds() {
        return Seeds.of(20);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("recordingSeeds")
    void recordedStreamReducesAsWhenItArrivesWhole(long seed) {
        Random random = Seeds.random(seed);
        String path = STREAMS.get(Math.floorMod(seed, STREAMS.size()));
        byte[] body = Fixtures.bytes(path);
        // small bodies get plans of one- and two-byte chunks; big ones coarser plans, which still cut
        // single bytes now and then
        int smallest = Math.max(1, 2 * body.length / CHUNK_BUDGET);
        ChunkPlan plan = ChunkPlan.random(random.nextLong(), smallest + random.nextInt(3 * smallest));
        CompatProfile profile = Recordings.profile(path);

        Emulated.Reduced cut = stream(profile, EmulatorResponse.replay(body, "text/event-stream").chunked(plan));

        assertThat(cut.comparable()).as("%s cut by %s", path, plan).isEqualTo(whole(path).comparable());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("scriptSeeds")
    void scriptedMultiByteTextSurvivesCutsInsideCharacters(long seed) {
        Random random = Seeds.random(seed);
        String reasoning = text(random, 1 + random.nextInt(30));
        String answer = text(random, 1 + random.nextInt(30));
        String arguments = "{\"q\":\"" + text(random, random.nextInt(20)).replace("\\", "\\\\").replace("\"", "\\\"")
                .replace("\n", "\\n").replace("\t", "\\t") + "\"}";
        byte[] body = ChatCompletionsScript.create()
                .reasoning(reasoning)
                .content(answer)
                .toolCall("call_1", "lookup", arguments)
                .finish("tool_calls")
                .usage(12, 34, 5)
                .tokensOf(2 + random.nextInt(11))
                .toSse()
                .getBytes(StandardCharsets.UTF_8);
        // small random pieces nearly always cut a character; draw again the rare plan that does not
        ChunkPlan plan = ChunkPlan.random(random.nextLong(), 1 + random.nextInt(6));
        for (int draws = 1; draws < 100 && !cutsInsideACharacter(plan, body); draws++) {
            plan = ChunkPlan.random(random.nextLong(), 1 + random.nextInt(6));
        }
        assertThat(cutsInsideACharacter(plan, body)).as("the plan cuts a multi-byte character").isTrue();

        Emulated.Reduced cut = stream(Profiles.DEEPSEEK, EmulatorResponse.sse(Emulated.utf8(body)).chunked(plan));
        Emulated.Reduced whole = stream(Profiles.DEEPSEEK, EmulatorResponse.sse(Emulated.utf8(body)));

        assertThat(cut.comparable()).as("cut by %s", plan).isEqualTo(whole.comparable());
        AssistantMessage m = cut.ok().message();
        assertThat(m.reasoning()).isEqualTo(reasoning);
        assertThat(m.text()).isEqualTo(answer);
        assertThat(m.toolCalls()).extracting(ToolCallPart::arguments).containsExactly(arguments);
    }

    private static Emulated.Reduced stream(CompatProfile profile, EmulatorResponse response) {
        emulator.enqueue(response);
        return Emulated.reduce(Emulated.provider(emulator, profile).build().stream(Emulated.REQUEST));
    }

    private static Emulated.Reduced whole(String path) {
        return WHOLE.computeIfAbsent(path, p -> stream(Recordings.profile(p),
                EmulatorResponse.replay(Fixtures.bytes(p), "text/event-stream")));
    }

    private static String text(Random random, int codePoints) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < codePoints; i++) {
            sb.appendCodePoint(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return sb.toString();
    }

    /** Tells whether a chunk boundary falls before a UTF-8 continuation byte. */
    private static boolean cutsInsideACharacter(ChunkPlan plan, byte[] body) {
        int offset = 0;
        for (byte[] chunk : plan.split(body)) {
            offset += chunk.length;
            if (offset < body.length && (body[offset] & 0xC0) == 0x80) {
                return true;
            }
        }
        return false;
    }
}
