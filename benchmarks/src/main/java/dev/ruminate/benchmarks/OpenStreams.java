package dev.ruminate.benchmarks;

import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * Heap per open idle stream, a separate main class (JMH measures time, not a heap that must stay alive while it is
 * read): opens N streams through the provider against an emulator that sends the first event and then holds each
 * connection open and silent, waits until every stream has delivered its first event, collects garbage and reads
 * the used heap. The same is done with a bare Reactor Netty client (the emulator's and the transport's share, both
 * in this JVM); the difference divided by N is what an idle Ruminate stream holds.
 *
 * <p>The emulator runs in a second JVM: 10,000 streams are 10,000 sockets on each side, and this machine allows
 * 20,000 open files per process. Usage (what {@code run-quick} does):
 * <pre>
 * java -cp benchmarks.jar dev.ruminate.benchmarks.OpenStreams --serve          # prints "port N", runs until killed
 * java -Xmx512m -cp benchmarks.jar dev.ruminate.benchmarks.OpenStreams --url http://127.0.0.1:N 1000 10000
 * </pre>
 * Prints one line per stream count.
 */
public final class OpenStreams {

    private OpenStreams() {
    }

    /**
     * Serves ({@code --serve}) or measures ({@code --url URL COUNT...}) one reading per stream count.
     *
     * @param args {@code --serve}, or {@code --url}, the emulator's URL and the stream counts
     * @throws InterruptedException if interrupted while waiting for the streams
     */
    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("--serve")) {
            serve();
            return;
        }
        if (args.length < 2 || !args[0].equals("--url")) {
            throw new IllegalArgumentException("usage: --serve | --url URL COUNT...");
        }
        String url = args[1];
        int[] counts = new int[args.length - 2];
        int max = 0;
        for (int i = 2; i < args.length; i++) {
            counts[i - 2] = Integer.parseInt(args[i]);
            max = Math.max(max, counts[i - 2]);
        }
        ConnectionProvider pool = ConnectionProvider.builder("open-streams").maxConnections(max + 16)
                .pendingAcquireMaxCount(-1).build();
        HttpClient client = HttpClient.create(pool);
        try {
            ChatCompletionsProvider provider = Loopback.provider(url, client);
            HttpClient bare = client.baseUrl(url);
            byte[] body = "{\"model\":\"m\",\"stream\":true}".getBytes(StandardCharsets.UTF_8);
            // Warm both paths (classes, pools, JIT) before the first reading.
            measure(200, () -> ruminate(provider));
            measure(200, () -> bare(bare, body));
            for (int n : counts) {
                long bareBytes = measure(n, () -> bare(bare, body));
                long ruminateBytes = measure(n, () -> ruminate(provider));
                System.out.printf(Locale.ROOT, "open idle streams: %d, client heap per stream: provider %.0f B, bare"
                                + " Reactor Netty client %.0f B, Ruminate's own share %.0f B, max heap %d MiB%n", n,
                        (double) ruminateBytes / n, (double) bareBytes / n, (double) (ruminateBytes - bareBytes) / n,
                        Runtime.getRuntime().maxMemory() >> 20);
            }
        } finally {
            pool.disposeLater().block(Duration.ofSeconds(30));
        }
    }

    /** Runs the emulator: the first event of the stream, then each connection held open and silent. */
    private static void serve() throws InterruptedException {
        Loopback loopback = new Loopback(20, true, HttpClient.create());
        System.out.println("port " + loopback.emulator.baseUrl().getPort());
        System.out.flush();
        // Serves until the process is ended by whoever started it.
        new CountDownLatch(1).await();
    }

    /** Opens a stream whose subscriber counts down {@code first} on its first element; returns it to dispose. */
    private interface Opener {
        Disposable open(CountDownLatch first);
    }

    private static Opener ruminate(ChatCompletionsProvider provider) {
        return first -> {
            boolean[] seen = {false};
            return provider.stream(Loopback.REQUEST).subscribe(e -> once(seen, first), e -> once(seen, first));
        };
    }

    private static Opener bare(HttpClient bare, byte[] body) {
        return first -> {
            boolean[] seen = {false};
            return bare.post().uri("/chat/completions").send(ByteBufFlux.fromInbound(Mono.just(body)))
                    .responseContent().retain()
                    .subscribe(b -> {
                        b.release();
                        once(seen, first);
                    }, e -> once(seen, first));
        };
    }

    /** Counts a stream once, however many elements it delivers (each stream is used from one event loop). */
    private static void once(boolean[] seen, CountDownLatch first) {
        if (!seen[0]) {
            seen[0] = true;
            first.countDown();
        }
    }

    private static long measure(int n, OpenerSupplier supplier) throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long before = settledHeap(memory);
        CountDownLatch first = new CountDownLatch(n);
        Opener opener = supplier.get();
        List<Disposable> open = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            open.add(opener.open(first));
        }
        if (!first.await(5, TimeUnit.MINUTES)) {
            throw new IllegalStateException(first.getCount() + " of " + n + " streams never delivered");
        }
        long after = settledHeap(memory);
        for (Disposable d : open) {
            d.dispose();
        }
        open.clear();
        return after - before;
    }

    private interface OpenerSupplier {
        Opener get();
    }

    /** The used heap after collecting garbage, the least of four readings. */
    static long settledHeap(MemoryMXBean memory) throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            // GC is asynchronous in effect for reference processing (cleaners, Netty's pools): let it finish.
            TimeUnit.MILLISECONDS.sleep(100);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
