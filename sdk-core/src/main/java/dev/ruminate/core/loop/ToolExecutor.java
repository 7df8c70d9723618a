package dev.ruminate.core.loop;

import dev.ruminate.core.internal.JsonValidity;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
    private final @Nullable ApprovalHandler approvals;
    private final @Nullable ArgumentSchemas schemas;

    ToolExecutor(Map<String, Tool> tools, LoopOptions options, @Nullable ApprovalHandler approvals,
                 @Nullable ArgumentSchemas schemas) {
        this.tools = tools;
        this.options = options;
        this.approvals = approvals;
        this.schemas = schemas;
    }

    /** The call id a result quotes: the provider's id, or the name when it gives none (as the encoders expect). */
    static String idOf(ToolCallPart part) {
        String id = part.id();
        return id != null ? id : part.name();
    }

    /**
     * Runs the calls at {@code indexes} of a message's calls concurrently up to the bound;
     * {@code results[i]} receives the result of {@code calls[i]}. Calls that require approval wait
     * for it first, outside the bound, so a call awaiting a human neither holds a slot nor delays
     * the others. Under {@link ToolErrorPolicy#FAIL_LOOP} a failed call ends the flux with a
     * {@link ToolLoopException} after its {@link LoopEvent.ToolFinished}, cancelling the calls still
     * running or awaiting approval.
     */
    Flux<LoopEvent> run(int step, List<ToolCallPart> calls, List<Integer> indexes,
                        AtomicReferenceArray<ToolResultMessage> results) {
        return Flux.fromIterable(indexes)
                .flatMap(i -> gate(step, i, calls.get(i)), Math.max(1, indexes.size()))
                .flatMap(g -> g instanceof Ready ready ? execute(ready, results) : Mono.just(((Passed) g).event()),
                        options.maxParallelToolCalls());
    }

    /** What the approval stage hands on: an event to pass through, or a call ready to execute. */
    private sealed interface Gated permits Passed, Ready {
    }

    private record Passed(LoopEvent event) implements Gated {
    }

    /** A call ready to execute; {@code decided} is its outcome when it must not run (invalid, unknown, denied). */
    private record Ready(ToolCall call, @Nullable Outcome decided) implements Gated {
    }

    private Flux<Gated> gate(int step, int index, ToolCallPart part) {
        // a call without arguments is a call with no properties
        String arguments = part.arguments().isBlank() ? "{}" : part.arguments();
        ToolCall call = new ToolCall(idOf(part), part.name(), arguments, step, index);
        Outcome rejected = rejection(call, part);
        Tool tool = tools.get(call.name());
        // a call that cannot run is answered at once: no human needs to decide on it
        if (rejected != null || tool == null || !tool.requiresApproval()) {
            return Flux.just(new Ready(call, rejected));
        }
        ApprovalHandler handler = Objects.requireNonNull(approvals, "ToolLoop.build() checks the approval handler");
        Flux<Gated> decision = Flux.defer(() -> {
            long start = System.nanoTime();
            return Mono.defer(() -> handler.request(call))
                    .switchIfEmpty(Mono.fromSupplier(() -> Approval.deny("no decision was given on this call")))
                    .onErrorResume(e -> Mono.just(Approval.deny("no decision could be obtained on this call (" + describe(e) + ")")))
                    .flatMapMany(approval -> Flux.<Gated>just(
                            new Passed(new LoopEvent.ApprovalResolved(step, call, approval, Duration.ofNanos(System.nanoTime() - start))),
                            new Ready(call, approval instanceof Approval.Denied denied
                                    ? Outcome.failed(ToolError.Kind.DENIED, "the call of " + call.name() + " was not approved: " + denied.reason())
                                    : null)));
        });
        return Flux.concat(Mono.just(new Passed(new LoopEvent.ApprovalRequested(step, call))), decision);
    }

    private Flux<LoopEvent> execute(Ready ready, AtomicReferenceArray<ToolResultMessage> results) {
        ToolCall call = ready.call();
        int step = call.step();
        Flux<LoopEvent> finished = Flux.defer(() -> {
            long start = System.nanoTime();
            Outcome decided = ready.decided();
            return (decided != null ? Mono.just(decided) : outcome(call)).flatMapMany(o -> {
                ToolResultMessage result = new ToolResultMessage(call.id(), call.name(), o.text(), o.error() != null);
                results.set(call.index(), result);
                LoopEvent event = new LoopEvent.ToolFinished(step, call, Duration.ofNanos(System.nanoTime() - start),
                        result, o.error(), o.truncated());
                ToolError error = o.error();
                if (error != null && error.kind() != ToolError.Kind.DENIED && options.errorPolicy() == ToolErrorPolicy.FAIL_LOOP) {
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

    /** Why a call cannot run at all (no such tool, arguments not JSON or against the schema), or null if it can. */
    private @Nullable Outcome rejection(ToolCall call, ToolCallPart part) {
        Tool tool = tools.get(call.name());
        if (tool == null) {
            return Outcome.failed(ToolError.Kind.UNKNOWN_TOOL, "there is no tool named \"" + call.name()
                    + "\"; the available tools are: " + (tools.isEmpty() ? "none" : String.join(", ", tools.keySet())));
        }
        String problem = JsonValidity.problem(call.arguments());
        if (problem == null && !part.argumentsValid()) {
            problem = "the arguments are not one complete JSON value";
        }
        if (problem != null) {
            return Outcome.failed(ToolError.Kind.INVALID_ARGUMENTS,
                    "the arguments of " + call.name() + " are not valid JSON (" + problem + "); call it again with a JSON object");
        }
        String violations = schemas == null ? null : schemas.problems(call.name(), call.arguments());
        if (violations != null) {
            return Outcome.failed(ToolError.Kind.INVALID_ARGUMENTS, "the arguments of " + call.name()
                    + " do not satisfy its JSON schema:\n" + violations + "\ncall it again with arguments that do");
        }
        return null;
    }

    private Mono<Outcome> outcome(ToolCall call) {
        Tool tool = Objects.requireNonNull(tools.get(call.name()), "rejection() answers calls of unknown tools");
        Duration timeout = options.toolTimeout();
        return Mono.defer(() -> tool.handler().call(call))
                .timeout(timeout)
                .map(text -> success(call, text))
                .switchIfEmpty(Mono.fromSupplier(() -> Outcome.failed(ToolError.Kind.HANDLER_FAILED,
                        "the tool " + call.name() + " completed without a result")))
                .onErrorResume(e -> Mono.just(e instanceof TimeoutException
                        ? Outcome.failed(ToolError.Kind.TIMED_OUT, "the tool " + call.name() + " did not answer within " + timeout)
                        : Outcome.failed(ToolError.Kind.HANDLER_FAILED, "the tool " + call.name() + " failed: " + describe(e))));
    }

    private Outcome success(ToolCall call, String text) {
        int limit = options.maxResultChars();
        if (text.length() <= limit) {
            return new Outcome(text, null, false);
        }
        if (options.oversizeResults() == OversizeResultPolicy.FAIL) {
            return Outcome.failed(ToolError.Kind.RESULT_TOO_LARGE, "the tool " + call.name() + " returned " + text.length()
                    + " characters, over the limit of " + limit + "; call it again asking for less");
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
