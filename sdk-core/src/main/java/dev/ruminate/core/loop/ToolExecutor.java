package dev.ruminate.core.loop;

import dev.ruminate.core.internal.JsonValidity;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Runs the tool calls of one assistant message: each call becomes a {@link LoopEvent.ToolStarted}
 * and a {@link LoopEvent.ToolFinished}, up to the parallel bound at once, and its tool result is
 * stored at the call's index, so results go back in call order whatever order the calls finish in.
 * Immutable and thread-safe.
 */
final class ToolExecutor {

    private final Map<String, Tool> tools;
    private final LoopOptions options;

    ToolExecutor(Map<String, Tool> tools, LoopOptions options) {
        this.tools = tools;
        this.options = options;
    }

    /** The call id a result quotes: the provider's id, or the name when it gives none (as the encoders expect). */
    static String idOf(ToolCallPart part) {
        String id = part.id();
        return id != null ? id : part.name();
    }

    /**
     * Runs the calls at {@code indexes} of a message's calls concurrently up to the bound;
     * {@code results[i]} receives the result of {@code calls[i]}. Under
     * {@link ToolErrorPolicy#FAIL_LOOP} a failed call ends the flux with a {@link ToolLoopException}
     * after its {@link LoopEvent.ToolFinished}, cancelling the calls still running.
     */
    Flux<LoopEvent> run(int step, List<ToolCallPart> calls, List<Integer> indexes,
                        AtomicReferenceArray<ToolResultMessage> results) {
        return Flux.fromIterable(indexes)
                .flatMap(i -> execute(step, i, calls.get(i), results), options.maxParallelToolCalls());
    }

    private Flux<LoopEvent> execute(int step, int index, ToolCallPart part,
                                    AtomicReferenceArray<ToolResultMessage> results) {
        // a call without arguments is a call with no properties
        String arguments = part.arguments().isBlank() ? "{}" : part.arguments();
        ToolCall call = new ToolCall(idOf(part), part.name(), arguments, step, index);
        Flux<LoopEvent> finished = Flux.defer(() -> {
            long start = System.nanoTime();
            return outcome(call, part).flatMapMany(o -> {
                ToolResultMessage result = new ToolResultMessage(call.id(), call.name(), o.text(), o.error() != null);
                results.set(index, result);
                LoopEvent event = new LoopEvent.ToolFinished(step, call, Duration.ofNanos(System.nanoTime() - start),
                        result, o.error(), o.truncated());
                ToolError error = o.error();
                if (error != null && options.errorPolicy() == ToolErrorPolicy.FAIL_LOOP) {
                    return Flux.just(event).concatWith(Mono.error(new ToolLoopException(ToolLoopException.Reason.TOOL_FAILED,
                            error, "tool call " + call.name() + " (" + call.id() + ") failed: " + error.reason())));
                }
                return Flux.just(event);
            });
        });
        return Flux.concat(Mono.just(new LoopEvent.ToolStarted(step, call)), finished);
    }

    /** What a call produced: the text for the model, and the error if it failed. */
    private record Outcome(String text, @Nullable ToolError error, boolean truncated) {
        static Outcome failed(ToolError.Kind kind, String reason) {
            return new Outcome(reason, new ToolError(kind, reason), false);
        }
    }

    private Mono<Outcome> outcome(ToolCall call, ToolCallPart part) {
        Tool tool = tools.get(call.name());
        if (tool == null) {
            return Mono.just(Outcome.failed(ToolError.Kind.UNKNOWN_TOOL, "there is no tool named \"" + call.name()
                    + "\"; the available tools are: " + (tools.isEmpty() ? "none" : String.join(", ", tools.keySet()))));
        }
        String problem = JsonValidity.problem(call.arguments());
        if (problem == null && !part.argumentsValid()) {
            problem = "the arguments are not one complete JSON value";
        }
        if (problem != null) {
            return Mono.just(Outcome.failed(ToolError.Kind.INVALID_ARGUMENTS,
                    "the arguments of " + call.name() + " are not valid JSON (" + problem + "); call it again with a JSON object"));
        }
        Duration timeout = options.toolTimeout();
        return Mono.defer(() -> tool.handler().call(call))
                .timeout(timeout)
                .map(this::success)
                .switchIfEmpty(Mono.fromSupplier(() -> Outcome.failed(ToolError.Kind.HANDLER_FAILED,
                        "the tool " + call.name() + " completed without a result")))
                .onErrorResume(e -> Mono.just(e instanceof TimeoutException
                        ? Outcome.failed(ToolError.Kind.TIMED_OUT, "the tool " + call.name() + " did not answer within " + timeout)
                        : Outcome.failed(ToolError.Kind.HANDLER_FAILED, "the tool " + call.name() + " failed: " + describe(e))));
    }

    private Outcome success(String text) {
        int limit = options.maxResultChars();
        if (text.length() <= limit) {
            return new Outcome(text, null, false);
        }
        int cut = Character.isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
        return new Outcome(text.substring(0, cut) + "\n[truncated: the tool returned " + text.length()
                + " characters; only the first " + cut + " are shown]", null, true);
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
