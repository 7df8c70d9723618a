package dev.ruminate.examples.webflux;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.message.FinishReason;
import java.util.Map;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns provider events into the page's server-sent events: {@code reasoning} and {@code answer}
 * with {@code {"text": …}}, {@code completed} with {@code {"finishReason": …}}, and {@code failed}
 * with {@code {"error": …}} in place of an error (a browser cannot read an HTTP error once the
 * stream has started). The text travels as JSON because an SSE {@code data:} line loses a leading
 * space, and model text often starts with one.
 */
final class BrowserEvents {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private BrowserEvents() {
    }

    static Flux<ServerSentEvent<String>> of(Flux<ChatEvent> events) {
        return events.concatMap(BrowserEvents::map)
                .onErrorResume(e -> Mono.just(event("failed", Map.of("error", e.getClass().getSimpleName()
                        + (e.getMessage() != null ? ": " + e.getMessage() : "")))));
    }

    private static Mono<ServerSentEvent<String>> map(ChatEvent event) {
        if (event instanceof ReasoningDelta r && !r.text().isEmpty()) {
            return Mono.just(event("reasoning", Map.of("text", r.text())));
        }
        if (event instanceof ContentDelta c && !c.text().isEmpty()) {
            return Mono.just(event("answer", Map.of("text", c.text())));
        }
        if (event instanceof ResponseCompleted done) {
            FinishReason reason = done.finishReason();
            return Mono.just(event("completed", Map.of("finishReason", reason.name().toLowerCase(java.util.Locale.ROOT))));
        }
        return Mono.empty();
    }

    private static ServerSentEvent<String> event(String name, Map<String, String> data) {
        return ServerSentEvent.builder(JSON.writeValueAsString(data)).event(name).build();
    }
}
