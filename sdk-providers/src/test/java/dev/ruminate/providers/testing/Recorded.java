package dev.ruminate.providers.testing;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.transport.wire.SseEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * The recordings in {@code src/test/resources/fixtures} (see PROVENANCE.md there), shared by the
 * provider packages' tests: their bytes, their SSE events, and a way to run a decoder over them.
 */
public final class Recorded {

    private Recorded() {
    }

    /** Returns a recording's bytes, by its path under {@code fixtures/} ({@code anthropic/x.sse}). */
    public static byte[] bytes(String path) {
        try (InputStream in = Recorded.class.getResourceAsStream("/fixtures/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Returns a recording as text. */
    public static String text(String path) {
        return utf8(bytes(path));
    }

    /** Returns a recorded SSE body split into its events. */
    public static List<SseEvent> sse(String path) {
        return SseSplitter.split(text(path));
    }

    /** Decodes bytes as UTF-8. */
    public static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Lists the recordings under a folder of {@code fixtures/} (recursively), found on disk so that
     * a new one cannot be left out, as paths relative to {@code fixtures/}, sorted.
     *
     * @param folder the folder, such as {@code anthropic}
     * @param suffixes the file endings to keep, such as {@code .sse}
     */
    public static List<String> under(String folder, String... suffixes) {
        Path root = root();
        try (Stream<Path> files = Files.walk(root.resolve(folder))) {
            return files.filter(Files::isRegularFile)
                    .map(file -> root.relativize(file).toString().replace('\\', '/'))
                    .filter(path -> suffixes.length == 0 || Stream.of(suffixes).anyMatch(path::endsWith))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Returns the folder that holds the recordings. */
    public static Path root() {
        URL url = Objects.requireNonNull(Recorded.class.getResource("/fixtures/PROVENANCE.md"), "fixtures");
        try {
            return Path.of(url.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs a decode to its end; the outcome holds the events and the error, if the flux failed. */
    public static Outcome run(Flux<ChatEvent> flux) {
        List<ChatEvent> events = new ArrayList<>();
        AtomicReference<Throwable> error = new AtomicReference<>();
        flux.doOnNext(events::add)
                .onErrorResume(e -> {
                    error.set(e);
                    return Flux.empty();
                })
                .blockLast(Duration.ofSeconds(30));
        return new Outcome(events, error.get());
    }

    /**
     * What a decode produced.
     *
     * @param events the events, in order
     * @param error the error that ended the flux, or null
     */
    public record Outcome(List<ChatEvent> events, @Nullable Throwable error) {

        /** Folds the events, checking the event invariants; fails if the decode failed. */
        public Folded folded() {
            if (error != null) {
                throw new AssertionError("decoding failed", error);
            }
            return Folded.of(events);
        }
    }
}
