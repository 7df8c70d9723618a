package dev.ruminate.benchmarks;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.ProviderEmulator;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;

/**
 * The gateway against calling the provider directly, over loopback, in one run. The test kit's emulator serves
 * {@link ReasoningStream}'s Chat Completions reasoning stream (DeepSeek's {@code reasoning_content}, then content,
 * tool calls, usage); the gateway application runs in this JVM (port 0, auth off, one route to that emulator) and so
 * does the emulator: client, gateway and emulator share the machine's cores, and the gateway's figures include its
 * own upstream client (the same {@code ChatCompletionsProvider} the direct path runs).
 *
 * <ul>
 *   <li>Whole streams per second (times the events per stream = events/s), {@link #chunks} chunks:
 *       {@code gatewayResponses} ({@code POST /v1/responses}, {@code stream: true, store: false}) and
 *       {@code gatewayChatCompletions} ({@code POST /v1/chat/completions}, {@code stream: true}), the client counting
 *       the SSE events it receives, against {@code provider} (Ruminate's {@code ChatCompletionsProvider} on the
 *       emulator, chat events counted) and {@code emulator} (a bare Reactor Netty client on the emulator, SSE events
 *       counted).</li>
 *   <li>Time from the request to the first SSE event (sample time: p50, p99, p99.9), from an emulator that sends
 *       the first two events of a stream and then holds it open, silent; the stream is cancelled at its first event:
 *       {@code gatewayResponsesFirstEvent} and {@code gatewayChatCompletionsFirstEvent} against
 *       {@code providerFirstEvent} (the first chat event) and {@code emulatorFirstEvent} (the emulator's first SSE
 *       event through a bare client). Every hop opens its connection per sample (a cancelled stream's connection is
 *       closed, not pooled), on every path, so the gateway path opens two where the direct paths open one.</li>
 * </ul>
 *
 * The client is the same Reactor Netty client with the same event counting ({@link SseEventCounter}) on the
 * gateway and emulator paths.
 */
@State(Scope.Benchmark)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class GatewayBenchmark {

    /** The gateway's route to the whole stream. */
    static final String WHOLE = "bench-whole";
    /** The gateway's route to the stream held after its first events. */
    static final String SMALL = "bench-small";

    /** Chunks in the stream served for the throughput benchmarks. */
    @Param({"10000"})
    public int chunks;

    private ProviderEmulator wholeEmulator;
    private ProviderEmulator smallEmulator;
    private GatewayLoopback gateway;
    private HttpClient gatewayClient;
    private HttpClient wholeClient;
    private HttpClient smallClient;
    private ChatCompletionsProvider wholeProvider;
    private ChatCompletionsProvider smallProvider;
    private byte[] wholeResponses;
    private byte[] smallResponses;
    private byte[] wholeChat;
    private byte[] smallChat;
    private byte[] upstreamRequest;

    /** Starts the emulators and the gateway, and prints what a stream carries on each path. */
    @Setup(Level.Trial)
    public void setUp() {
        wholeEmulator = emulator(chunks);
        smallEmulator = heldAfterHead();
        gateway = new GatewayLoopback(Map.of(WHOLE, wholeEmulator.baseUrl().toString(),
                SMALL, smallEmulator.baseUrl().toString()));
        gatewayClient = HttpClient.create().baseUrl(gateway.baseUrl);
        wholeClient = HttpClient.create().baseUrl(wholeEmulator.baseUrl().toString());
        smallClient = HttpClient.create().baseUrl(smallEmulator.baseUrl().toString());
        wholeProvider = Loopback.provider(wholeEmulator.baseUrl().toString(), HttpClient.create());
        smallProvider = Loopback.provider(smallEmulator.baseUrl().toString(), HttpClient.create());
        wholeResponses = GatewayLoopback.responsesRequest(WHOLE);
        smallResponses = GatewayLoopback.responsesRequest(SMALL);
        wholeChat = GatewayLoopback.chatCompletionsRequest(WHOLE);
        smallChat = GatewayLoopback.chatCompletionsRequest(SMALL);
        upstreamRequest = "{\"model\":\"deepseek-reasoner\",\"stream\":true}".getBytes(StandardCharsets.UTF_8);
        System.out.printf("%n[setup] %d-chunk stream: emulator %d SSE events, provider %d chat events, gateway"
                        + " /v1/responses %d SSE events, gateway /v1/chat/completions %d SSE events%n", chunks, emulator(),
                provider(), gatewayResponses(), gatewayChatCompletions());
    }

    /**
     * The 20-chunk stream's first {@link GatedUpstream#HEAD_EVENTS} events, then the connection held open and
     * silent: the first event is timed alone, not behind the rest of a stream that arrives in one read (through the
     * gateway, a burst is encoded, and the response finished and sealed, before the written frames are flushed).
     */
    private static ProviderEmulator heldAfterHead() {
        ReasoningStream stream = ReasoningStream.generate(20, 42);
        int head = 0;
        for (int i = 0; i < GatedUpstream.HEAD_EVENTS; i++) {
            head += "data: ".length() + stream.payloads.get(i).length + 2;
        }
        return ProviderEmulator.start().always(EmulatorResponse.sse(new String(stream.sse, StandardCharsets.UTF_8))
                .stallAfter(head));
    }

    private static ProviderEmulator emulator(int chunks) {
        ReasoningStream stream = ReasoningStream.generate(chunks, 42);
        return ProviderEmulator.start().always(EmulatorResponse.sse(new String(stream.sse, StandardCharsets.UTF_8)));
    }

    /** Stops the gateway and the emulators. */
    @TearDown(Level.Trial)
    public void tearDown() {
        gateway.close();
        wholeEmulator.close();
        smallEmulator.close();
    }

    /** One whole stream through the gateway's Responses endpoint; returns the SSE events received. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long gatewayResponses() {
        return events(gatewayClient, "/v1/responses", wholeResponses);
    }

    /** One whole stream through the gateway's Chat Completions endpoint; returns the SSE events received. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long gatewayChatCompletions() {
        return events(gatewayClient, "/v1/chat/completions", wholeChat);
    }

    /** One whole stream through Ruminate's provider, straight to the emulator; returns the chat events. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long provider() {
        return Objects.requireNonNull(wholeProvider.stream(Loopback.REQUEST).count().block());
    }

    /** One whole stream from the emulator through a bare Reactor Netty client; returns the SSE events. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long emulator() {
        return events(wholeClient, "/chat/completions", upstreamRequest);
    }

    /** Time to the first SSE event through the gateway's Responses endpoint. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long gatewayResponsesFirstEvent() {
        return firstEvent(gatewayClient, "/v1/responses", smallResponses);
    }

    /** Time to the first SSE event through the gateway's Chat Completions endpoint. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long gatewayChatCompletionsFirstEvent() {
        return firstEvent(gatewayClient, "/v1/chat/completions", smallChat);
    }

    /** Time to the first chat event through Ruminate's provider, straight to the emulator. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public ChatEvent providerFirstEvent() {
        return Objects.requireNonNull(smallProvider.stream(Loopback.REQUEST).next().block());
    }

    /** Time to the emulator's first SSE event through a bare Reactor Netty client. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long emulatorFirstEvent() {
        return firstEvent(smallClient, "/chat/completions", upstreamRequest);
    }

    /** Streams a whole body and counts its SSE events; fails on a status other than 200. */
    static long events(HttpClient client, String path, byte[] body) {
        return post(client, path, body, (content, counter) -> content.doOnNext(counter::accept)
                .then(Mono.fromCallable(counter::events)));
    }

    /** Streams a body until its first SSE event has arrived, then cancels; returns the events counted by then. */
    static long firstEvent(HttpClient client, String path, byte[] body) {
        return post(client, path, body, (content, counter) -> content.filter(counter::accept).take(1)
                .map(b -> counter.events()));
    }

    /** Posts a body and reads the answer's bytes with a fresh counter; fails on a status other than 200. */
    private static long post(HttpClient client, String path, byte[] body,
                             BiFunction<ByteBufFlux, SseEventCounter, Publisher<Long>> read) {
        SseEventCounter counter = new SseEventCounter();
        return Objects.requireNonNull(client.post().uri(path)
                .send(ByteBufFlux.fromInbound(Mono.just(body)))
                .response((response, content) -> response.status().code() != 200
                        ? Mono.error(new IllegalStateException(path + " answered " + response.status()))
                        : read.apply(content, counter))
                .next()
                .block());
    }
}
