package dev.ruminate.benchmarks;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.Reduction;
import dev.ruminate.transport.wire.ServerSentEvents;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.Profiles;
import java.util.List;
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
 * Reduction alone: a prepared list of events (the very events the Chat Completions decoder emits for PERF.md's
 * stream: 70 % reasoning deltas of 3–8 characters, then content, then tool-call argument fragments, then usage)
 * folded into the final message. Score: operations (whole streams) per second; multiply by {@code events}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 2, time = 1500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ReductionBenchmark {

    private static final ChatReducer REDUCER = ChatReducer.defaults();

    /** Events in the list (the stream is generated with this many chunks; the decoder emits one event each). */
    @Param({"10000", "100000"})
    public int events;

    private List<ChatEvent> list;

    /** Decodes the generated stream once into the list that every operation folds. */
    @Setup
    public void setUp() {
        ReasoningStream stream = ReasoningStream.generate(events, 7);
        list = Objects.requireNonNull(ServerSentEvents.decode(Flux.fromArray(Pieces.cut(stream.sse, 16384)))
                .transform(ChatCompletionsCodec.streamDecoder(Profiles.DEEPSEEK)).collectList().block());
        // The decoder interleaves the events with its garbage; left so, the list's layout in the heap, and with it
        // the cache misses of walking 100,000 events, differs from fork to fork (25-33 M events/s). A full
        // collection compacts the survivors in allocation order, as a stream's events are when nothing is between
        // them, so every fork walks the same layout.
        System.gc();
        System.out.println("\n[setup] " + list.size() + " events");
    }

    /** {@link Reduction} driven directly: the reducer's own cost. */
    @Benchmark
    public ChatResult reduction() {
        Reduction reduction = REDUCER.start();
        for (ChatEvent event : list) {
            reduction.accept(event);
        }
        return reduction.finish();
    }

    /** {@link ChatReducer#reduce} over a {@code Flux} of the same list: the reducer plus Reactor's per-event cost. */
    @Benchmark
    public ChatResult reducerOverFlux() {
        return Objects.requireNonNull(REDUCER.reduce(Flux.fromIterable(list)).block(), "the reduction is empty");
    }
}
