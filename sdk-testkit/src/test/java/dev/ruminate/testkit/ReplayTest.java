package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@ExtendWith(NettyLeakCheck.class)
class ReplayTest {

    private static ProviderEmulator emulator;
    private static URI base;
    private static Path recording;

    @BeforeAll
    static void start() throws URISyntaxException {
        emulator = ProviderEmulator.start();
        base = emulator.baseUrl();
        recording = Path.of(ReplayTest.class
                .getResource("/fixtures/deepseek/vercel-deepseek-reasoning-tool-call-stream.sse").toURI());
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    static Stream<ChunkPlan> plans() {
        return Stream.of(ChunkPlan.whole(), ChunkPlan.fixed(7), ChunkPlan.fixed(4096), ChunkPlan.everyByte(),
                ChunkPlan.random(1L), ChunkPlan.random(20_261_122L, 3));
    }

    @ParameterizedTest
    @MethodSource("plans")
    void replaysARecordingByteForByteWhateverTheChunking(ChunkPlan plan) throws IOException {
        byte[] expected = Files.readAllBytes(recording);
        emulator.enqueue(EmulatorResponse.replay(recording, "text/event-stream").chunked(plan));

        Http.Received received = Http.get(base, "/chat/completions");

        assertThat(received.status()).isEqualTo(200);
        assertThat(received.headers().get("content-type")).isEqualTo("text/event-stream");
        assertThat(received.body()).hasSize(expected.length).isEqualTo(expected);
    }

    @ParameterizedTest
    @MethodSource("plans")
    void replaysBytesThatAreNotValidUtf8Untouched(ChunkPlan plan) {
        byte[] expected = new byte[512];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = (byte) (i * 31 + 7);
        }
        emulator.enqueue(EmulatorResponse.replay(expected, "application/vnd.amazon.eventstream").chunked(plan));

        assertThat(Http.get(base, "/").body()).isEqualTo(expected);
    }
}
