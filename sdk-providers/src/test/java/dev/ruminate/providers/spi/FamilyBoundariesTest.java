package dev.ruminate.providers.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A provider family is only its codec and its profile: its package holds no HTTP, framing or
 * resilience code and never applies the history policy itself; the skeleton does all of that
 * ({@code docs/adding-a-provider.md}, "What a family may not touch"). Read from the sources, since the
 * rule is about where code lives. The one allowed use of {@code History.prepare} is in a codec's static
 * methods that take a {@code HistoryPolicy}, for callers without the skeleton.
 */
class FamilyBoundariesTest {

    private static final Path FAMILIES = Path.of("src/main/java/dev/ruminate/providers");
    private static final Pattern NETWORK_IMPORT = Pattern.compile(
            "^import (io\\.netty|reactor\\.netty|dev\\.ruminate\\.transport\\.resilience"
                    + "|dev\\.ruminate\\.transport\\.http\\.HttpExchange"
                    + "|dev\\.ruminate\\.transport\\.wire\\.(ServerSentEvents|JsonLines|EventStreams|Framing))\\b");
    private static final Pattern CALL_SITE_CODE = Pattern.compile(
            "\\b(HttpExchange|ServerSentEvents|JsonLines|EventStreams|Resilience|ProtocolException)\\.\\w+\\(|new ProtocolException\\(");

    @ParameterizedTest
    @ValueSource(strings = {"anthropic", "bedrock", "chatcompletions", "gemini", "ollama", "responses"})
    void aFamilyPackageHoldsOnlyItsCodecAndProfile(String family) {
        List<String> breaches = new ArrayList<>();
        for (Path file : sources(family)) {
            List<String> lines = read(file);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (line.startsWith("*") || line.startsWith("/*") || line.startsWith("//")) {
                    continue;
                }
                String where = file.getFileName() + ":" + (i + 1) + ": " + line;
                if (NETWORK_IMPORT.matcher(line).find() || CALL_SITE_CODE.matcher(line).find()) {
                    breaches.add(where);
                }
                if (line.contains("History.prepare(") && !file.getFileName().toString().endsWith("Codec.java")) {
                    breaches.add(where);
                }
            }
        }
        assertThat(breaches).as("HTTP, framing, resilience, error positions or the history policy in " + family).isEmpty();
    }

    private static List<Path> sources(String family) {
        Path dir = FAMILIES.resolve(family);
        assertThat(dir).as("run from the sdk-providers module").isDirectory();
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
