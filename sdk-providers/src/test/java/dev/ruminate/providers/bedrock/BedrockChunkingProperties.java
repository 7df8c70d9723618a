package dev.ruminate.providers.bedrock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.testing.Provenances;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.http.ApiKey;
import java.time.Duration;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random ConverseStream bodies (reasoning with signatures, redacted blocks, text and tool input in
 * any order and piece size, with multi-byte characters) cut at random byte positions reduce over
 * HTTP exactly as the whole body does without HTTP.
 */
@ExtendWith(NettyLeakCheck.class)
class BedrockChunkingProperties {

    private static final int[] ALPHABET = "ab z\n\t\"\\{}:,éß€中😀🧠".codePoints().toArray();
    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    static LongStream seeds() {
        return Seeds.of(40);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void aRandomStreamReducesTheSameCutAnywhere(long seed) {
        Random random = Seeds.random(seed);
        BedrockScript script = BedrockScript.create().tokensOf(1 + random.nextInt(6)).usage(random.nextInt(999), random.nextInt(999));
        int blocks = 1 + random.nextInt(5);
        for (int i = 0; i < blocks; i++) {
            switch (random.nextInt(4)) {
                case 0 -> script.reasoning(text(random), random.nextBoolean() ? "sig-" + text(random) : null);
                case 1 -> script.redacted("UmVk" + random.nextInt(1_000_000));
                case 2 -> script.text(text(random));
                default -> script.toolUse("tooluse_" + i, "f" + i, "{\"q\":\"" + text(random).replace("\\", "\\\\")
                        .replace("\"", "\\\"").replace("\n", "\\n").replace("\t", "\\t") + "\"}");
            }
        }
        byte[] body = script.toEventStream();
        ChatResult whole = BedrockFixturesTest.reduce(BedrockFixturesTest.decodeStream(body));
        emulator.enqueue(EmulatorResponse.bytes("application/vnd.amazon.eventstream", body)
                .chunked(ChunkPlan.random(seed, 1 + random.nextInt(40))));
        BedrockProvider provider = BedrockProvider.builder("us-east-1").baseUrl(emulator.baseUrl().toString())
                .credentials(new AwsCredentials("AKID", ApiKey.of("secret"), null)).build();

        ChatResult split = ChatReducer.defaults()
                .reduce(provider.stream(ChatRequest.builder(BedrockFixturesTest.MODEL).user("x").build()))
                .block(Duration.ofSeconds(30));

        assertThat(Provenances.checked(split)).isEqualTo(whole);
        assertThat(whole.message().parts()).hasSize(blocks);
    }

    private static String text(Random random) {
        StringBuilder sb = new StringBuilder();
        int n = 1 + random.nextInt(30);
        for (int i = 0; i < n; i++) {
            sb.appendCodePoint(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return sb.toString();
    }
}
