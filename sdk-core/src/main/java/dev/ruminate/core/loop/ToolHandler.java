package dev.ruminate.core.loop;

import reactor.core.publisher.Mono;

/**
 * Executes a tool call: a call in, a {@code Mono} of its result text (usually JSON) out.
 *
 * <p><b>Threading.</b> The loop subscribes to the returned {@code Mono} on the thread that
 * delivered the model's response (a network thread): a handler must not block there. Do blocking
 * work inside the {@code Mono} on another scheduler, or register the tool with
 * {@link Tool#blocking}. Calls of one step may run concurrently, so a handler must be thread-safe.
 *
 * <p><b>Errors and nullness.</b> An error signal, an exception thrown by {@link #call}, a
 * {@code Mono} that completes empty and one that does not answer within the tool timeout each
 * become an error result for the model (or fail the loop, per {@link ToolErrorPolicy}). The
 * {@code Mono} is cancelled when the loop is cancelled or the call times out.
 *
 * @since 0.1
 */
@FunctionalInterface
public interface ToolHandler {

    /**
     * Starts executing a call.
     *
     * @param call the call, never null
     * @return a cold {@code Mono} of the result text
     */
    Mono<String> call(ToolCall call);
}
