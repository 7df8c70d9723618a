package dev.ruminate.benchmarks;

import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.Disposable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.ByteBufFlux;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.ConnectionProvider;

/**
 * Heap held per slow stream (issue 21), a separate main class like {@link OpenStreams}: opens N streams of more than
 * 10 MB each (a Chat Completions SSE stream of small delta chunks) whose subscribers request one element per
 * interval (one second by default), lets them run, collects garbage and reads the used heap. The same is done with
 * a bare Reactor Netty client whose subscribers request one body buffer per interval; the difference divided by N
 * is what a slow Ruminate stream holds beyond the transport's own share. Reading from the socket pauses while
 * nothing is requested, so what a stream holds is its read-ahead, not the stream.
 *
 * <p>The server runs in a second JVM, so that its copy of the stream and its connections are not in the heap
 * measured. Usage:
 * <pre>
 * java -cp benchmarks.jar dev.ruminate.benchmarks.SlowStreams --serve          # prints "port N", runs until killed
 * java -Xmx1g -cp benchmarks.jar dev.ruminate.benchmarks.SlowStreams --url http://127.0.0.1:N [--interval-ms 1000]
 *      [--run-seconds 20] 100 1000
 * </pre>
 * Prints one line per stream count.
 */
public final class SlowStreams {

    /** The stream served: at least this many bytes. */
    static final int STREAM_BYTES = 10 * 1024 * 1024;
    private static final int CHUNK = 8 * 1024;

    private SlowStreams() {
    }

    /**
     * Serves ({@code --serve}) or measures ({@code --url URL [--interval-ms MS] [--run-seconds S] COUNT...}) one
     * reading per stream count.
     *
     * @param args {@code --serve}, or {@code --url}, the emulator's URL, options and the stream counts
     * @throws InterruptedException if interrupted while waiting
     */
    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("--serve")) {
            serve();
            return;
        }
        if (args.length < 3 || !args[0].equals("--url")) {
            throw new IllegalArgumentException("usage: --serve | --url URL [--interval-ms MS] [--run-seconds S] COUNT...");
        }
        String url = args[1];
        Duration interval = Duration.ofSeconds(1);
        Duration run = Duration.ofSeconds(20);
        List<Integer> counts = new CopyOnWriteArrayList<>();
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--interval-ms" -> interval = Duration.ofMillis(Long.parseLong(args[++i]));
                case "--run-seconds" -> run = Duration.ofSeconds(Long.parseLong(args[++i]));
                default -> counts.add(Integer.parseInt(args[i]));
            }
        }
        int max = counts.stream().mapToInt(Integer::intValue).max().orElse(1);
        ConnectionProvider pool = ConnectionProvider.builder("slow-streams").maxConnections(max + 16)
                .pendingAcquireMaxCount(-1).build();
        HttpClient client = HttpClient.create(pool);
        try {
            ChatCompletionsProvider provider = Loopback.provider(url, client);
            HttpClient bare = client.baseUrl(url);
            byte[] body = "{\"model\":\"m\",\"stream\":true}".getBytes(StandardCharsets.UTF_8);
            // Warm both paths (classes, pools, JIT) before the first reading.
            measure(20, interval, Duration.ofSeconds(2), () -> provider.stream(Loopback.REQUEST));
            measure(20, interval, Duration.ofSeconds(2), () -> bare(bare, body));
            for (int n : counts) {
                Reading bareReading = measure(n, interval, run, () -> bare(bare, body));
                Reading ruminate = measure(n, interval, run, () -> provider.stream(Loopback.REQUEST));
                System.out.printf(Locale.ROOT, "slow streams: %d of at least %d bytes each, one element per %d ms for %d s;"
                                + " client heap per stream: provider %.0f B (%d events each on average), bare Reactor"
                                + " Netty client %.0f B, Ruminate's own share %.0f B; max heap %d MiB%n",
                        n, ruminate.streamBytes, interval.toMillis(), run.toSeconds(), (double) ruminate.heap / n,
                        ruminate.elements / n, (double) bareReading.heap / n,
                        (double) (ruminate.heap - bareReading.heap) / n, Runtime.getRuntime().maxMemory() >> 20);
            }
        } finally {
            pool.disposeLater().block(Duration.ofSeconds(30));
        }
    }

    /**
     * Runs the server: every request gets the same stream of more than 10 MB, in 8 KiB chunks written as the client
     * reads. A bare Reactor Netty server rather than the test kit's emulator, for one setting the emulator does not
     * have: a fixed socket send buffer ({@code SO_SNDBUF} 64 KiB). Linux auto-tunes the send buffer of a connection
     * whose reader paused up to {@code tcp_wmem}'s maximum (4 MiB), and 1,000 such connections exceed the kernel's
     * TCP memory ({@code tcp_mem}), after which new connections get no bytes at all.
     */
    private static void serve() throws InterruptedException {
        byte[] body = stream().body();
        DisposableServer server = HttpServer.create().host("127.0.0.1").port(0)
                .childOption(ChannelOption.SO_SNDBUF, 64 * 1024)
                .handle((in, out) -> in.receive().then(Mono.defer(() -> {
                    out.header(HttpHeaderNames.CONTENT_TYPE, "text/event-stream");
                    return out.send(Flux.range(0, (body.length + CHUNK - 1) / CHUNK).map(i -> Unpooled.wrappedBuffer(
                            body, i * CHUNK, Math.min(CHUNK, body.length - i * CHUNK))), b -> true).then();
                })))
                .bindNow();
        System.out.println("port " + server.port() + " stream " + body.length);
        System.out.flush();
        // Serves until the process is ended by whoever started it.
        new CountDownLatch(1).await();
    }

    /** A Chat Completions stream of small content deltas, at least {@link #STREAM_BYTES} long. */
    static EmulatorResponse stream() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < 1_900_000; i++) {
            text.append("word").append(i).append(' ');
        }
        EmulatorResponse stream = ChatCompletionsScript.create().content(text.toString()).tokensOf(32).toResponse();
        if (stream.body().length < STREAM_BYTES) {
            throw new IllegalStateException("stream too short: " + stream.body().length);
        }
        return stream;
    }

    private static Flux<ByteBuf> bare(HttpClient bare, byte[] body) {
        return bare.post().uri("/chat/completions").send(ByteBufFlux.fromInbound(Mono.just(body))).responseContent();
    }

    /** What one reading found: the heap the streams hold, the elements they received, the stream length. */
    private record Reading(long heap, long elements, long streamBytes) {
    }

    private interface Streams {
        Flux<?> open();
    }

    /**
     * Opens {@code n} streams with slow subscribers, waits for each one's first element, lets them run, and returns
     * the used heap they add; then cancels them.
     */
    private static Reading measure(int n, Duration interval, Duration run, Streams streams)
            throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long before = OpenStreams.settledHeap(memory);
        CountDownLatch first = new CountDownLatch(n);
        AtomicLong elements = new AtomicLong();
        List<Slow> open = new CopyOnWriteArrayList<>();
        for (int i = 0; i < n; i++) {
            Slow slow = new Slow(first, elements);
            open.add(slow);
            streams.open().subscribe(slow);
        }
        // One timer asks every stream for one more element per interval.
        Disposable ticks = Flux.interval(interval, Schedulers.single()).subscribe(t -> open.forEach(s -> s.request(1)));
        try {
            if (!first.await(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException(first.getCount() + " of " + n + " streams never delivered");
            }
            TimeUnit.MILLISECONDS.sleep(run.toMillis());
            long after = OpenStreams.settledHeap(memory);
            long failed = open.stream().filter(s -> s.failed != null).count();
            if (failed > 0) {
                throw new IllegalStateException(failed + " streams failed, e.g. " + open.stream()
                        .filter(s -> s.failed != null).findFirst().map(s -> s.failed).orElse(null));
            }
            return new Reading(after - before, elements.get(), STREAM_BYTES);
        } finally {
            ticks.dispose();
            open.forEach(Slow::dispose);
            open.clear();
        }
    }

    /** Requests one element at subscription, then one per tick; releases buffers of the bare client. */
    private static final class Slow extends BaseSubscriber<Object> {
        private final CountDownLatch first;
        private final AtomicLong elements;
        private boolean seen;
        volatile @Nullable Throwable failed;

        Slow(CountDownLatch first, AtomicLong elements) {
            this.first = first;
            this.elements = elements;
        }

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            subscription.request(1);
        }

        @Override
        protected void hookOnNext(Object element) {
            elements.incrementAndGet();
            if (!seen) {
                seen = true;
                first.countDown();
            }
        }

        @Override
        protected void hookOnError(Throwable error) {
            failed = error;
            if (!seen) {
                seen = true;
                first.countDown();
            }
        }
    }
}
