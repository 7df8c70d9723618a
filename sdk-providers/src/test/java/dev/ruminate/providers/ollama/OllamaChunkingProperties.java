package dev.ruminate.providers.ollama;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.testing.ByteChunks;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.OllamaScript;
import dev.ruminate.testkit.ProviderEmulator;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * However a body is cut into buffers (single bytes, cuts inside a UTF-8 character, a line end or a
 * JSON token), it reduces to the same message as when it arrives whole: through the codec, and over
 * HTTP through the provider.
 */
@ExtendWith(NettyLeakCheck.class)
class OllamaChunkingProperties {

    private static final List<String> RECORDINGS = Ollama.recordings();
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

    static LongStream codecSeeds() {
        return Seeds.of(20 * RECORDINGS.size());
    }

    static LongStream httpSeeds() {
        return Seeds.of(3 * RECORDINGS.size());
    }

    static LongStream scriptSeeds() {
        return Seeds.of(15);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("codecSeeds")
    void recordingCutAnywhereDecodesAsWhole(long seed) {
        Random random = Seeds.random(seed);
        String path = RECORDINGS.get(Math.floorMod(seed, RECORDINGS.size()));
        byte[] body = Recorded.bytes(path);

        Ollama.Reduced cut = Ollama.reduce(Ollama.decode(ByteChunks.random(body, random, 1 + random.nextInt(64)),
                Ollama.tagsOf(path)));

        assertThat(cut.comparable()).as(path).isEqualTo(Ollama.reduce(Ollama.recording(path)).comparable());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("httpSeeds")
    void recordingChunkedOverHttpReducesAsWhole(long seed) {
        Random random = Seeds.random(seed);
        String path = RECORDINGS.get(Math.floorMod(seed, RECORDINGS.size()));
        ChunkPlan plan = ChunkPlan.random(random.nextLong(), 1 + random.nextInt(40));
        emulator.enqueue(EmulatorResponse.replay(Recorded.bytes(path), "application/x-ndjson").chunked(plan));

        Ollama.Reduced http = Ollama.reduce(OllamaProvider.builder().baseUrl(emulator.baseUrl().toString())
                .thinkTags(Ollama.tagsOf(path)).build().generate(ChatRequest.builder("m").user("x").build()));

        assertThat(http.comparable()).as("%s cut by %s", path, plan)
                .isEqualTo(Ollama.reduce(Ollama.recording(path)).comparable());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("scriptSeeds")
    void scriptedMultiByteThinkingTextAndToolCallsSurviveAnyCut(long seed) {
        Random random = Seeds.random(seed);
        String thinking = text(random, 1 + random.nextInt(30));
        String answer = text(random, 1 + random.nextInt(30));
        String arguments = "{\"q\":\"" + text(random, random.nextInt(20)).replace("\\", "\\\\").replace("\"", "\\\"")
                .replace("\n", "\\n").replace("\t", "\\t") + "\"}";
        byte[] body = OllamaScript.create().thinking(thinking).content(answer).toolCall("call_1", "lookup", arguments)
                .usage(12, 34).tokensOf(1 + random.nextInt(5)).toNdjson();

        Ollama.Reduced cut = Ollama.reduce(Ollama.decode(ByteChunks.random(body, random, 1 + random.nextInt(6)), null));

        assertThat(cut.comparable()).isEqualTo(Ollama.reduce(Ollama.decode(body, null)).comparable());
        AssistantMessage m = cut.ok().message();
        assertThat(m.reasoning()).isEqualTo(thinking);
        assertThat(m.text()).isEqualTo(answer);
        assertThat(m.toolCalls()).extracting(ToolCallPart::arguments).containsExactly(arguments);
    }

    private static String text(Random random, int codePoints) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < codePoints; i++) {
            sb.appendCodePoint(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return sb.toString();
    }
}
