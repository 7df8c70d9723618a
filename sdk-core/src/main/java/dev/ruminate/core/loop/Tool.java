package dev.ruminate.core.loop;

import dev.ruminate.core.request.ToolDefinition;
import java.util.Objects;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A tool the loop can execute: the definition the model sees and the handler that runs a call.
 *
 * <p>Immutable and thread-safe; all components are non-null.
 *
 * @param definition what the model is told about the tool; its name is how calls find the tool
 * @param handler what runs a call
 * @param endsLoop true when a call of this tool ends the loop after the step's tools have run
 *     ({@link StopReason#STOPPING_TOOL}), e.g. a "final_answer" or "hand_off" tool
 * @param requiresApproval true when a call of this tool runs only once the loop's
 *     {@link ApprovalHandler} approved it (see {@link #requiringApproval()})
 * @since 0.1
 */
public record Tool(ToolDefinition definition, ToolHandler handler, boolean endsLoop, boolean requiresApproval) {

    /**
     * Creates the value, checking its components.
     *
     * @param definition see {@link #definition()}
     * @param handler see {@link #handler()}
     * @param endsLoop see {@link #endsLoop()}
     * @param requiresApproval see {@link #requiresApproval()}
     */
    public Tool {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(handler, "handler");
    }

    /**
     * Creates a tool that needs no approval.
     *
     * @param definition see {@link #definition()}
     * @param handler see {@link #handler()}
     * @param endsLoop see {@link #endsLoop()}
     */
    public Tool(ToolDefinition definition, ToolHandler handler, boolean endsLoop) {
        this(definition, handler, endsLoop, false);
    }

    /**
     * Creates a tool with a reactive handler.
     *
     * @param definition the definition
     * @param handler the handler; it must not block the calling thread
     * @return the tool
     */
    public static Tool of(ToolDefinition definition, ToolHandler handler) {
        return new Tool(definition, handler, false);
    }

    /**
     * Creates a tool whose handler blocks: each call runs on {@link Schedulers#boundedElastic()},
     * which bounds the threads used. The function returns the result text; an exception it throws
     * is the call's error, and a null return counts as no result.
     *
     * @param definition the definition
     * @param function the blocking function
     * @return the tool
     */
    public static Tool blocking(ToolDefinition definition, Function<ToolCall, String> function) {
        Objects.requireNonNull(function, "function");
        return new Tool(definition,
                call -> Mono.fromCallable(() -> function.apply(call)).subscribeOn(Schedulers.boundedElastic()), false);
    }

    /**
     * Returns this tool flagged as ending the loop.
     *
     * @return a tool whose calls end the loop
     */
    public Tool endingLoop() {
        return new Tool(definition, handler, true, requiresApproval);
    }

    /**
     * Returns this tool flagged as requiring approval: when the model calls it, the loop emits a
     * {@link LoopEvent.ApprovalRequested}, asks the loop's {@link ApprovalHandler} and runs the call
     * only if approved; a denial's reason goes back to the model as the call's result. A loop with
     * such a tool and no approval handler fails to build.
     *
     * @return a tool whose calls wait for approval
     */
    public Tool requiringApproval() {
        return new Tool(definition, handler, endsLoop, true);
    }

    /**
     * Returns the tool's name, from its definition.
     *
     * @return the name
     */
    public String name() {
        return definition.name();
    }
}
