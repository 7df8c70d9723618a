package dev.ruminate.benchmarks;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * The floor (PERF.md): Jackson's streaming parser walking every token of every {@code data:} payload of the stream,
 * building nothing, one new parser per payload, with Jackson 3 (Ruminate's) and Jackson 2 (the peers'); and the
 * same walk with the one non-blocking parser per stream that Ruminate's decoders read with.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 2, time = 1500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class FloorBenchmark {

    private static final JsonFactory JACKSON2 = new JsonFactory();

    /** Chunks in the stream. */
    @Param({"10000"})
    public int chunks;

    private List<byte[]> payloads;

    /** Builds the stream once. */
    @Setup
    public void setUp() {
        payloads = ReasoningStream.generate(chunks, 42).payloads;
    }

    /** Jackson 3, a parser per payload: the same code as {@code ChatCompletionsReasoningBenchmark.floor}. */
    @Benchmark
    public long jackson3() {
        return Contenders.floor(payloads);
    }

    /**
     * Jackson 3's non-blocking parser, one for the stream, fed payload by payload: the tokenizer under Ruminate's
     * decoders, walking the same tokens.
     */
    @Benchmark
    public long jackson3NonBlocking() {
        return Contenders.floorNonBlocking(payloads);
    }

    /** Jackson 2, a parser per payload. */
    @Benchmark
    public long jackson2() {
        long tokens = 0;
        try {
            for (byte[] payload : payloads) {
                try (JsonParser p = JACKSON2.createParser(payload)) {
                    while (p.nextToken() != null) {
                        tokens++;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tokens;
    }
}
