package dev.ruminate.benchmarks;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.think.ThinkTags;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Flux;

/**
 * The think-tag splitter over answer text that holds {@code <think>…</think>}, streamed as content deltas of 3–8
 * characters, once for each position at which a delta boundary can cut each tag (so every split of both tags is
 * exercised), against plain {@code String.indexOf} scans of the same content. One operation = all variants.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 2, time = 1500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ThinkTagBenchmark {

    private static final String OPEN = "<think>";
    private static final String CLOSE = "</think>";

    private final Function<Flux<ChatEvent>, Flux<ChatEvent>> splitter = ThinkTags.splitter();
    private final List<List<ChatEvent>> variants = new ArrayList<>();
    private final List<String> contents = new ArrayList<>();
    private int deltas;

    /** Builds one delta list per cut position: the open tag cut after k characters, the close tag after k too. */
    @Setup
    public void setUp() {
        ReasoningStream stream = ReasoningStream.generate(2_000, 11);
        String content = OPEN + stream.reasoning + CLOSE + stream.content;
        int closeAt = OPEN.length() + stream.reasoning.length();
        for (int k = 1; k < CLOSE.length(); k++) {
            List<ChatEvent> events = new ArrayList<>();
            events.add(new ResponseStarted("bench", "m", null));
            int[] cuts = {Math.min(k, OPEN.length() - 1), closeAt + k};
            int i = 0;
            int step = 0;
            while (i < content.length()) {
                int end = Math.min(content.length(), i + 3 + step++ % 6);
                for (int cut : cuts) {
                    if (i < cut && cut < end) {
                        end = cut;
                    }
                }
                if (Character.isHighSurrogate(content.charAt(end - 1)) && end < content.length()) {
                    end++;
                }
                events.add(new ContentDelta(0, content.substring(i, end)));
                i = end;
            }
            events.add(new ResponseCompleted(FinishReason.STOP, "stop"));
            deltas += events.size() - 2;
            variants.add(events);
            contents.add(content);
        }
        System.out.println("\n[setup] " + variants.size() + " variants, " + deltas + " deltas in all");
    }

    /** The splitter as a provider applies it: over a {@code Flux} of content deltas. */
    @Benchmark
    public long splitter() {
        long n = 0;
        for (List<ChatEvent> events : variants) {
            n += Objects.requireNonNull(Flux.fromIterable(events).transform(splitter).count().block());
        }
        return n;
    }

    /** The same {@code Flux} with no splitter: what Reactor alone costs per delta. */
    @Benchmark
    public long fluxAlone() {
        long n = 0;
        for (List<ChatEvent> events : variants) {
            n += Objects.requireNonNull(Flux.fromIterable(events).count().block());
        }
        return n;
    }

    /**
     * Plain {@code String.indexOf} over each delta as it arrives (a tag's first character, then the tag where it
     * matches), the text appended to a builder: the least a streaming scan does, with no {@code Flux} and no
     * tags split across deltas handled.
     */
    @Benchmark
    public int indexOfPerDelta() {
        int n = 0;
        for (List<ChatEvent> events : variants) {
            StringBuilder text = new StringBuilder();
            for (ChatEvent e : events) {
                if (e instanceof ContentDelta d) {
                    String t = d.text();
                    int lt = t.indexOf('<');
                    if (lt >= 0 && (t.startsWith(OPEN, lt) || t.startsWith(CLOSE, lt))) {
                        n++;
                    }
                    text.append(t);
                }
            }
            n += text.length();
        }
        return n;
    }

    /** Plain {@code String.indexOf} over each whole content, cutting out the reasoning and the answer. */
    @Benchmark
    public int indexOf() {
        int n = 0;
        for (String content : contents) {
            int open = content.indexOf(OPEN);
            int close = content.indexOf(CLOSE, open + OPEN.length());
            n += content.substring(open + OPEN.length(), close).length() + content.substring(close + CLOSE.length()).length();
        }
        return n;
    }
}
