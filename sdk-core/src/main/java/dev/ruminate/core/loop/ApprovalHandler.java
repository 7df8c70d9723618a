package dev.ruminate.core.loop;

import reactor.core.publisher.Mono;

/**
 * Asks the application (usually a human) whether a call of a tool that
 * {@linkplain Tool#requiresApproval() requires approval} may run: a call in, a {@code Mono} of the
 * decision out. Given to {@link ToolLoop.Builder#approvalHandler}.
 *
 * <p><b>Time.</b> The loop waits for the decision as long as it takes: the tool timeout does not
 * apply while it waits (it starts when the approved call runs), the loop timeout and cancellation
 * do, and cancel the {@code Mono}. Other calls of the same step run meanwhile, and a call awaiting
 * a decision holds no slot of {@link LoopOptions#maxParallelToolCalls()}.
 *
 * <p><b>Threading.</b> Called on the loop's thread (often a network thread): it must not block, but
 * return a {@code Mono} that a UI, a queue or a timer completes later, e.g. a {@code Sinks.One} kept
 * by call id. Calls of one step may ask at once, so it must be thread-safe.
 *
 * <p><b>Errors and nullness.</b> A {@code Mono} that fails or completes empty counts as a denial
 * (the tool never runs unapproved), its reason saying that no decision was obtained.
 *
 * @since 0.1
 */
@FunctionalInterface
public interface ApprovalHandler {

    /**
     * Asks for a decision on a call.
     *
     * @param call the call, never null; its arguments are one complete JSON value
     * @return a cold {@code Mono} of the decision
     */
    Mono<Approval> request(ToolCall call);
}
