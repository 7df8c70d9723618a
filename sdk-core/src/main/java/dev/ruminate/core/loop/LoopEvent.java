package dev.ruminate.core.loop;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ReasoningCheck;
import dev.ruminate.core.reduce.ReasoningVerdict;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One event of a tool loop. For each step, in order: the step's {@link StepChatEvent}s (the
 * provider's events as they arrive), then a {@link ToolStarted} and a {@link ToolFinished} per tool
 * call (interleaved as the calls run; a call of a tool that requires approval is preceded by its
 * {@link ApprovalRequested} and {@link ApprovalResolved}), then one {@link StepCompleted}. The last event of a loop
 * that does not fail is one {@link LoopCompleted}. Steps are numbered from 1; calls left unanswered
 * in the conversation a loop starts from run first, as step 0, which has no other event.
 *
 * <p>The hierarchy is sealed so that a {@code switch} over it is checked by the compiler. Events
 * are immutable values, safe to share across threads; components are non-null unless marked
 * {@code @Nullable}.
 *
 * @since 0.1
 */
public sealed interface LoopEvent {

    /**
     * Returns the step this event belongs to.
     *
     * @return the step, from 1 (0 for calls left unanswered in the starting conversation); for
     *     {@link LoopCompleted}, the number of steps run
     */
    int step();

    /**
     * A provider event of one step.
     *
     * @param step the step
     * @param event the provider's event
     * @since 0.1
     */
    record StepChatEvent(int step, ChatEvent event) implements LoopEvent {

        /**
         * Creates the value, checking its components.
         *
         * @param step see {@link #step()}
         * @param event see {@link #event()}
         */
        public StepChatEvent {
            Objects.requireNonNull(event, "event");
        }
    }

    /**
     * A call of a tool that requires approval waits for the {@link ApprovalHandler}'s decision. The
     * handler has been asked when this event is emitted or is asked right after; drive approval
     * from the handler, not from this event, since when every slot of the parallel bound is busy
     * the event may be delivered only once one frees.
     *
     * @param step the step whose message asked for the call
     * @param call the call awaiting approval
     * @since 0.1
     */
    record ApprovalRequested(int step, ToolCall call) implements LoopEvent {

        /**
         * Creates the value, checking its components.
         *
         * @param step see {@link #step()}
         * @param call see {@link #call()}
         */
        public ApprovalRequested {
            Objects.requireNonNull(call, "call");
        }
    }

    /**
     * The decision on a call that required approval arrived: if approved, a {@link ToolStarted}
     * follows; if denied, the call's {@link ToolFinished} carries the reason as its result
     * ({@link ToolError.Kind#DENIED}).
     *
     * @param step the step whose message asked for the call
     * @param call the call
     * @param approval the decision; a handler that failed or gave none counts as a denial
     * @param waited how long the decision took
     * @since 0.1
     */
    record ApprovalResolved(int step, ToolCall call, Approval approval, Duration waited) implements LoopEvent {

        /**
         * Creates the value, checking its components.
         *
         * @param step see {@link #step()}
         * @param call see {@link #call()}
         * @param approval see {@link #approval()}
         * @param waited see {@link #waited()}
         */
        public ApprovalResolved {
            Objects.requireNonNull(call, "call");
            Objects.requireNonNull(approval, "approval");
            Objects.requireNonNull(waited, "waited");
        }

        /**
         * Tells whether the call was approved.
         *
         * @return true if the call may run
         */
        public boolean approved() {
            return approval instanceof Approval.Approved;
        }
    }

    /**
     * A tool call is about to be executed (or answered with an error, if it cannot be).
     *
     * @param step the step whose message asked for the call
     * @param call the call
     * @since 0.1
     */
    record ToolStarted(int step, ToolCall call) implements LoopEvent {

        /**
         * Creates the value, checking its components.
         *
         * @param step see {@link #step()}
         * @param call see {@link #call()}
         */
        public ToolStarted {
            Objects.requireNonNull(call, "call");
        }
    }

    /**
     * A tool call finished.
     *
     * @param step the step whose message asked for the call
     * @param call the call
     * @param duration how long the call took (not counting a wait for approval)
     * @param result the tool result sent back to the model: the handler's result (cut to the size
     *     limit), or the error's reason with {@link ToolResultMessage#error()} set
     * @param error why the call produced no result, or null when it succeeded
     * @param truncated true when the handler's result was over the size limit and was cut
     * @since 0.1
     */
    record ToolFinished(int step, ToolCall call, Duration duration, ToolResultMessage result,
                        @Nullable ToolError error, boolean truncated) implements LoopEvent {

        /**
         * Creates the value, checking its components.
         *
         * @param step see {@link #step()}
         * @param call see {@link #call()}
         * @param duration see {@link #duration()}
         * @param result see {@link #result()}
         * @param error see {@link #error()}
         * @param truncated see {@link #truncated()}
         */
        public ToolFinished {
            Objects.requireNonNull(call, "call");
            Objects.requireNonNull(duration, "duration");
            Objects.requireNonNull(result, "result");
        }
    }

    /**
     * A step completed: the model's response is reduced and the tools it called have run.
     *
     * @param step the step
     * @param message the step's assistant message, exactly as reduced
     * @param reasoningCheck the reasoning check of the step's response
     * @param toolResults the results sent back, in the order of the message's tool calls; empty
     *     when the message calls no tool, or the step limit left its calls unanswered
     * @since 0.1
     */
    record StepCompleted(int step, AssistantMessage message, ReasoningCheck reasoningCheck,
                         List<ToolResultMessage> toolResults) implements LoopEvent {

        /**
         * Creates the value, checking its components.
         *
         * @param step see {@link #step()}
         * @param message see {@link #message()}
         * @param reasoningCheck see {@link #reasoningCheck()}
         * @param toolResults see {@link #toolResults()}
         */
        public StepCompleted {
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(reasoningCheck, "reasoningCheck");
            toolResults = List.copyOf(toolResults);
        }

        /**
         * Returns the verdict of the step's reasoning check.
         *
         * @return the verdict
         */
        public ReasoningVerdict verdict() {
            return reasoningCheck.verdict();
        }

        /**
         * Returns the step's token counts.
         *
         * @return the usage of the step's response
         */
        public Usage usage() {
            return message.usage();
        }
    }

    /**
     * The loop ended without an error.
     *
     * @param step the number of steps run (model calls)
     * @param finalMessage the last assistant message (the answer, for {@link StopReason#FINAL_ANSWER})
     * @param conversation the whole conversation, starting with the request's messages: append the
     *     next user message and send it, or start a new loop from it
     * @param usage the usage of all steps, summed; a count no step reported stays null
     * @param stopReason why the loop ended
     * @since 0.1
     */
    record LoopCompleted(int step, AssistantMessage finalMessage, List<Message> conversation, Usage usage,
                         StopReason stopReason) implements LoopEvent {

        /**
         * Creates the value, checking its components.
         *
         * @param step see {@link #step()}
         * @param finalMessage see {@link #finalMessage()}
         * @param conversation see {@link #conversation()}
         * @param usage see {@link #usage()}
         * @param stopReason see {@link #stopReason()}
         */
        public LoopCompleted {
            Objects.requireNonNull(finalMessage, "finalMessage");
            conversation = List.copyOf(conversation);
            Objects.requireNonNull(usage, "usage");
            Objects.requireNonNull(stopReason, "stopReason");
        }
    }
}
