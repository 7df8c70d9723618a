package dev.ruminate.providers.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.AnthropicScript;
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
 * However the network cuts an Anthropic stream (single bytes, inside a UTF-8 character, an
 * {@code event:} line, a line end or a JSON token), the provider reduces it to the same message as
 * when it arrives whole.
 */
@ExtendWith(NettyLeakCheck.class)
class AnthropicProviderChunkingProperties {

    /** About this many chunks per replay: each is a write and flush of its own, which bounds the run time. */
    private static final int CHUNK_BUDGET = 1_000;
    private static final List<String> STREAMS = AnthropicRecordings.streams();
    private static final Map<String, AnthropicEmulated.Reduced> WHOLE = new ConcurrentHashMap<>();
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
        return Seeds.of(12);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("recordingSeeds")
    void recordedStreamReducesAsWhenItArrivesWhole(long seed) {
        Random random = Seeds.random(seed);
        String path = STREAMS.get(Math.floorMod(seed, STREAMS.size()));
        byte[] body = Recorded.bytes(path);
        int smallest = Math.max(1, 2 * body.length / CHUNK_BUDGET);
        ChunkPlan plan = ChunkPlan.random(random.nextLong(), smallest + random.nextInt(3 * smallest));

        AnthropicEmulated.Reduced cut = stream(EmulatorResponse.replay(body, "text/event-stream").chunked(plan));

        assertThat(cut.comparable()).as("%s cut by %s", path, plan).isEqualTo(whole(path).comparable());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("scriptSeeds")
    void scriptedInterleavedStreamSurvivesCutsInsideCharacters(long seed) {
        Random random = Seeds.random(seed);
        String thinking1 = text(random, 1 + random.nextInt(30));
        String thinking2 = text(random, 1 + random.nextInt(30));
        String answer = text(random, 1 + random.nextInt(30));
        String input = "{\"q\":\"" + escape(text(random, random.nextInt(20))) + "\"}";
        String query = "{\"query\":\"" + escape(text(random, 1 + random.nextInt(10))) + "\"}";
        byte[] body = AnthropicScript.create()
                .thinking(thinking1, "sig-1+/=")
                .toolUse("toolu_1", "lookup", input)
                .ping()
                .thinking(thinking2, "sig-2+/=")
                .serverToolUse("srvtoolu_1", "web_search", query)
                .serverToolResult("web_search_tool_result", "srvtoolu_1", "[{\"title\":\"" + escape(answer) + "\"}]")
                .text(answer)
                .stopReason("tool_use")
                .tokensOf(1 + random.nextInt(8))
                .toSse()
                .getBytes(StandardCharsets.UTF_8);
        ChunkPlan plan = ChunkPlan.random(random.nextLong(), 1 + random.nextInt(6));

        AnthropicEmulated.Reduced cut = stream(EmulatorResponse.sse(new String(body, StandardCharsets.UTF_8)).chunked(plan));
        AnthropicEmulated.Reduced whole = stream(EmulatorResponse.sse(new String(body, StandardCharsets.UTF_8)));

        assertThat(cut.comparable()).as("cut by %s", plan).isEqualTo(whole.comparable());
        AssistantMessage m = cut.ok().message();
        assertThat(m.parts()).hasSize(6);
        assertThat(((ReasoningPart) m.parts().get(0)).text()).isEqualTo(thinking1);
        assertThat(((ToolCallPart) m.parts().get(1)).arguments()).isEqualTo(input);
        assertThat(((ReasoningPart) m.parts().get(2)).text()).isEqualTo(thinking2);
        assertThat(((ReasoningPart) m.parts().get(2)).seals().signature()).isEqualTo("sig-2+/=");
        assertThat(((ServerToolPart) m.parts().get(3)).json()).endsWith("\"input\":" + query + "}");
        assertThat(m.text()).isEqualTo(answer);
    }

    private static AnthropicEmulated.Reduced stream(EmulatorResponse response) {
        emulator.enqueue(response);
        return AnthropicEmulated.reduce(AnthropicEmulated.provider(emulator).build().stream(AnthropicEmulated.REQUEST));
    }

    private static AnthropicEmulated.Reduced whole(String path) {
        return WHOLE.computeIfAbsent(path, p -> stream(EmulatorResponse.replay(Recorded.bytes(p), "text/event-stream")));
    }

    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\t", "\\t");
    }

    private static String text(Random random, int codePoints) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < codePoints; i++) {
            sb.appendCodePoint(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return sb.toString();
    }
}
