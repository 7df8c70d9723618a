package dev.ruminate.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import reactor.netty.http.client.HttpClient;

/**
 * The serving JVM of the scale runs, started and ended by the measuring one: {@code ScaleStreams --serve} (a
 * {@link ScaleUpstream} and the gateway in front of it) in a process of its own, with this JVM's {@code java} and
 * class path. Each side of 10,000 streams holds 10,000 sockets, and this machine allows 20,000 open files per
 * process; and the heap read on each side is that side's alone.
 *
 * <p>Starting waits for the child's {@code upstream port N} and {@code gateway port N} lines (no sleeping); its
 * output is drained by a daemon thread, the last lines kept for error messages. {@link #close} ends the process.
 * The control calls block; use them from the measuring thread, not an event loop.
 */
final class ScaleServing implements AutoCloseable {

    private static final int KEPT_LINES = 40;

    private final Process process;
    private final Output output;
    private final HttpClient control;
    /** The upstream's root URL, {@code http://127.0.0.1:PORT}. */
    final String upstreamUrl;
    /** The gateway's root URL, {@code http://127.0.0.1:PORT}. */
    final String gatewayUrl;

    private ScaleServing(Process process, Output output) throws InterruptedException {
        this.process = process;
        this.output = output;
        try {
            this.upstreamUrl = "http://127.0.0.1:" + output.upstream.get(3, TimeUnit.MINUTES);
            this.gatewayUrl = "http://127.0.0.1:" + output.gateway.get(3, TimeUnit.MINUTES);
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("the serving JVM did not start; its last lines: " + output.last(), e);
        }
        this.control = HttpClient.create().baseUrl(upstreamUrl).responseTimeout(Duration.ofMinutes(10));
    }

    /**
     * Starts the serving JVM.
     *
     * @param maxHeap its {@code -Xmx}, for instance {@code 1g}
     * @return the running process's handle
     * @throws InterruptedException if interrupted while waiting for it to listen
     */
    static ScaleServing start(String maxHeap) throws InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xmx" + maxHeap, "-cp", System.getProperty("java.class.path"),
                ScaleStreams.class.getName(), "--serve");
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Output output = new Output();
        Thread reader = new Thread(() -> output.drain(process), "scale-serving-output");
        reader.setDaemon(true);
        reader.start();
        return new ScaleServing(process, output);
    }

    /** The serving JVM's used heap after garbage collection, in bytes. */
    long heap() {
        return Long.parseLong(get("/heap"));
    }

    /**
     * Waits until the upstream holds at least {@code n} streams at its gate.
     *
     * @return how many it holds
     */
    int awaitHeld(int n) {
        return Integer.parseInt(get("/held/" + n));
    }

    /**
     * Waits until the upstream holds at least {@code n} streams, then lets every held stream finish.
     *
     * @return how many were released
     */
    int releaseWhen(int n) {
        return Integer.parseInt(Objects.requireNonNull(control.post().uri("/release/" + n)
                .responseContent().aggregate().asString().block(Duration.ofMinutes(10))));
    }

    private String get(String path) {
        return Objects.requireNonNull(control.get().uri(path).responseContent().aggregate().asString()
                .block(Duration.ofMinutes(10)));
    }

    /** The serving JVM's last lines of output. */
    String lastLines() {
        return output.last();
    }

    /** Ends the serving JVM (forcibly if it has not ended a minute after being asked); keeps the interrupt. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(1, TimeUnit.MINUTES)) {
                process.destroyForcibly().waitFor(1, TimeUnit.MINUTES);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** The child's output: its two port lines, and its last lines. Written by the reader thread only. */
    private static final class Output {
        final CompletableFuture<Integer> upstream = new CompletableFuture<>();
        final CompletableFuture<Integer> gateway = new CompletableFuture<>();
        private final ArrayDeque<String> last = new ArrayDeque<>();

        void drain(Process process) {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    port(line, "upstream port ", upstream);
                    port(line, "gateway port ", gateway);
                    synchronized (last) {
                        last.addLast(line);
                        if (last.size() > KEPT_LINES) {
                            last.removeFirst();
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                upstream.completeExceptionally(e);
                gateway.completeExceptionally(e);
            }
            IllegalStateException ended = new IllegalStateException("the serving JVM ended");
            upstream.completeExceptionally(ended);
            gateway.completeExceptionally(ended);
        }

        private static void port(String line, String prefix, CompletableFuture<Integer> port) {
            if (line.startsWith(prefix)) {
                port.complete(Integer.parseInt(line.substring(prefix.length()).trim()));
            }
        }

        String last() {
            synchronized (last) {
                return String.join("\n", last);
            }
        }
    }
}
