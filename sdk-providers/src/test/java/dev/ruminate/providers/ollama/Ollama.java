package dev.ruminate.providers.ollama;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.providers.testing.Provenances;
import dev.ruminate.transport.wire.JsonLines;
import dev.ruminate.providers.testing.ByteChunks;
import dev.ruminate.providers.testing.Recorded;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Runs Ollama bodies through the codec without HTTP, and reduces events, for the tests of this package. */
final class Ollama {

    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static final String GPT_OSS = "ollama/attogram-generate-gpt-oss-120b-thinking-stream.ndjson";
    static final String QWEN3_TAGS = "think-tags/attogram-ollama-generate-qwen3-1.7b-think-tags-stream.ndjson";

    private Ollama() {
    }

    /** Every Ollama native recording: the {@code ollama/} folder and the NDJSON ones in {@code think-tags/}. */
    static List<String> recordings() {
        return java.util.stream.Stream.concat(Recorded.under("ollama", ".ndjson").stream(),
                Recorded.under("think-tags", ".ndjson").stream()).toList();
    }

    /** The think tags a recording's model writes: qwen3 asked without {@code think} writes them. */
    static @Nullable ThinkTagOptions tagsOf(String path) {
        return path.startsWith("think-tags/") ? ThinkTagOptions.DEFAULT : null;
    }

    static Flux<ChatEvent> decode(Flux<ByteBuf> body, @Nullable ThinkTagOptions tags) {
        return JsonLines.decode(body).transform(OllamaCodec.streamDecoder(OllamaProvider.NAME, tags));
    }

    static Flux<ChatEvent> decode(byte[] body, @Nullable ThinkTagOptions tags) {
        return decode(ByteChunks.whole(body), tags);
    }

    static Flux<ChatEvent> recording(String path) {
        return decode(Recorded.bytes(path), tagsOf(path));
    }

    static Reduced reduce(Flux<ChatEvent> events) {
        Reduced reduced = ChatReducer.defaults().reduce(events)
                .map(result -> new Reduced(result, null))
                .onErrorResume(RuminateException.class, e -> Mono.just(new Reduced(null, e)))
                .block(TIMEOUT);
        return Objects.requireNonNull(reduced, "the reduction completed empty");
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

        /** Compares outcomes: equal results, or errors of one class with one message and equal partials. */
        /** Provenance, present only over HTTP, is checked and then left out (see {@link Provenances}). */
        List<Object> comparable() {
            if (error == null) {
                return List.of(Provenances.checked(Objects.requireNonNull(result)));
            }
            return Arrays.asList(error.getClass(), error.getMessage(), Provenances.checkedPartial(error.partial()));
        }
    }
}
