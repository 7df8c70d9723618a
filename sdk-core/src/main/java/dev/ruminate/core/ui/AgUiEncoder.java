package dev.ruminate.core.ui;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.loop.LoopEvent;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import reactor.core.publisher.Flux;

/**
 * Encodes a run as AG-UI events (the Agent-User Interaction protocol of {@code @ag-ui/client} 1.0), each one JSON
 * object on one line, for a front end that shows reasoning while the provider's opaque state stays on the server.
 *
 * <p>A run is {@code RUN_STARTED}, then per model response: each reasoning part as a reasoning span and message
 * ({@code REASONING_START}, {@code REASONING_MESSAGE_START}, {@code REASONING_MESSAGE_CONTENT}…,
 * {@code REASONING_MESSAGE_END}, {@code REASONING_END}), the text as one assistant text message
 * ({@code TEXT_MESSAGE_START}, {@code TEXT_MESSAGE_CONTENT}…, {@code TEXT_MESSAGE_END}) whose id is the turn's id,
 * each tool call ({@code TOOL_CALL_START} with the turn as {@code parentMessageId}, {@code TOOL_CALL_ARGS}…,
 * {@code TOOL_CALL_END}); then {@code RUN_FINISHED} with the usage. A tool loop adds {@code STEP_STARTED} and
 * {@code STEP_FINISHED} around each step and a {@code TOOL_CALL_RESULT} per tool the server ran. Warnings go out as
 * {@code CUSTOM} events named {@code ruminate.warning}.
 *
 * <p><b>Opaque state.</b> Signatures, encrypted reasoning and item ids are never written. When a response ends,
 * its reduced message is stored in {@link ServerTurns} under the thread id and the turn's id, and each reasoning
 * part or tool call that holds opaque state gets a {@code REASONING_ENCRYPTED_VALUE} whose value is a handle to the
 * stored part (see {@link AgUiInputReader}), not the provider's bytes. A tool call without a provider id is given
 * one, and stored with it, so that the front end's tool result answers the stored call.
 *
 * <p><b>Errors.</b> A failure of the events ends the run with one {@code RUN_ERROR}: a
 * {@link dev.ruminate.core.error.RuminateException}'s message and type as code (keys are redacted from it at the
 * source); one caused by another throwable, or any other throwable, as {@code "the run failed"} (code: its type, or
 * {@code internal}), since such text was never meant for a browser. The returned flux then completes.
 *
 * <p>Stateless and thread-safe; the returned fluxes are cold, each subscription encoding a run of its own, and pass
 * backpressure and cancellation through.
 *
 * @since 0.4
 */
public final class AgUiEncoder {

    private AgUiEncoder() {
    }

    /**
     * Encodes one model response as a run.
     *
     * @param input the run's input (its thread and run ids are echoed, its thread scopes the stored turn)
     * @param events the provider's events for the run's request
     * @param turns where the turn is stored
     * @return the AG-UI events as JSON text, one per element
     */
    public static Flux<String> chat(AgUiInput input, Flux<ChatEvent> events, ServerTurns turns) {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(turns, "turns");
        return Flux.defer(() -> {
            AgUiRun run = new AgUiRun(input.threadId(), input.runId(), turns);
            Flux<String> body = ChatReducer.defaults().snapshots(events).concatMapIterable(snapshot -> {
                List<String> out = new ArrayList<>(run.chat(snapshot.event()));
                ChatResult result = snapshot.result();
                if (result != null) {
                    out.addAll(run.responseDone(result.message()));
                }
                return out;
            });
            return wrap(run, body);
        });
    }

    /**
     * Encodes a tool loop as a run: each step as an AG-UI step, the server's tool results as tool messages.
     *
     * @param input the run's input
     * @param events the loop's events, from {@code ToolLoop.run(input.request(model).build())}
     * @param turns where each step's turn is stored
     * @return the AG-UI events as JSON text, one per element
     */
    public static Flux<String> loop(AgUiInput input, Flux<LoopEvent> events, ServerTurns turns) {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(turns, "turns");
        return Flux.defer(() -> {
            AgUiRun run = new AgUiRun(input.threadId(), input.runId(), turns);
            LoopState state = new LoopState();
            Flux<String> body = events.concatMapIterable(e -> loopEvent(run, state, e));
            return wrap(run, body.concatWith(Flux.defer(() -> Flux.fromIterable(state.close(run)))));
        });
    }

    /**
     * Frames one event for Server-Sent Events as AG-UI's HTTP transport reads it: {@code data: <json>} and the
     * blank line that ends the event (no event name).
     *
     * @param eventJson one event's JSON, on one line
     * @return the wire text
     * @throws IllegalArgumentException if the JSON holds a line break
     */
    public static String sse(String eventJson) {
        Objects.requireNonNull(eventJson, "eventJson");
        if (eventJson.indexOf('\n') >= 0 || eventJson.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("an SSE data line must not break");
        }
        return "data: " + eventJson + "\n\n";
    }

    private static Flux<String> wrap(AgUiRun run, Flux<String> body) {
        return Flux.fromIterable(run.started())
                .concatWith(body)
                .concatWith(Flux.defer(() -> Flux.fromIterable(run.finished())))
                .onErrorResume(e -> Flux.fromIterable(run.failed(e)));
    }

    /** Which step is open and the ids of its tool calls, for a loop's events. */
    private static final class LoopState {
        int step = -1;
        boolean responseClosed;
        List<String> callIds = List.of();

        List<String> close(AgUiRun run) {
            if (step < 0) {
                return List.of();
            }
            int open = step;
            step = -1;
            return run.stepFinished(open);
        }
    }

    private static List<String> loopEvent(AgUiRun run, LoopState state, LoopEvent e) {
        List<String> out = new ArrayList<>();
        if (e.step() != state.step && !(e instanceof LoopEvent.LoopCompleted)) {
            out.addAll(state.close(run));
            state.step = e.step();
            state.responseClosed = false;
            out.addAll(run.stepStarted(e.step()));
        }
        if (e instanceof LoopEvent.StepChatEvent c) {
            out.addAll(run.chat(c.event()));
        } else if (e instanceof LoopEvent.ToolFinished f) {
            if (!state.responseClosed) {
                // the step's calls are complete before the first result: close them, keep their ids for the results
                state.callIds = run.callIds();
                out.addAll(run.closeOpen());
                state.responseClosed = true;
            }
            String id = f.call().index() < state.callIds.size() && f.step() > 0 ? state.callIds.get(f.call().index())
                    : f.call().id();
            out.addAll(run.toolResult(id, f));
        } else if (e instanceof LoopEvent.StepCompleted s) {
            out.addAll(run.responseDone(s.message()));
            out.addAll(state.close(run));
        } else if (e instanceof LoopEvent.LoopCompleted) {
            out.addAll(state.close(run));
        } else if (e instanceof LoopEvent.ToolStarted || e instanceof LoopEvent.ApprovalRequested
                || e instanceof LoopEvent.ApprovalResolved) {
            // the call is already shown; its result follows as a tool message
        } else {
            throw new IllegalStateException("AgUiEncoder does not handle the loop event " + e.getClass().getName());
        }
        return out;
    }
}
