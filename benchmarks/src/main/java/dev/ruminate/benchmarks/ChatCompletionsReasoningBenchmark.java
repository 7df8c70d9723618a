package dev.ruminate.benchmarks;

import com.openai.models.chat.completions.ChatCompletion;
import dev.ruminate.core.reduce.ChatResult;
import io.netty.buffer.ByteBuf;
import java.util.List;
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

/**
 * Decode + reduce of one Chat Completions reasoning stream (PERF.md's), whole stream to final message per
 * operation, for Ruminate, the floor and each peer, on the same bytes in the same run.
 *
 * <p>Ruminate starts from the SSE body cut into TCP-sized {@code ByteBuf}s, so it pays for SSE framing; the floor,
 * the naive baseline, openai-java and LangChain4j start from the {@code data:} payloads already cut out (their SSE
 * readers are not measured, which favours them); Spring AI starts from the body, as its transport delivers it.
 * Score: operations (whole streams) per second; multiply by {@code chunks} for chunks per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ChatCompletionsReasoningBenchmark {

    /** Chunks in the stream; PERF.md's stream has 10,000. */
    @Param({"10000"})
    public int chunks;

    /** Size of the pieces the SSE body is cut into for Ruminate, as a TCP read would deliver them. */
    @Param({"1460"})
    public int segment;

    private ReasoningStream stream;
    private ByteBuf[] pieces;
    private List<byte[]> payloads;
    private SpringAiContender springAi;

    /** Builds the stream and each contender's input once. */
    @Setup
    public void setUp() {
        stream = ReasoningStream.generate(chunks, 42);
        pieces = Pieces.cut(stream.sse, segment);
        payloads = stream.payloads;
        springAi = new SpringAiContender(stream.sse);
        System.out.println("\n[setup] chat-completions stream: " + stream.chunks + " chunks, " + stream.sse.length
                + " bytes");
    }

    /** Ruminate: SSE framing, the Chat Completions decoder and the reducer. */
    @Benchmark
    public ChatResult ruminate() {
        return Contenders.ruminate(pieces);
    }

    /** Jackson 3's streaming parser over every token of every payload, building nothing. */
    @Benchmark
    public long floor() {
        return Contenders.floor(payloads);
    }

    /** Jackson {@code readTree} per chunk and {@code StringBuilder}s. */
    @Benchmark
    public Outcome naive() {
        return Contenders.naive(payloads);
    }

    /** openai-java's chunk mapper and {@code ChatCompletionAccumulator}. */
    @Benchmark
    public ChatCompletion openaiJava() {
        return Contenders.openaiJava(payloads);
    }

    /** LangChain4j's chunk mapper and {@code OpenAiStreamingResponseBuilder}. */
    @Benchmark
    public Object langchain4j() {
        return Contenders.langchain4j(payloads);
    }

    /** Spring AI's {@code OpenAiChatModel} stream and {@code MessageAggregator}. */
    @Benchmark
    public Object springAi() {
        return springAi.run();
    }
}
