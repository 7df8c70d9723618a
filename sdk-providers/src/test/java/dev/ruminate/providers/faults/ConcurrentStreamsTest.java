package dev.ruminate.providers.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * A thousand concurrent streams from the emulator through one client, on this machine's cores: every
 * one completes with the right message, and no buffer leaks. The run prints its throughput and the
 * heap the open streams took, for the record; neither is asserted (a shared machine makes timings
 * noise; JMH in the benchmarks module measures them properly).
 */
@ExtendWith(NettyLeakCheck.class)
class ConcurrentStreamsTest {

    private static final int STREAMS = 1_000;

    @Test
    void aThousandConcurrentStreamsAllCompleteCorrectly() {
        ConnectionProvider pool = ConnectionProvider.builder("load").maxConnections(STREAMS)
                .pendingAcquireMaxCount(STREAMS).build();
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.always(ChatCompletionsScript.create()
                    .reasoning("The user greets me; a short friendly answer will do.")
                    .content("Hello! How can I help you today?")
                    .usage(12, 30, 14).toResponse());
            ChatCompletionsProvider client = ChatCompletionsProvider.builder(Profiles.DEEPSEEK)
                    .baseUrl(emulator.baseUrl() + "/v1").apiKey(ApiKey.of("k"))
                    .httpClient(HttpClient.create(pool)).build();
            ChatRequest request = ChatRequest.builder("deepseek-v4-flash").user("Hi").build();
            System.gc();
            long heapBefore = usedHeap();
            long start = System.nanoTime();

            List<ChatResult> results = Flux.range(0, STREAMS)
                    .flatMap(i -> ChatReducer.defaults().reduce(client.stream(request)), STREAMS)
                    .collectList()
                    .block(Duration.ofSeconds(120));

            double seconds = (System.nanoTime() - start) / 1e9;
            long heapAfter = usedHeap();
            assertThat(results).hasSize(STREAMS).allSatisfy(r -> {
                assertThat(r.message().text()).isEqualTo("Hello! How can I help you today?");
                assertThat(r.message().reasoning()).isEqualTo("The user greets me; a short friendly answer will do.");
                assertThat(r.message().usage().reasoningTokens()).isEqualTo(14L);
            });
            assertThat(emulator.requests()).hasSize(STREAMS);
            System.out.printf("concurrent streams: %d in %.2f s (%.0f streams/s), paranoid leak detection on; "
                    + "heap in use grew %d KiB over the run, garbage included (%.1f KiB a stream)%n",
                    STREAMS, seconds, STREAMS / seconds, (heapAfter - heapBefore) / 1024,
                    (heapAfter - heapBefore) / 1024.0 / STREAMS);
        } finally {
            pool.disposeLater().block(Duration.ofSeconds(10));
        }
    }

    private static long usedHeap() {
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
