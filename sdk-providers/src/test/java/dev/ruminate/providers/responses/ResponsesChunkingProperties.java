package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.testing.Recorded.Outcome;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.wire.ServerSentEvents;
import io.netty.buffer.Unpooled;
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
import reactor.core.publisher.Flux;

/**
 * Wherever the bytes of a Responses stream are split (inside a UTF-8 character, a line end, a JSON
 * token, an {@code event:} line), the decoded events are those of the unsplit body: every recording,
 * split at random by each seed, through the SSE decoder; and a sample of them through real HTTP.
 */
@ExtendWith(NettyLeakCheck.class)
class ResponsesChunkingProperties {

    private static final Map<String, List<ChatEvent>> WHOLE = new ConcurrentHashMap<>();
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
        return Seeds.of(12);
    }

    static LongStream httpSeeds() {
        return Seeds.of(4);
    }

    private static List<ChatEvent> whole(String path) {
        return WHOLE.computeIfAbsent(path, p -> decode(p, List.of(Recorded.bytes(p))).events());
    }

    private static Outcome decode(String path, List<byte[]> chunks) {
        Flux<ChatEvent> events = ServerSentEvents.decode(Flux.fromIterable(chunks).map(Unpooled::wrappedBuffer))
                .transform(ResponsesCodec.streamDecoder(Responses.profileOf(path)));
        return Recorded.run(events);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyRecordingDecodesTheSameHoweverItsBytesAreSplit(long seed) {
        splitEveryRecording(Seeds.random(seed));
    }

    private static void splitEveryRecording(Random random) {
        for (String path : Responses.STREAMS) {
            byte[] body = Recorded.bytes(path);
            // small pieces on some seeds (every boundary is hit), larger ones on others
            int max = random.nextBoolean() ? 1 + random.nextInt(24) : 64 + random.nextInt(2048);
            List<byte[]> chunks = ChunkPlan.random(random.nextLong(), max).split(body);

            Outcome split = decode(path, chunks);

            assertThat(split.error()).as(path + " max " + max).isNull();
            assertThat(split.events()).as(path + " split into " + chunks.size()).isEqualTo(whole(path));
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("httpSeeds")
    void recordingsServedInRandomChunksOverHttpReduceAsWhole(long seed) {
        Random random = Seeds.random(seed);
        for (int round = 0; round < 3; round++) {
            aRecordingServedInRandomChunksOverHttpReducesAsWhole(random);
        }
    }

    private static void aRecordingServedInRandomChunksOverHttpReducesAsWhole(Random random) {
        String path = Responses.STREAMS.get(random.nextInt(Responses.STREAMS.size()));
        EmulatorResponse response = EmulatorResponse.replay(Recorded.bytes(path), "text/event-stream")
                .chunked(ChunkPlan.random(random.nextLong(), 1 + random.nextInt(96)));
        emulator.enqueue(response);

        ResponsesProviderTest.Reduced http = ResponsesProviderTest.reduce(
                ResponsesProvider.builder(Responses.profileOf(path)).baseUrl(emulator.baseUrl() + "/v1").build()
                        .stream(ResponsesProviderTest.REQUEST));

        assertThat(http.comparable()).as(path).isEqualTo(ResponsesProviderTest.codecStream(path).comparable());
    }
}
