package dev.ruminate.benchmarks;

import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.wire.EventStreams;
import dev.ruminate.core.wire.JsonLines;
import dev.ruminate.core.wire.ServerSentEvents;
import dev.ruminate.providers.bedrock.BedrockCodec;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.Profiles;
import io.netty.buffer.ByteBuf;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Flux;

/**
 * Decoding alone (framing: SSE events, event-stream messages, JSON lines) and decoding + reduction, per wire format,
 * from the body cut into {@code piece}-byte {@code ByteBuf}s: 1460 (one TCP segment), 16384 (a large socket read)
 * and 1 (the worst case). With 1-byte pieces the stream is a tenth as long ({@code chunks / 10}), to keep memory
 * for the pieces reasonable; compare per-byte rates, which the README derives.
 *
 * <p>NDJSON: the Ollama native decoder is not in this branch, so only its framing ({@code JsonLines.decode}) is
 * measured; the hook for decode + reduce is {@link #ndjsonFrame}'s body plus {@code .transform(OllamaCodec...)}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 2, time = 1500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class DecodeBenchmark {

    private static final ChatReducer REDUCER = ChatReducer.defaults();

    /** Chunks in the SSE stream (a tenth of it for 1-byte pieces). */
    @Param({"10000"})
    public int chunks;

    /** Bytes per {@code ByteBuf}. */
    @Param({"1460", "16384", "1"})
    public int piece;

    private ByteBuf[] sse;
    private ByteBuf[] bedrock;
    private ByteBuf[] ndjson;

    /** Builds the three bodies and cuts them. */
    @Setup
    public void setUp() {
        ReasoningStream stream = ReasoningStream.generate(piece == 1 ? chunks / 10 : chunks, 42);
        byte[] bedrockBytes = OtherStreams.bedrock(stream);
        byte[] ndjsonBytes = OtherStreams.ndjson(stream);
        sse = Pieces.cut(stream.sse, piece);
        bedrock = Pieces.cut(bedrockBytes, piece);
        ndjson = Pieces.cut(ndjsonBytes, piece);
        System.out.println("\n[setup] bytes: sse " + stream.sse.length + ", bedrock " + bedrockBytes.length
                + ", ndjson " + ndjsonBytes.length);
    }

    /** SSE framing only: {@code SseEvent}s with their data bytes. */
    @Benchmark
    public long sseFrame() {
        return Objects.requireNonNull(ServerSentEvents.decode(Flux.fromArray(sse)).count().block());
    }

    /** SSE framing, the Chat Completions decoder and the reducer. */
    @Benchmark
    public ChatResult sseDecodeReduce() {
        return Objects.requireNonNull(REDUCER.reduce(ServerSentEvents.decode(Flux.fromArray(sse))
                .transform(ChatCompletionsCodec.streamDecoder(Profiles.DEEPSEEK))).block());
    }

    /** AWS event-stream framing only, prelude and message CRCs checked. */
    @Benchmark
    public long bedrockFrame() {
        return Objects.requireNonNull(EventStreams.decode(Flux.fromArray(bedrock)).count().block());
    }

    /** Event-stream framing, the Bedrock ConverseStream decoder and the reducer. */
    @Benchmark
    public ChatResult bedrockDecodeReduce() {
        return Objects.requireNonNull(REDUCER.reduce(EventStreams.decode(Flux.fromArray(bedrock))
                .transform(BedrockCodec.streamDecoder("bedrock", "anthropic.claude-sonnet-4"))).block());
    }

    /** NDJSON framing only (the hook for the Ollama native decoder, which is not in this branch). */
    @Benchmark
    public long ndjsonFrame() {
        return Objects.requireNonNull(JsonLines.decode(Flux.fromArray(ndjson)).count().block());
    }
}
