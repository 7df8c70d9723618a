package dev.ruminate.examples.webflux;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A headless Chromium process with the DevTools protocol on a free loopback port, in a throwaway
 * profile. Startup is awaited on a signal, not a sleep: Chromium prints
 * {@code DevTools listening on ws://…} once the endpoint is up (after writing
 * {@code DevToolsActivePort} in the profile, which gives the port and path).
 */
final class Chromium implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");

    private final Process process;
    private final Path profile;
    private final String browserUrl;

    private Chromium(Process process, Path profile, String browserUrl) {
        this.process = process;
        this.profile = profile;
        this.browserUrl = browserUrl;
    }

    /**
     * Finds the binary: {@code -Druminate.chromium=…} or {@code $CHROMIUM}, else Debian's and the usual
     * install paths.
     */
    static Optional<Path> binary() {
        String configured = System.getProperty("ruminate.chromium", System.getenv("CHROMIUM"));
        Stream<String> candidates = configured != null && !configured.isBlank() ? Stream.of(configured)
                : Stream.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
                        "/usr/bin/google-chrome-stable");
        return candidates.map(Path::of).filter(Files::isExecutable).findFirst();
    }

    static Chromium launch(Path binary) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("ruminate-chromium");
        List<String> command = List.of(binary.toString(),
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--remote-allow-origins=*",
                "--user-data-dir=" + profile,
                // Loopback only: nothing in the background may reach out to the network.
                "--no-proxy-server", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--disable-default-apps", "--no-first-run",
                "--no-default-browser-check", "--disable-domain-reliability", "--metrics-recording-only",
                "about:blank");
        Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        CompletableFuture<String> listening = new CompletableFuture<>();
        Thread reader = new Thread(() -> drain(process, listening), "chromium-stderr");
        reader.setDaemon(true);
        reader.start();
        try {
            String announced = listening.get(60, TimeUnit.SECONDS);
            return new Chromium(process, profile, endpoint(profile, announced));
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IOException("Chromium did not open its DevTools endpoint", e);
        }
    }

    /** Reads stderr to the end (so Chromium never blocks on a full pipe), completing on the announcement. */
    private static void drain(Process process, CompletableFuture<String> listening) {
        StringBuilder seen = new StringBuilder();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    listening.complete(m.group(1));
                } else if (!listening.isDone() && seen.length() < 4000) {
                    seen.append(line).append('\n');
                }
            }
        } catch (IOException e) {
            listening.completeExceptionally(e);
        }
        listening.completeExceptionally(new IOException("Chromium exited before listening:\n" + seen));
    }

    /** The browser endpoint from {@code DevToolsActivePort} (port, then path), else the announced URL. */
    private static String endpoint(Path profile, String announced) throws IOException {
        Path file = profile.resolve("DevToolsActivePort");
        if (Files.exists(file)) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            if (lines.size() >= 2) {
                return "ws://127.0.0.1:" + lines.get(0).strip() + lines.get(1).strip();
            }
        }
        return announced;
    }

    String browserUrl() {
        return browserUrl;
    }

    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
