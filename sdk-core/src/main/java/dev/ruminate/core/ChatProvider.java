package dev.ruminate.core;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A chat API of one provider, seen as a stream of {@link ChatEvent}s.
 *
 * <p>Streaming and non-streaming calls produce the same event vocabulary, so a single
 * {@link ChatReducer} turns either into the final message.
 *
 * <p><b>Threading.</b> Implementations are immutable and thread-safe; one instance serves any number
 * of concurrent requests. Every returned publisher is cold: nothing is sent until subscription, and
 * each subscription makes its own HTTP exchange.
 *
 * <p><b>Backpressure.</b> Events are produced as the response bytes arrive and are requested from the
 * network only as the subscriber requests events.
 *
 * <p><b>Cancellation.</b> Cancelling a subscription closes the HTTP exchange.
 *
 * <p><b>Errors.</b> Failures are signalled with subclasses of
 * {@link dev.ruminate.core.error.RuminateException}; never as events.
 *
 * @since 0.1
 */
public interface ChatProvider {

    /**
     * Names this provider (or profile), as it appears in {@link dev.ruminate.core.event.ResponseStarted}.
     *
     * @return a short stable name such as {@code deepseek}
     */
    String name();

    /**
     * Streams one chat turn.
     *
     * @param request what to ask
     * @return a cold flux of events, starting with {@link dev.ruminate.core.event.ResponseStarted}
     *     and ending with {@link dev.ruminate.core.event.ResponseCompleted} on success
     */
    Flux<ChatEvent> stream(ChatRequest request);

    /**
     * Makes one non-streaming call and decodes the whole response into the same events a stream
     * would produce: one delta per part, then the completion.
     *
     * @param request what to ask
     * @return a cold flux of events
     */
    Flux<ChatEvent> completeAsEvents(ChatRequest request);

    /**
     * Makes one non-streaming call and reduces it with the default reducer.
     *
     * @param request what to ask
     * @return the final result
     */
    default Mono<ChatResult> complete(ChatRequest request) {
        return ChatReducer.defaults().reduce(completeAsEvents(request));
    }
}
