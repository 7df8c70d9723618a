package dev.ruminate.benchmarks;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
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
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;

/**
 * End to end over loopback: the test kit's emulator serves the reasoning stream over HTTP on 127.0.0.1, the real
 * {@code ChatCompletionsProvider} (Reactor Netty client, SSE framing, decoder) streams it, the reducer folds it.
 *
 * <ul>
 *   <li>{@code stream}: whole streams per second (times {@code chunks} = events per second), client and emulator
 *       sharing the machine's two cores;</li>
 *   <li>{@code firstEvent} vs {@code emulatorFirstByte}: the latency to the first chat event through the provider,
 *       and to the first body bytes through a bare Reactor Netty client on the same emulator (the emulator's own
 *       latency); the difference at p99 is what Ruminate adds.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 2, time = 1500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class LoopbackBenchmark {

    private static final ChatReducer REDUCER = ChatReducer.defaults();

    /** Chunks in the stream served for {@code stream}. */
    @Param({"10000"})
    public int chunks;

    private Loopback whole;
    private Loopback small;
    private HttpClient bare;
    private byte[] requestBody;

    /** Starts two emulators: the whole stream, and a 20-chunk one for the latency measurements. */
    @Setup(Level.Trial)
    public void setUp() {
        whole = new Loopback(chunks, false, HttpClient.create());
        small = new Loopback(20, false, HttpClient.create());
        bare = HttpClient.create().baseUrl(small.emulator.baseUrl().toString());
        requestBody = "{\"model\":\"deepseek-reasoner\",\"stream\":true}".getBytes(StandardCharsets.UTF_8);
    }

    /** Stops the emulators. */
    @TearDown(Level.Trial)
    public void tearDown() {
        whole.close();
        small.close();
    }

    /** One whole stream: request, SSE, decoding, reduction. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public ChatResult stream() {
        return Objects.requireNonNull(REDUCER.reduce(whole.provider.stream(Loopback.REQUEST)).block());
    }

    /** Time to the first chat event through the provider (the stream is then cancelled). */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public ChatEvent firstEvent() {
        return Objects.requireNonNull(small.provider.stream(Loopback.REQUEST).next().block());
    }

    /** Time to the first body bytes from the same emulator through a bare Reactor Netty client. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int emulatorFirstByte() {
        return Objects.requireNonNull(bare.post().uri("/chat/completions")
                .send(ByteBufFlux.fromInbound(Mono.just(requestBody)))
                .responseContent()
                .next()
                .map(ByteBuf::readableBytes)
                .block());
    }
}
