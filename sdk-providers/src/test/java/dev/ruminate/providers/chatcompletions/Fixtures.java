package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.wire.SseEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/** Loads recordings from {@code src/test/resources/fixtures} and runs them through the codec. */
final class Fixtures {

    private Fixtures() {
    }

    static byte[] bytes(String path) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<SseEvent> sse(String path) {
        return SseSplitter.split(new String(bytes(path), StandardCharsets.UTF_8));
    }

    /** Decodes a recorded stream; the result holds the events and the error, if the flux failed. */
    static Outcome stream(CompatProfile profile, String path) {
        return run(Flux.fromIterable(sse(path)).transform(ChatCompletionsCodec.streamDecoder(profile)));
    }

    static Outcome stream(CompatProfile profile, List<SseEvent> events) {
        return run(Flux.fromIterable(events).transform(ChatCompletionsCodec.streamDecoder(profile)));
    }

    static Outcome completion(CompatProfile profile, String path) {
        return run(ChatCompletionsCodec.decodeCompletion(profile, bytes(path)));
    }

    static Outcome run(Flux<ChatEvent> flux) {
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

    /** What a decode produced. */
    record Outcome(List<ChatEvent> events, @Nullable Throwable error) {

        /** Folds the events, checking the event invariants; fails if the decode failed. */
        Folded folded() {
            if (error != null) {
                throw new AssertionError("decoding failed", error);
            }
            return Folded.of(events);
        }
    }
}
