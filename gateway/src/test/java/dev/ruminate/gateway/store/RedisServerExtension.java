package dev.ruminate.gateway.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a real {@code redis-server} (the Debian package; {@code .ci/run} installs it) for a test
 * class, on loopback, with no persistence, in a temporary directory, and stops it after the class.
 *
 * <p>Redis cannot bind port 0, so a free port is found by binding one and closing it; another
 * process may take it in between, in which case the server exits at once and another port is
 * tried. Readiness is a {@code PING} answered with {@code PONG}, polled within a bounded time.
 * Without {@code redis-server} on the PATH the class fails, saying so: the Redis store is not
 * tested by skipping.
 *
 * <p>Register as a static field with {@code @RegisterExtension}.
 */
final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback {

    private static final Duration READY_WITHIN = Duration.ofSeconds(20);
    private static final int ATTEMPTS = 5;

    private Process process;
    private Path directory;
    private int port;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        directory = Files.createTempDirectory("redis-test");
        IOException last = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            port = freePort();
            process = start(port);
            try {
                awaitReady();
                return;
            } catch (IOException e) {
                last = e;
                stop();
            }
        }
        throw new IllegalStateException("redis-server did not start in " + ATTEMPTS + " attempts; log: "
                + log(), last);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        stop();
        if (directory != null) {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** The server's URI, database 0. */
    String uri() {
        return "redis://127.0.0.1:" + port + "/0";
    }

    /** Sends one command in the inline protocol and returns the first line of the reply, for test set-up. */
    String command(String inline) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2_000);
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write((inline + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return readLine(socket.getInputStream());
        }
    }

    private Process start(int port) throws IOException {
        List<String> command = List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", directory.toString(),
                "--logfile", directory.resolve("redis.log").toString(), "--daemonize", "no");
        try {
            return new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(directory.resolve("redis.out").toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("redis-server is not installed (apt-get install redis-server;"
                    + " .ci/run installs it): the Redis item store's tests need it", e);
        }
    }

    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + READY_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("redis-server exited with " + process.exitValue() + " (port " + port
                        + " taken?)");
            }
            try {
                if ("+PONG".equals(command("PING"))) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet: poll again
            }
            // a bounded poll of an external process, not a synchronisation of the test's own threads
            process.waitFor(20, TimeUnit.MILLISECONDS);
        }
        throw new IOException("redis-server did not answer PING within " + READY_WITHIN);
    }

    private void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private String log() {
        try {
            Path log = directory.resolve("redis.log");
            return Files.exists(log) ? Files.readString(log) : "(none)";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }
}
