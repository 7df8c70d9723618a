package dev.ruminate.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;

/**
 * What {@link GatewayBenchmark} measures is a working path: the gateway's Responses and Chat Completions streams of
 * the benchmark's stream, decoded by Ruminate's own decoders and reduced, carry the reasoning, answer and tool-call
 * arguments that the provider called directly gives (and that the stream was generated with); the benchmark's event
 * counting agrees with SSE framing on the same bytes; the first-event path stops at the first event.
 */
@ExtendWith(NettyLeakCheck.class)
// GatewayBenchmark's own calls block without a bound (a benchmark must not time out): a stuck path fails the test
// after this long instead of hanging the build
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class GatewayPathsTest {

    private static ReasoningStream stream;
    private static ProviderEmulator emulator;
    private static GatewayLoopback gateway;
    private static HttpClient client;

    @BeforeAll
    static void start() {
        stream = ReasoningStream.generate(2_000, 42);
        emulator = ProviderEmulator.start().always(EmulatorResponse.sse(new String(stream.sse, StandardCharsets.UTF_8)));
        gateway = new GatewayLoopback(Map.of(GatewayBenchmark.WHOLE, emulator.baseUrl().toString()));
        client = HttpClient.create().baseUrl(gateway.baseUrl);
    }

    @AfterAll
    static void stop() {
        gateway.close();
        emulator.close();
    }

    @Test
    void theGatewaysResponsesStreamCarriesWhatTheProviderGivesDirectly() {
        ChatResult direct = Objects.requireNonNull(ChatReducer.defaults()
                .reduce(Loopback.provider(emulator.baseUrl().toString(), HttpClient.create()).stream(Loopback.REQUEST))
                .block());
        byte[] body = body("/v1/responses", GatewayLoopback.responsesRequest(GatewayBenchmark.WHOLE));
        ChatResult viaGateway = Wire.RESPONSES.decodeReduce(Pieces.cut(body, 1460));

        Outcome expected = new Outcome(stream.reasoning, stream.content, stream.toolArguments, stream.reasoningTokens);
        assertThat(Contenders.outcome(direct)).isEqualTo(expected);
        assertThat(Contenders.outcome(viaGateway)).isEqualTo(expected);
        assertThat(new String(body, StandardCharsets.UTF_8)).endsWith("\n\n").contains("event: response.completed\n");
    }

    @Test
    void theGatewaysChatCompletionsStreamCarriesWhatTheProviderGivesDirectly() {
        byte[] body = body("/v1/chat/completions", GatewayLoopback.chatCompletionsRequest(GatewayBenchmark.WHOLE));
        ChatResult viaGateway = Wire.CHAT_COMPLETIONS.decodeReduce(Pieces.cut(body, 1460));

        Outcome o = Contenders.outcome(viaGateway);
        assertThat(new Outcome(o.reasoning(), o.content(), o.toolArguments(), null))
                .isEqualTo(new Outcome(stream.reasoning, stream.content, stream.toolArguments, null));
        assertThat(new String(body, StandardCharsets.UTF_8)).endsWith("data: [DONE]\n\n");
        assertThat(GatewayBenchmark.events(client, "/v1/chat/completions",
                GatewayLoopback.chatCompletionsRequest(GatewayBenchmark.WHOLE)))
                .isEqualTo(Wire.CHAT_COMPLETIONS.frame(Pieces.cut(body, 1460)));
    }

    @Test
    void theBenchmarkCountsTheEventsThatSseFramingFinds() {
        byte[] body = body("/v1/responses", GatewayLoopback.responsesRequest(GatewayBenchmark.WHOLE));
        long framed = Wire.RESPONSES.frame(Pieces.cut(body, 1460));
        assertThat(framed).isGreaterThan(stream.chunks);
        assertThat(GatewayBenchmark.events(client, "/v1/responses", GatewayLoopback.responsesRequest(GatewayBenchmark.WHOLE)))
                .isEqualTo(framed);
        SseEventCounter oneByteAtATime = new SseEventCounter();
        for (io.netty.buffer.ByteBuf piece : Pieces.cut(body, 1)) {
            oneByteAtATime.accept(piece);
            piece.release();
        }
        assertThat(oneByteAtATime.events()).isEqualTo(framed);
        assertThat(GatewayBenchmark.events(HttpClient.create().baseUrl(emulator.baseUrl().toString()), "/chat/completions",
                "{\"stream\":true}".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(Wire.CHAT_COMPLETIONS.frame(Pieces.cut(stream.sse, 1460)));
    }

    @Test
    void theFirstEventPathStopsAtTheFirstEvent() {
        byte[] request = GatewayLoopback.responsesRequest(GatewayBenchmark.WHOLE);
        long whole = GatewayBenchmark.events(client, "/v1/responses", request);
        // the events that arrived in the buffer holding the first one
        assertThat(GatewayBenchmark.firstEvent(client, "/v1/responses", request)).isPositive().isLessThan(whole / 10);
    }

    private static byte[] body(String path, byte[] request) {
        return Objects.requireNonNull(client.post().uri(path)
                .send(ByteBufFlux.fromInbound(Mono.just(request)))
                .responseContent().aggregate().asByteArray()
                .block(Duration.ofSeconds(30)));
    }
}
