package dev.ruminate.benchmarks;

import dev.ruminate.core.reduce.ChatResult;
import io.netty.buffer.ByteBuf;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Decoding alone (framing: SSE events, event-stream messages, JSON lines) and decoding + reduction, per wire format,
 * from the body cut into {@code piece}-byte {@code ByteBuf}s: 1460 (one TCP segment), 16384 (a large socket read)
 * and 1 (the worst case). With 1-byte pieces the stream is a tenth as long ({@code chunks / 10}), to keep memory
 * for the pieces reasonable; compare per-byte rates, which the README derives.
 *
 * <p>Formats ({@link Wire}): Chat Completions SSE ({@code sse…}), Anthropic Messages SSE ({@code anthropic…}),
 * OpenAI Responses SSE ({@code responses…}), Gemini SSE ({@code gemini…}), Bedrock event-stream
 * ({@code bedrock…}) and Ollama native NDJSON ({@code ndjson…}), all carrying the same reasoning, answer and tool
 * calls ({@link OtherStreams}); {@code WireFormatsTest} checks that each reduces to the same message. Each fork
 * builds and cuts only the body its benchmark reads, and prints its size and event count at setup.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 2, time = 1500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class DecodeBenchmark {

    /** Chunks in the Chat Completions stream (a tenth of it for 1-byte pieces). */
    @Param({"10000"})
    public int chunks;

    /** Bytes per {@code ByteBuf}. */
    @Param({"1460", "16384", "1"})
    public int piece;

    private ByteBuf[] body;

    /**
     * Builds the body of the format the running benchmark reads, and cuts it.
     *
     * @param params the running benchmark, whose method name gives the format
     */
    @Setup
    public void setUp(BenchmarkParams params) {
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        Wire wire = wireOf(method);
        ReasoningStream stream = ReasoningStream.generate(piece == 1 ? chunks / 10 : chunks, 42);
        byte[] bytes = wire.body(stream);
        body = Pieces.cut(bytes, piece);
        System.out.println("\n[setup] " + wire + ": " + stream.chunks + " chat-completions chunks' content, "
                + bytes.length + " bytes, " + wire.frame(Pieces.cut(bytes, 16384)) + " wire events");
    }

    static Wire wireOf(String method) {
        if (method.startsWith("sse")) {
            return Wire.CHAT_COMPLETIONS;
        } else if (method.startsWith("anthropic")) {
            return Wire.ANTHROPIC;
        } else if (method.startsWith("responses")) {
            return Wire.RESPONSES;
        } else if (method.startsWith("gemini")) {
            return Wire.GEMINI;
        } else if (method.startsWith("bedrock")) {
            return Wire.BEDROCK;
        } else if (method.startsWith("ndjson")) {
            return Wire.OLLAMA;
        }
        throw new IllegalArgumentException("no wire format for " + method);
    }

    /** Chat Completions: SSE framing only, {@code SseEvent}s with their data bytes. */
    @Benchmark
    public long sseFrame() {
        return Wire.CHAT_COMPLETIONS.frame(body);
    }

    /** Chat Completions: framing alone as the provider runs it, each frame lent to a counter (not in quick mode). */
    @Benchmark
    public long sseFrameLent() {
        return Wire.CHAT_COMPLETIONS.frameLent(body);
    }

    /** Chat Completions: SSE framing, the Chat Completions decoder (DeepSeek profile) and the reducer. */
    @Benchmark
    public ChatResult sseDecodeReduce() {
        return Wire.CHAT_COMPLETIONS.decodeReduce(body);
    }

    /** Anthropic Messages: SSE framing only (named events). */
    @Benchmark
    public long anthropicFrame() {
        return Wire.ANTHROPIC.frame(body);
    }

    /** Anthropic Messages: framing alone as the provider runs it, each frame lent to a counter (not in quick mode). */
    @Benchmark
    public long anthropicFrameLent() {
        return Wire.ANTHROPIC.frameLent(body);
    }

    /** Anthropic Messages: SSE framing, the Anthropic decoder and the reducer. */
    @Benchmark
    public ChatResult anthropicDecodeReduce() {
        return Wire.ANTHROPIC.decodeReduce(body);
    }

    /** OpenAI Responses: SSE framing only (named, numbered events). */
    @Benchmark
    public long responsesFrame() {
        return Wire.RESPONSES.frame(body);
    }

    /** OpenAI Responses: framing alone as the provider runs it, each frame lent to a counter (not in quick mode). */
    @Benchmark
    public long responsesFrameLent() {
        return Wire.RESPONSES.frameLent(body);
    }

    /** OpenAI Responses: SSE framing, the Responses decoder (OpenAI profile) and the reducer. */
    @Benchmark
    public ChatResult responsesDecodeReduce() {
        return Wire.RESPONSES.decodeReduce(body);
    }

    /** Gemini: SSE framing only (CRLF line ends, as Google sends them). */
    @Benchmark
    public long geminiFrame() {
        return Wire.GEMINI.frame(body);
    }

    /** Gemini: framing alone as the provider runs it, each frame lent to a counter (not in quick mode). */
    @Benchmark
    public long geminiFrameLent() {
        return Wire.GEMINI.frameLent(body);
    }

    /** Gemini: SSE framing, the Gemini decoder and the reducer. */
    @Benchmark
    public ChatResult geminiDecodeReduce() {
        return Wire.GEMINI.decodeReduce(body);
    }

    /** Bedrock: AWS event-stream framing only, prelude and message CRCs checked. */
    @Benchmark
    public long bedrockFrame() {
        return Wire.BEDROCK.frame(body);
    }

    /** Bedrock: framing alone as the provider runs it, each frame lent to a counter (not in quick mode). */
    @Benchmark
    public long bedrockFrameLent() {
        return Wire.BEDROCK.frameLent(body);
    }

    /** Bedrock: event-stream framing, the ConverseStream decoder and the reducer. */
    @Benchmark
    public ChatResult bedrockDecodeReduce() {
        return Wire.BEDROCK.decodeReduce(body);
    }

    /** Ollama native: NDJSON framing only. */
    @Benchmark
    public long ndjsonFrame() {
        return Wire.OLLAMA.frame(body);
    }

    /** Ollama native: framing alone as the provider runs it, each frame lent to a counter (not in quick mode). */
    @Benchmark
    public long ndjsonFrameLent() {
        return Wire.OLLAMA.frameLent(body);
    }

    /** Ollama native: NDJSON framing, the Ollama decoder and the reducer. */
    @Benchmark
    public ChatResult ndjsonDecodeReduce() {
        return Wire.OLLAMA.decodeReduce(body);
    }
}
