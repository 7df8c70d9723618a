package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
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
 * Every Mistral recording, stream and whole bodies alike, cut at random by the emulator, reduces
 * over HTTP to what the codec gives for the uncut bytes. (ChatCompletionsProviderChunkingProperties
 * cuts the Mistral stream too, among all the streams; this also covers the bodies.)
 */
@ExtendWith(NettyLeakCheck.class)
class MistralChunkingProperties {

    private static final List<String> RECORDINGS = Recorded.under("mistral", ".sse", ".json");

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
        return Seeds.of(5 * RECORDINGS.size());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void recordingCutAtRandomReducesAsTheCodecDecodesIt(long seed) {
        Random random = Seeds.random(seed);
        String path = RECORDINGS.get(Math.floorMod(seed, RECORDINGS.size()));
        byte[] body = Recorded.bytes(path);
        ChunkPlan plan = ChunkPlan.random(random.nextLong(), 1 + random.nextInt(24));
        boolean stream = path.endsWith(".sse");
        emulator.enqueue(EmulatorResponse.replay(body, stream ? "text/event-stream" : "application/json").chunked(plan));

        ChatCompletionsProvider provider = Emulated.provider(emulator, Profiles.MISTRAL).build();
        Emulated.Reduced http = Emulated.reduce(stream ? provider.stream(Emulated.REQUEST)
                : provider.completeAsEvents(Emulated.REQUEST));

        Emulated.Reduced codec = stream ? Emulated.codecStream(Profiles.MISTRAL, body)
                : Emulated.codecCompletion(Profiles.MISTRAL, body);
        assertThat(http.comparable()).as("%s cut by %s", path, plan).isEqualTo(codec.comparable());
        assertThat(http.ok().message().reasoning()).isNotEmpty();
    }
}
