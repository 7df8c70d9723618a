package dev.ruminate.providers.gemini;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SseSplitter;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.http.ApiKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Runs {@link GeminiProvider} (AI Studio or Vertex AI) against a {@link ProviderEmulator} over real
 * HTTP and reduces; and works out, without HTTP, what a body or the delivered part of one holds.
 */
final class GeminiEmulated {

    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static final ChatRequest REQUEST = ChatRequest.builder("gemini-3-pro-preview").user("Hi").build();

    private GeminiEmulated() {
    }

    /** Whether a recording is Vertex AI's (it then goes through a Vertex client, named {@code vertex}). */
    static boolean isVertex(String path) {
        return path.contains("vertex");
    }

    /** A client of the emulator: Vertex AI (bearer token, {@code vertex}) or AI Studio (API key, {@code gemini}). */
    static GeminiProvider provider(ProviderEmulator emulator, boolean vertex) {
        return vertex
                ? GeminiProvider.vertex("p", "global").baseUrl(emulator.baseUrl().toString())
                        .accessToken(ApiKey.of("ya29.emulated")).build()
                : GeminiProvider.builder().baseUrl(emulator.baseUrl() + "/v1beta")
                        .apiKey(ApiKey.of("AIzaSy-emulated-chunking")).build();
    }

    static String name(boolean vertex) {
        return vertex ? "vertex" : "gemini";
    }

    static Reduced reduce(Flux<ChatEvent> events) {
        Reduced reduced = ChatReducer.defaults().reduce(events)
                .map(result -> new Reduced(result, null))
                .onErrorResume(RuminateException.class, e -> Mono.just(new Reduced(null, e)))
                .block(TIMEOUT);
        return Objects.requireNonNull(reduced, "the reduction completed empty");
    }

    /**
     * What a stream body holds, decoded without HTTP from the test's own SSE splitting: the events of
     * the whole body, ended as a body ends (an unfinished last line counts as a line).
     */
    static Reduced referenceOfBody(boolean vertex, byte[] body) {
        return reduce(Flux.fromIterable(SseSplitter.split(Recorded.utf8(body)))
                .transform(GeminiCodec.streamDecoder(name(vertex))));
    }

    /**
     * What the delivered bytes of a stream cut by a connection reset hold: the events of their
     * complete lines, then the failure (the stream never reaches its end, so it never completes).
     */
    static Reduced referenceOfReset(boolean vertex, byte[] delivered) {
        String complete = new String(delivered, 0, completeLines(delivered), StandardCharsets.UTF_8);
        // the decoder sees the failure, not the end of the body
        return reduce(Flux.fromIterable(SseSplitter.split(complete))
                .concatWith(Flux.error(new IOException("connection reset")))
                .transform(GeminiCodec.streamDecoder(name(vertex))));
    }

    /** The length of the bytes up to the end of the last complete line ({@code \n}, or {@code \r}, ends one). */
    static int completeLines(byte[] bytes) {
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] == '\n' || bytes[i] == '\r') {
                return i + 1;
            }
        }
        return 0;
    }

    /** A reduction's outcome: the result, or the typed error (with its partial message). */
    record Reduced(@Nullable ChatResult result, @Nullable RuminateException error) {

        ChatResult ok() {
            if (error != null) {
                throw new AssertionError("the reduction failed: " + error, error);
            }
            return Objects.requireNonNull(result);
        }

        RuminateException failed() {
            if (error == null) {
                throw new AssertionError("the reduction succeeded: " + result);
            }
            return error;
        }

        @Nullable AssistantMessage partial() {
            return failed().partial();
        }

        @Override
        public String toString() {
            return error == null ? String.valueOf(result) : error + " partial " + error.partial();
        }
    }
}
