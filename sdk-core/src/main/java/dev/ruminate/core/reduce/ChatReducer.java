package dev.ruminate.core.reduce;

import dev.ruminate.core.event.ChatEvent;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/** Placeholder while the reducer is written. */
public final class ChatReducer {
    private static final ChatReducer DEFAULTS = new ChatReducer();

    private ChatReducer() {
    }

    /**
     * Returns the reducer with default policies.
     *
     * @return the reducer
     */
    public static ChatReducer defaults() {
        return DEFAULTS;
    }

    /**
     * Reduces.
     *
     * @param events the events
     * @return the result
     */
    public Mono<ChatResult> reduce(Publisher<? extends ChatEvent> events) {
        throw new UnsupportedOperationException("in progress");
    }
}
