package dev.ruminate.providers.chatcompletions;

import dev.ruminate.providers.testing.Provenances;
import dev.ruminate.providers.testing.SseSplitter;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.think.ThinkTags;
import dev.ruminate.testkit.ProviderEmulator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Runs {@link ChatCompletionsProvider} against a {@link ProviderEmulator} over real HTTP, and the
 * same bytes through the codec without HTTP, and reduces either with {@link ChatReducer}.
 */
final class Emulated {

    /** Long enough for a loaded CI machine; a test that needs it has failed anyway. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static final String KEY = "sk-emulated-7f3c9a1e5b2d4086";
    static final ChatRequest REQUEST = ChatRequest.builder("test-model").user("How many r's in strawberry?").build();

    private Emulated() {
    }

    /** A provider for the profile, pointed at the emulator under {@code /v1}, with {@link #KEY}. */
    static ChatCompletionsProvider.Builder provider(ProviderEmulator emulator, CompatProfile profile) {
        return ChatCompletionsProvider.builder(profile)
                .baseUrl(emulator.baseUrl() + "/v1")
                .apiKey(ApiKey.of(KEY));
    }

    /** Reduces the events; a failure becomes the outcome's error. */
    static Reduced reduce(Flux<ChatEvent> events) {
        Reduced reduced = ChatReducer.defaults().reduce(events)
                .map(result -> new Reduced(result, null))
                .onErrorResume(RuminateException.class, e -> Mono.just(new Reduced(null, e)))
                .block(TIMEOUT);
        return Objects.requireNonNull(reduced, "the reduction completed empty");
    }

    /** What the codec gives for a recorded stream, split as the provider splits think tags. */
    static Reduced codecStream(CompatProfile profile, byte[] body) {
        return reduce(withThinkTags(profile, Flux.fromIterable(SseSplitter.split(utf8(body)))
                .transform(ChatCompletionsCodec.streamDecoder(profile))));
    }

    /** What the codec gives for a recorded whole body, split as the provider splits think tags. */
    static Reduced codecCompletion(CompatProfile profile, byte[] body) {
        return reduce(withThinkTags(profile, ChatCompletionsCodec.decodeCompletion(profile, body)));
    }

    private static Flux<ChatEvent> withThinkTags(CompatProfile profile, Flux<ChatEvent> events) {
        return profile.thinkTags() == null ? events : events.transform(ThinkTags.splitter(profile.thinkTags()));
    }

    /** Returns the number of body bytes that hold exactly the first {@code events} events of an SSE text. */
    static int bytesOfEvents(String sse, int events) {
        int end = 0;
        for (int i = 0; i < events; i++) {
            end = sse.indexOf("\n\n", end) + 2;
        }
        return sse.substring(0, end).getBytes(StandardCharsets.UTF_8).length;
    }

    static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
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
