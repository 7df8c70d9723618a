package dev.ruminate.benchmarks;

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
 * <p>Usage: {@code java -Xmx512m -cp benchmarks.jar dev.ruminate.benchmarks.OpenStreams 1000 10000}. Prints one
 * line per N.
 */
public final class OpenStreams {

    private OpenStreams() {
    }

    /**
     * Runs the measurement for each stream count given (default 1,000 and 10,000).
     *
     * @param args stream counts
     * @throws InterruptedException if interrupted while waiting for the streams
     */
    public static void main(String[] args) throws InterruptedException {
        int[] counts = args.length == 0 ? new int[] {1_000, 10_000} : new int[args.length];
        for (int i = 0; i < args.length; i++) {
            counts[i] = Integer.parseInt(args[i]);
        }
        int max = 0;
        for (int n : counts) {
            max = Math.max(max, n);
        }
        ConnectionProvider pool = ConnectionProvider.builder("open-streams").maxConnections(max + 16)
                .pendingAcquireMaxCount(-1).build();
        HttpClient client = HttpClient.create(pool);
        try (Loopback loopback = new Loopback(20, true, client)) {
            HttpClient bare = client.baseUrl(loopback.emulator.baseUrl().toString());
            byte[] body = "{\"model\":\"m\",\"stream\":true}".getBytes(StandardCharsets.UTF_8);
            // Warm both paths (classes, pools, JIT) before the first reading.
            measure(200, () -> ruminate(loopback));
            measure(200, () -> bare(bare, body));
            for (int n : counts) {
                long bareBytes = measure(n, () -> bare(bare, body));
                long ruminateBytes = measure(n, () -> ruminate(loopback));
                System.out.printf(Locale.ROOT, "open idle streams: %d, heap per stream: provider %.0f B, bare Reactor"
                                + " Netty client %.0f B, Ruminate's own share %.0f B, max heap %d MiB%n", n,
                        (double) ruminateBytes / n, (double) bareBytes / n, (double) (ruminateBytes - bareBytes) / n,
                        Runtime.getRuntime().maxMemory() >> 20);
            }
        } finally {
            pool.disposeLater().block(Duration.ofSeconds(30));
        }
    }

    /** Opens a stream whose subscriber counts down {@code first} on its first element; returns it to dispose. */
    private interface Opener {
        Disposable open(CountDownLatch first);
    }

    private static Opener ruminate(Loopback loopback) {
        return first -> {
            boolean[] seen = {false};
            return loopback.provider.stream(Loopback.REQUEST).subscribe(e -> once(seen, first), e -> once(seen, first));
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

    private static long settledHeap(MemoryMXBean memory) throws InterruptedException {
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
