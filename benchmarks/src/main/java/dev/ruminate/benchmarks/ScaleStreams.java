package dev.ruminate.benchmarks;

import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import io.netty.channel.ChannelOption;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * Issue 21's scale runs: many complete streams open at the same time, each with content of its own, every message
 * checked; and the heap they cost. The upstream ({@link ScaleUpstream}) and the gateway run in a second JVM
 * ({@link ScaleServing}, started and ended here); the clients run in this one.
 *
 * <ul>
 *   <li>{@link #providerRound}: N streams through one {@link ChatCompletionsProvider} (one Reactor Netty client, its
 *       pool sized for N) straight to the upstream, each request carrying its own seed. Once every stream has had
 *       its first event and the upstream holds all N, both JVMs' heaps are read after garbage collection; then the
 *       upstream lets them all finish, and each reduced {@code ChatResult} must equal {@link ScaleAnswer#expected}
 *       of its seed.</li>
 *   <li>{@link #gatewayRound}: M clients (bare Reactor Netty, half on the gateway's {@code /v1/responses}, half on
 *       {@code /v1/chat/completions}, all streaming) through the gateway to the same upstream, held and read the
 *       same way; each body is decoded by Ruminate's decoder of that wire format and must carry its seed's
 *       answer.</li>
 * </ul>
 *
 * <pre>
 * java -cp benchmarks.jar dev.ruminate.benchmarks.ScaleStreams [STREAMS [GATEWAY_CLIENTS]]   # 10000 1000
 * java -cp benchmarks.jar dev.ruminate.benchmarks.ScaleStreams --serve   # the serving JVM, started by the above
 * </pre>
 * Holding every stream until all are open is what shows they were concurrent: none can finish before the upstream
 * is released, and it is released only once it holds them all.
 */
public final class ScaleStreams {

    /** The gateway's route to the upstream. */
    static final String ROUTE = "scale";

    private ScaleStreams() {
    }

    /**
     * Runs both rounds with a warm-up round each ({@code STREAMS}, default 10,000; {@code GATEWAY_CLIENTS}, default
     * 1,000) and prints the figures; or, with {@code --serve}, serves until ended.
     *
     * @param args see the class comment
     * @throws InterruptedException if interrupted while waiting
     */
    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("--serve")) {
            serve();
            return;
        }
        int streams = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int clients = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        try (ScaleServing serving = ScaleServing.start("1g")) {
            // Warm both paths (classes, pools, the JIT) on both sides before the readings.
            providerRound(serving, 500, 1_000_000).check();
            gatewayRound(serving, 200, 2_000_000).check();
            print(providerRound(serving, streams, 0).check());
            print(gatewayRound(serving, clients, 3_000_000).check());
        }
    }

    private static void print(ScaleRound round) {
        System.out.println(round.summary());
    }

    /** Runs the upstream and the gateway in front of it until the process is ended by whoever started it. */
    private static void serve() throws InterruptedException {
        ScaleUpstream upstream = new ScaleUpstream();
        GatewayLoopback gateway = new GatewayLoopback(Map.of(ROUTE, upstream.baseUrl()));
        System.out.println("upstream port " + upstream.port());
        System.out.println("gateway port " + gateway.baseUrl.substring(gateway.baseUrl.lastIndexOf(':') + 1));
        System.out.flush();
        new CountDownLatch(1).await();
    }

    /**
     * A round's client on its pool. The connect timeout is raised from Reactor Netty's 30 s: thousands of connections
     * opened at once overflow the upstream's accept backlog (4,096 here), and on a loaded machine a connection's SYN
     * may be retransmitted past 30 s before it is accepted; the round's own waits bound it instead.
     */
    private static HttpClient client(ConnectionProvider pool) {
        return HttpClient.create(pool)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Duration.ofMinutes(5).toMillis());
    }

    /** A pool of its own for a round: room for every stream at once, none waiting; disposed after the round. */
    private static ConnectionProvider pool(int n) {
        return ConnectionProvider.builder("scale-" + n).maxConnections(n + 16).pendingAcquireMaxCount(-1)
                .pendingAcquireTimeout(Duration.ofMinutes(5)).build();
    }

    /** The request of one provider stream: its seed in the user message, which the upstream reads. */
    static ChatRequest request(long seed) {
        return ChatRequest.builder("deepseek-reasoner").user("Think, then answer " + ScaleUpstream.marker(seed)).build();
    }

    /**
     * N concurrent streams through one provider instance, see the class comment.
     *
     * @param serving the serving JVM
     * @param n how many streams
     * @param firstSeed the seed of the first stream; stream i has {@code firstSeed + i}
     * @return what happened; {@link ScaleRound#check} throws unless every stream was held and came out right
     * @throws InterruptedException if interrupted while waiting
     */
    static ScaleRound providerRound(ScaleServing serving, int n, long firstSeed) throws InterruptedException {
        ConnectionProvider pool = pool(n);
        ChatCompletionsProvider provider = Loopback.provider(serving.upstreamUrl, client(pool));
        ChatReducer reducer = ChatReducer.defaults();
        Tracker tracker = new Tracker(n);
        long clientBefore = OpenStreams.settledHeap(ManagementFactory.getMemoryMXBean());
        long servingBefore = serving.heap();
        List<Disposable> open = new ArrayList<>(n);
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long seed = firstSeed + i;
            AtomicBoolean seen = new AtomicBoolean();
            open.add(reducer.reduce(provider.stream(request(seed)).doOnNext(e -> tracker.first(seen)))
                    .subscribe(result -> {
                                // derived at the end, so that no expected answer sits in the heap being measured
                                ScaleAnswer expected = ScaleAnswer.expected(ScaleUpstream.stream(seed));
                                tracker.ended(seen, expected, ScaleAnswer.of(result), "seed " + seed);
                                tracker.done();
                            },
                            e -> tracker.failed(seen, "seed " + seed + ": " + e)));
        }
        try {
            return tracker.measure("one provider, " + n + " streams", serving, start, clientBefore, servingBefore,
                    null);
        } finally {
            open.forEach(Disposable::dispose);
            pool.disposeLater().block(Duration.ofMinutes(1));
        }
    }

    /**
     * M concurrent clients through the gateway, see the class comment.
     *
     * @param serving the serving JVM
     * @param m how many clients; even ones use {@code /v1/responses}, odd ones {@code /v1/chat/completions}
     * @param firstSeed the seed of the first client's request; client i has {@code firstSeed + i}
     * @return what happened; {@link ScaleRound#check} throws unless every stream was held and came out right
     * @throws InterruptedException if interrupted while waiting
     */
    static ScaleRound gatewayRound(ScaleServing serving, int m, long firstSeed) throws InterruptedException {
        ConnectionProvider pool = pool(m);
        HttpClient client = client(pool).baseUrl(serving.gatewayUrl).responseTimeout(Duration.ofMinutes(10));
        Tracker tracker = new Tracker(m);
        long clientBefore = OpenStreams.settledHeap(ManagementFactory.getMemoryMXBean());
        long servingBefore = serving.heap();
        List<Disposable> open = new ArrayList<>(m);
        Queue<Runnable> checks = new ConcurrentLinkedQueue<>();
        long start = System.nanoTime();
        for (int i = 0; i < m; i++) {
            long seed = firstSeed + i;
            boolean responses = i % 2 == 0;
            AtomicBoolean seen = new AtomicBoolean();
            SseEventCounter counter = new SseEventCounter();
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            String path = responses ? "/v1/responses" : "/v1/chat/completions";
            byte[] request = responses ? responsesRequest(seed) : chatCompletionsRequest(seed);
            open.add(client.post().uri(path).send(ByteBufFlux.fromInbound(Mono.just(request)))
                    .response((response, content) -> response.status().code() != 200
                            ? Mono.error(new IllegalStateException(path + " answered " + response.status()))
                            : content.doOnNext(b -> {
                                if (counter.accept(b)) {
                                    tracker.first(seen);
                                }
                                byte[] bytes = new byte[b.readableBytes()];
                                b.getBytes(b.readerIndex(), bytes);
                                body.writeBytes(bytes);
                            }).then(Mono.just(path)))
                    .subscribe(p -> {
                        // decoded after the round, on the measuring thread, so that decoding is not in the timing
                        ScaleAnswer want = ScaleAnswer.expected(ScaleUpstream.stream(seed));
                        checks.add(() -> {
                            Wire wire = p.equals("/v1/responses") ? Wire.RESPONSES : Wire.CHAT_COMPLETIONS;
                            ScaleAnswer got = ScaleAnswer.of(wire.decodeReduce(Pieces.cut(body.toByteArray(), 1460)));
                            tracker.ended(seen, want, got, p + " seed " + seed);
                        });
                        tracker.done();
                    }, e -> tracker.failed(seen, path + " seed " + seed + ": " + e)));
        }
        try {
            return tracker.measure("gateway, " + m + " clients", serving, start, clientBefore, servingBefore, checks);
        } finally {
            open.forEach(Disposable::dispose);
            pool.disposeLater().block(Duration.ofMinutes(1));
        }
    }

    /** A streaming Responses request through the gateway's route, carrying a seed. */
    static byte[] responsesRequest(long seed) {
        return ("{\"model\":\"" + ROUTE + "\",\"input\":\"Think, then answer " + ScaleUpstream.marker(seed)
                + "\",\"stream\":true,\"store\":false}").getBytes(StandardCharsets.UTF_8);
    }

    /** A streaming Chat Completions request through the gateway's route, carrying a seed, usage asked for. */
    static byte[] chatCompletionsRequest(long seed) {
        return ("{\"model\":\"" + ROUTE + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Think, then answer "
                + ScaleUpstream.marker(seed) + "\"}],\"stream\":true,\"stream_options\":{\"include_usage\":true}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The streams of one round: first events, ends, correctness. Called from event loops; counts are atomic. */
    private static final class Tracker {
        private final int n;
        private final CountDownLatch first;
        private final CountDownLatch done;
        private final AtomicInteger correct = new AtomicInteger();
        private final AtomicReference<@Nullable String> failure = new AtomicReference<>();

        Tracker(int n) {
            this.n = n;
            this.first = new CountDownLatch(n);
            this.done = new CountDownLatch(n);
        }

        void first(AtomicBoolean seen) {
            if (seen.compareAndSet(false, true)) {
                first.countDown();
            }
        }

        void ended(AtomicBoolean seen, ScaleAnswer expected, ScaleAnswer got, String which) {
            if (got.equals(expected)) {
                correct.incrementAndGet();
            } else {
                failure.compareAndSet(null, which + " ended with " + got + ", not " + expected);
            }
            if (!seen.get()) {
                failure.compareAndSet(null, which + " ended without a first event");
            }
        }

        /** A stream that ended (checked already, or to be checked after the round). */
        void done() {
            done.countDown();
        }

        void failed(AtomicBoolean seen, String what) {
            failure.compareAndSet(null, what);
            first(seen);
            done.countDown();
        }

        /**
         * Waits for every first event and for the upstream to hold every stream; reads both heaps; releases them;
         * waits for every end; runs the deferred checks.
         */
        ScaleRound measure(String name, ScaleServing serving, long start, long clientBefore, long servingBefore,
                           @Nullable Queue<Runnable> checks) throws InterruptedException {
            if (!first.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException(name + ": " + first.getCount() + " streams had no first event after"
                        + " 10 minutes; first failure: " + failure.get());
            }
            long openNanos = System.nanoTime() - start;
            String early = failure.get();
            if (early != null) {
                throw new IllegalStateException(name + ": a stream failed before all were open: " + early);
            }
            int held = serving.awaitHeld(n);
            long endedBeforeRelease = n - done.getCount();
            long clientPeak = OpenStreams.settledHeap(ManagementFactory.getMemoryMXBean());
            long servingPeak = serving.heap();
            int released = serving.releaseWhen(n);
            long releasedAt = System.nanoTime();
            if (!done.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException(name + ": " + done.getCount() + " streams did not end 10 minutes"
                        + " after the release; first failure: " + failure.get());
            }
            long finishNanos = System.nanoTime() - releasedAt;
            if (checks != null) {
                checks.forEach(Runnable::run);
            }
            return new ScaleRound(name, n, held, released, endedBeforeRelease, correct.get(),
                    TimeUnit.NANOSECONDS.toMillis(openNanos), TimeUnit.NANOSECONDS.toMillis(finishNanos),
                    clientPeak - clientBefore, servingPeak - servingBefore, failure.get());
        }
    }
}
