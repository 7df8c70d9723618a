package dev.ruminate.providers.anthropic;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.testing.Provenances;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.testkit.ProviderEmulator;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Runs {@link AnthropicProvider} against a {@link ProviderEmulator} over real HTTP, and reduces. */
final class AnthropicEmulated {

    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static final String KEY = "sk-ant-emulated-4b1d9e77c2a05f38";
    static final ChatRequest REQUEST = ChatRequest.builder("claude-sonnet-4-5").user("How many r's in strawberry?").build();

    private AnthropicEmulated() {
    }

    static AnthropicProvider.Builder provider(ProviderEmulator emulator) {
        return AnthropicProvider.builder().baseUrl(emulator.baseUrl().toString()).apiKey(ApiKey.of(KEY));
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

        /** Provenance, present only over HTTP, is checked and then left out (see {@link Provenances}). */
        List<Object> comparable() {
            if (error == null) {
                return List.of(Provenances.checked(Objects.requireNonNull(result)));
            }
            return Arrays.asList(error.getClass(), error.getMessage(), Provenances.checkedPartial(error.partial()));
        }
    }
}
