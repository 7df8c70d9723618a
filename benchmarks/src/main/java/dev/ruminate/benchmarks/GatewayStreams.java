package dev.ruminate.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
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
 * Concurrent client streams through the gateway, held open mid-stream, and the heap each costs; a main class like
 * {@link OpenStreams}. One JVM ({@code --serve}) runs the gateway and a {@link GatedUpstream} behind its one route;
 * the client runs in another ({@code --gateway URL --upstream URL COUNT...}), and for each count:
 * <ol>
 *   <li>opens that many streaming requests straight to the upstream ({@code POST /chat/completions}), waits until
 *       each has had its first event and the upstream holds them all, reads the serving JVM's heap after garbage
 *       collection (the upstream's own share) and its own, lets them finish and checks each;</li>
 *   <li>the same through the gateway's {@code POST /v1/responses} ({@code stream: true, store: false}), and through
 *       its {@code POST /v1/chat/completions} ({@code stream: true}).</li>
 * </ol>
 * The difference between the two serving-JVM readings, divided by the count, is what the gateway holds per open
 * stream (its inbound connection, the exchange, the provider's upstream connection and decoder, the encoder). A
 * stream is complete and correct when it ends with status 200 and as many events as a reference stream of the same
 * path whose body was decoded and checked against the generated stream's reasoning, answer and tool calls.
 *
 * <pre>
 * java -Xmx512m -cp benchmarks.jar dev.ruminate.benchmarks.GatewayStreams --serve      # prints "gateway URL", "upstream URL"
 * java -Xmx512m -cp benchmarks.jar dev.ruminate.benchmarks.GatewayStreams --gateway URL --upstream URL 1000 5000
 * </pre>
 * The serving JVM holds three sockets per stream (client side, upstream client side, upstream server side); this
 * machine allows 20,000 open files per process, hence at most about 6,500 streams through the gateway.
 */
public final class GatewayStreams {

    /** The gateway's one route. */
    static final String ROUTE = "bench";

    private GatewayStreams() {
    }

    /**
     * Serves ({@code --serve}) or measures ({@code --gateway URL --upstream URL COUNT...}).
     *
     * @param args see the class comment
     * @throws InterruptedException if interrupted while waiting
     */
    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("--serve")) {
            serve();
            return;
        }
        if (args.length < 5 || !args[0].equals("--gateway") || !args[2].equals("--upstream")) {
            throw new IllegalArgumentException("usage: --serve | --gateway URL --upstream URL COUNT...");
        }
        String gateway = args[1];
        String upstream = args[3];
        List<Integer> counts = new ArrayList<>();
        for (int i = 4; i < args.length; i++) {
            counts.add(Integer.parseInt(args[i]));
        }
        HttpClient control = HttpClient.create().baseUrl(upstream);
        Control serving = new Control(control);
        Target direct = new Target("upstream directly", upstream, "/chat/completions",
                "{\"model\":\"deepseek-reasoner\",\"stream\":true}".getBytes(StandardCharsets.UTF_8));
        Target viaGateway = new Target("gateway /v1/responses", gateway, "/v1/responses",
                GatewayLoopback.responsesRequest(ROUTE));
        Target viaChat = new Target("gateway /v1/chat/completions", gateway, "/v1/chat/completions",
                GatewayLoopback.chatCompletionsRequest(ROUTE));
        long directEvents = reference(direct, serving, Wire.CHAT_COMPLETIONS);
        long gatewayEvents = reference(viaGateway, serving, Wire.RESPONSES);
        long chatEvents = reference(viaChat, serving, Wire.CHAT_COMPLETIONS);
        System.out.printf(Locale.ROOT, "reference streams checked: upstream %d events, gateway /v1/responses %d"
                + " events, gateway /v1/chat/completions %d events; client max heap %d MiB%n", directEvents,
                gatewayEvents, chatEvents, Runtime.getRuntime().maxMemory() >> 20);
        // Warm every path (classes, pools, the JIT) before the first reading.
        hold(direct, 200, directEvents, serving);
        hold(viaGateway, 200, gatewayEvents, serving);
        hold(viaChat, 200, chatEvents, serving);
        for (int n : counts) {
            Reading d = hold(direct, n, directEvents, serving);
            for (Reading g : List.of(hold(viaGateway, n, gatewayEvents, serving), hold(viaChat, n, chatEvents, serving))) {
                System.out.printf(Locale.ROOT, "%s, %d streams held open mid-stream: serving JVM heap per stream:"
                                + " through the gateway %.0f B, upstream alone %.0f B, the gateway's share %.0f B;"
                                + " client JVM per stream %.0f B (gateway path), %.0f B (direct); completed correctly:"
                                + " gateway %d/%d, direct %d/%d; all open after %d ms (gateway), %d ms (direct)%s%n",
                        g.name, n, g.serverPerStream(), d.serverPerStream(), g.serverPerStream() - d.serverPerStream(),
                        g.clientPerStream(), d.clientPerStream(), g.correct, n, d.correct, n, g.openMillis,
                        d.openMillis, g.firstFailure == null && d.firstFailure == null ? ""
                                : "; first failure: " + (g.firstFailure != null ? g.firstFailure : d.firstFailure));
            }
        }
    }

    /** Runs the upstream and the gateway in front of it until the process is ended by whoever started it. */
    private static void serve() throws InterruptedException {
        GatedUpstream upstream = new GatedUpstream();
        GatewayLoopback gateway = new GatewayLoopback(Map.of(ROUTE, upstream.baseUrl()));
        System.out.println("gateway " + gateway.baseUrl);
        System.out.println("upstream " + upstream.baseUrl());
        System.out.printf(Locale.ROOT, "serving JVM max heap %d MiB%n", Runtime.getRuntime().maxMemory() >> 20);
        System.out.flush();
        new CountDownLatch(1).await();
    }

    /** Where the streams go. */
    private record Target(String name, String baseUrl, String path, byte[] body) {
    }

    /** A client with a pool of its own, large enough for n streams with none waiting; dispose it after the round. */
    private static ConnectionProvider pool(int n) {
        return ConnectionProvider.builder("gateway-streams").maxConnections(n + 16).pendingAcquireMaxCount(-1)
                .pendingAcquireTimeout(Duration.ofMinutes(5)).build();
    }

    private static HttpClient client(ConnectionProvider pool, Target target) {
        return HttpClient.create(pool).baseUrl(target.baseUrl).responseTimeout(Duration.ofMinutes(10));
    }

    /** The serving JVM's control endpoints (on the upstream's server). */
    private record Control(HttpClient upstream) {
        long heap() {
            return Long.parseLong(get("/heap"));
        }

        int held() {
            return Integer.parseInt(get("/held"));
        }

        void release() {
            upstream.post().uri("/release").responseContent().aggregate().asString().block(Duration.ofSeconds(30));
        }

        private String get(String path) {
            return Objects.requireNonNull(upstream.get().uri(path).responseContent().aggregate().asString()
                    .block(Duration.ofMinutes(1)));
        }
    }

    /** One measurement: heap growth on both sides with the streams held, and how the streams ended. */
    private record Reading(String name, int n, long serverBytes, long clientBytes, int correct, long openMillis,
                           @Nullable String firstFailure) {
        double serverPerStream() {
            return (double) serverBytes / n;
        }

        double clientPerStream() {
            return (double) clientBytes / n;
        }
    }

    /**
     * One stream of a target, whole, with the upstream released once it holds it; its body decoded and checked.
     * Returns its event count.
     */
    private static long reference(Target target, Control control, Wire wire) throws InterruptedException {
        AtomicReference<byte[]> body = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        ConnectionProvider pool = pool(1);
        client(pool, target).post().uri(target.path).send(ByteBufFlux.fromInbound(Mono.just(target.body)))
                .responseContent().aggregate().asByteArray()
                .subscribe(body::set, e -> done.countDown(), done::countDown);
        awaitHeld(control, 1);
        control.release();
        boolean completed = done.await(1, TimeUnit.MINUTES);
        pool.disposeLater().block(Duration.ofSeconds(30));
        if (!completed || body.get() == null) {
            throw new IllegalStateException(target.name + ": the reference stream did not complete");
        }
        ReasoningStream expected = ReasoningStream.generate(20, 42);
        Outcome o = Contenders.outcome(wire.decodeReduce(Pieces.cut(body.get(), 1460)));
        // reasoning, answer and calls (the usage counts are not what these streams are about)
        Outcome outcome = new Outcome(o.reasoning(), o.content(), o.toolArguments(), null);
        Outcome want = new Outcome(expected.reasoning, expected.content, expected.toolArguments, null);
        if (!outcome.equals(want)) {
            throw new IllegalStateException(target.name + ": the reference stream carries " + outcome + ", not " + want);
        }
        return wire.frame(Pieces.cut(body.get(), 1460));
    }

    /** Opens n streams, reads both heaps once all are held, releases them and checks how they ended. */
    private static Reading hold(Target target, int n, long expectedEvents, Control control) throws InterruptedException {
        long serverBefore = control.heap();
        long clientBefore = OpenStreams.settledHeap(ManagementFactory.getMemoryMXBean());
        CountDownLatch first = new CountDownLatch(n);
        CountDownLatch done = new CountDownLatch(n);
        AtomicInteger correct = new AtomicInteger();
        AtomicReference<@Nullable String> failure = new AtomicReference<>();
        List<Disposable> open = new ArrayList<>(n);
        ConnectionProvider pool = pool(n);
        HttpClient client = client(pool, target);
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            open.add(open(target, client, expectedEvents, first, done, correct, failure));
        }
        if (!first.await(5, TimeUnit.MINUTES)) {
            throw new IllegalStateException(target.name + ": " + first.getCount() + " of " + n
                    + " streams never delivered an event (the upstream holds " + control.held()
                    + "); first failure: " + failure.get());
        }
        long openMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        // every stream that has not failed already is waiting at the upstream's gate
        awaitHeld(control, (int) done.getCount());
        long serverAfter = control.heap();
        long clientAfter = OpenStreams.settledHeap(ManagementFactory.getMemoryMXBean());
        control.release();
        if (!done.await(5, TimeUnit.MINUTES)) {
            open.forEach(Disposable::dispose);
            throw new IllegalStateException(target.name + ": " + done.getCount() + " of " + n + " streams never ended");
        }
        pool.disposeLater().block(Duration.ofSeconds(30));
        return new Reading(target.name, n, serverAfter - serverBefore, clientAfter - clientBefore, correct.get(), openMillis,
                failure.get());
    }

    private static Disposable open(Target target, HttpClient client, long expectedEvents, CountDownLatch first, CountDownLatch done,
                                   AtomicInteger correct, AtomicReference<@Nullable String> failure) {
        SseEventCounter counter = new SseEventCounter();
        AtomicBoolean seen = new AtomicBoolean();
        return client.post().uri(target.path).send(ByteBufFlux.fromInbound(Mono.just(target.body)))
                .response((response, content) -> {
                    if (response.status().code() != 200) {
                        return Mono.error(new IllegalStateException(target.name + " answered " + response.status()));
                    }
                    return content.doOnNext(b -> {
                        if (counter.accept(b) && seen.compareAndSet(false, true)) {
                            first.countDown();
                        }
                    }).then(Mono.fromCallable(counter::events));
                })
                .subscribe(events -> {
                    if (events == expectedEvents) {
                        correct.incrementAndGet();
                    } else {
                        failure.compareAndSet(null, target.name + ": " + events + " events, not " + expectedEvents);
                    }
                }, e -> {
                    failure.compareAndSet(null, target.name + ": " + e);
                    if (seen.compareAndSet(false, true)) {
                        first.countDown();
                    }
                    done.countDown();
                }, done::countDown);
    }

    /** Waits until the upstream holds at least {@code n} streams (a minute at most, then goes on). */
    private static void awaitHeld(Control control, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (control.held() < n && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }
}
