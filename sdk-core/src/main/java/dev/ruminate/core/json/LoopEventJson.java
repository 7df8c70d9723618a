package dev.ruminate.core.json;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.core.loop.Approval;
import dev.ruminate.core.loop.LoopEvent;
import dev.ruminate.core.loop.StopReason;
import dev.ruminate.core.loop.ToolCall;
import dev.ruminate.core.loop.ToolError;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ReasoningCheck;
import dev.ruminate.core.reduce.ReasoningVerdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import tools.jackson.core.JsonGenerator;

/**
 * Writes and reads the events of a {@link dev.ruminate.core.loop.ToolLoop} as Ruminate's JSON wire
 * format, and turns a loop's event flux into Server-Sent Events for a front end.
 *
 * <p>A step's chat event is written as {@link EventJson} writes it, with the step added:
 * {@code {"type":"reasoning.delta","step":2,"part":0,…}}. The loop's own events are
 * {@code tool.started}, {@code tool.finished}, {@code approval.requested}, {@code approval.resolved},
 * {@code step.completed} and {@code loop.completed}.
 * The format is documented, with examples, in {@code docs/wire-format.md}.
 *
 * <p><b>Opaque state.</b> In the client form ({@link ProviderState#OMIT}, the default of
 * {@link #toSse(Flux)}) {@code seal} events are dropped, server tool events and parts go without their
 * provider {@code block}, messages are written as {@link MessageJson#writeForClient} writes them, and
 * {@code loop.completed} leaves out the conversation (a browser has the steps already; the
 * conversation to continue from belongs in server-side storage, written with
 * {@link ProviderState#INCLUDE}).
 *
 * <p>Stateless and thread-safe. Arguments must not be null.
 *
 * @since 0.1
 */
public final class LoopEventJson {

    private static final String FAILED = "loop.failed";

    private LoopEventJson() {
    }

    /**
     * Returns the JSON {@code type} of an event, which is also its SSE event name: a step's chat
     * event keeps its own type ({@link EventJson#type}).
     *
     * @param e the event
     * @return the type, e.g. {@code tool.finished}
     */
    public static String type(LoopEvent e) {
        Objects.requireNonNull(e, "e");
        // Java 17 has no pattern switch over a sealed type; LoopEventJsonEveryTypeTest makes sure each
        // permitted subclass is handled here, and an unhandled one fails instead of going out mislabelled.
        if (e instanceof LoopEvent.StepChatEvent s) {
            return EventJson.type(s.event());
        } else if (e instanceof LoopEvent.ToolStarted) {
            return "tool.started";
        } else if (e instanceof LoopEvent.ToolFinished) {
            return "tool.finished";
        } else if (e instanceof LoopEvent.ApprovalRequested) {
            return "approval.requested";
        } else if (e instanceof LoopEvent.ApprovalResolved) {
            return "approval.resolved";
        } else if (e instanceof LoopEvent.StepCompleted) {
            return "step.completed";
        } else if (e instanceof LoopEvent.LoopCompleted) {
            return "loop.completed";
        }
        throw unhandled(e);
    }

    private static IllegalStateException unhandled(LoopEvent e) {
        return new IllegalStateException("LoopEventJson does not handle the loop event type " + e.getClass().getName());
    }

    /**
     * Writes an event as one line of JSON, opaque state and the conversation included: the form for
     * server-side storage.
     *
     * @param e the event
     * @return the JSON text
     */
    public static String write(LoopEvent e) {
        return write(e, ProviderState.INCLUDE);
    }

    /**
     * Writes an event in the given form. In the client form a step's {@code seal} event is still
     * written if asked for directly; {@link #toSse(Flux, ProviderState)} is what drops them.
     *
     * @param e the event
     * @param state {@link ProviderState#INCLUDE} for storage, {@link ProviderState#OMIT} for front ends
     * @return the JSON text
     */
    public static String write(LoopEvent e, ProviderState state) {
        Objects.requireNonNull(e, "e");
        Objects.requireNonNull(state, "state");
        return JsonOut.write(g -> {
            g.writeStartObject();
            g.writeStringProperty("type", type(e));
            g.writeNumberProperty("step", e.step());
            fields(g, e, state);
            g.writeEndObject();
        });
    }

    private static void fields(JsonGenerator g, LoopEvent e, ProviderState state) {
        if (e instanceof LoopEvent.StepChatEvent s) {
            EventJson.fields(g, s.event(), state);
        } else if (e instanceof LoopEvent.ToolStarted t) {
            call(g, t.call());
        } else if (e instanceof LoopEvent.ToolFinished f) {
            call(g, f.call());
            g.writeNumberProperty("duration_ms", f.duration().toMillis());
            g.writeStringProperty("result", f.result().content());
            if (f.result().error()) {
                g.writeBooleanProperty("is_error", true);
            }
            ToolError error = f.error();
            if (error != null) {
                g.writeObjectPropertyStart("error");
                g.writeStringProperty("kind", error.kind().name().toLowerCase(Locale.ROOT));
                g.writeStringProperty("reason", error.reason());
                g.writeEndObject();
            }
            if (f.truncated()) {
                g.writeBooleanProperty("truncated", true);
            }
        } else if (e instanceof LoopEvent.ApprovalRequested a) {
            call(g, a.call());
        } else if (e instanceof LoopEvent.ApprovalResolved a) {
            call(g, a.call());
            g.writeBooleanProperty("approved", a.approval() instanceof Approval.Approved);
            if (a.approval() instanceof Approval.Denied denied) {
                g.writeStringProperty("reason", denied.reason());
            }
            g.writeNumberProperty("waited_ms", a.waited().toMillis());
        } else if (e instanceof LoopEvent.StepCompleted c) {
            MessageJson.message(g, "message", c.message(), state);
            MessageJson.reasoningCheck(g, c.reasoningCheck());
            g.writeArrayPropertyStart("tool_results");
            for (ToolResultMessage r : c.toolResults()) {
                g.writeRawValue(MessageJson.write(r, state));
            }
            g.writeEndArray();
        } else if (e instanceof LoopEvent.LoopCompleted l) {
            g.writeStringProperty("stop_reason", l.stopReason().name().toLowerCase(Locale.ROOT));
            g.writeObjectPropertyStart("usage");
            JsonOut.usageFields(g, l.usage());
            g.writeEndObject();
            MessageJson.message(g, "final_message", l.finalMessage(), state);
            if (state == ProviderState.INCLUDE) {
                g.writeName("conversation");
                g.writeRawValue(MessageJson.writeAll(l.conversation(), state));
            }
        } else {
            throw unhandled(e);
        }
    }

    private static void call(JsonGenerator g, ToolCall c) {
        g.writeStringProperty("id", c.id());
        g.writeStringProperty("name", c.name());
        g.writeStringProperty("arguments", c.arguments());
        g.writeNumberProperty("index", c.index());
    }

    /**
     * Reads an event written by {@link #write(LoopEvent, ProviderState)}.
     *
     * <p>Unknown properties are ignored. What the written form leaves out reads as: no conversation
     * ({@code []}) for a client-form {@code loop.completed}; {@code whitespace_only} false and no
     * detail for a reasoning check (they are not written); the duration in whole milliseconds.
     *
     * @param json one event's JSON
     * @return the event
     * @throws ProtocolException {@code MALFORMED_JSON} for text that is not one JSON value,
     *     {@code UNEXPECTED_SHAPE} for JSON that is not a loop event; the message names the field,
     *     never a value
     */
    public static LoopEvent read(String json) {
        JsonTree.Obj o = JsonTree.parseObject(json, "a loop event");
        try {
            return loopEvent(o, json);
        } catch (IllegalArgumentException e) {
            // the shape was right, but a value the event or a message in it refuses: still not a loop event
            throw JsonTree.invalid("a loop event", e);
        }
    }

    private static LoopEvent loopEvent(JsonTree.Obj o, String json) {
        String type = o.requireString("type");
        int step = o.requireIndex("step");
        switch (type) {
            case "tool.started":
                return new LoopEvent.ToolStarted(step, readCall(o, step));
            case "tool.finished": {
                ToolCall call = readCall(o, step);
                Long millis = o.longValue("duration_ms");
                if (millis == null || millis < 0) {
                    throw JsonTree.shape(o.where("duration_ms") + " is required and must not be negative");
                }
                ToolResultMessage result = new ToolResultMessage(call.id(), call.name(), o.requireString("result"),
                        o.bool("is_error", false));
                return new LoopEvent.ToolFinished(step, call, Duration.ofMillis(millis), result, readError(o),
                        o.bool("truncated", false));
            }
            case "approval.requested":
                return new LoopEvent.ApprovalRequested(step, readCall(o, step));
            case "approval.resolved": {
                Long waited = o.longValue("waited_ms");
                if (waited == null || waited < 0) {
                    throw JsonTree.shape(o.where("waited_ms") + " is required and must not be negative");
                }
                Approval approval = o.bool("approved", false) ? Approval.approve()
                        : Approval.deny(o.requireString("reason"));
                return new LoopEvent.ApprovalResolved(step, readCall(o, step), approval, Duration.ofMillis(waited));
            }
            case "step.completed": {
                List<ToolResultMessage> results = new ArrayList<>();
                JsonTree.Arr a = o.array("tool_results");
                if (a != null) {
                    for (int i = 0; i < a.items().size(); i++) {
                        if (!(MessageJson.read(a.object(i)) instanceof ToolResultMessage r)) {
                            throw JsonTree.shape(o.where("tool_results") + " must hold tool messages only");
                        }
                        results.add(r);
                    }
                }
                return new LoopEvent.StepCompleted(step, assistant(o, "message"), readCheck(o), results);
            }
            case "loop.completed": {
                JsonTree.Obj usage = o.object("usage");
                JsonTree.Arr conversation = o.array("conversation");
                List<Message> messages = new ArrayList<>();
                if (conversation != null) {
                    for (int i = 0; i < conversation.items().size(); i++) {
                        messages.add(MessageJson.read(conversation.object(i)));
                    }
                }
                return new LoopEvent.LoopCompleted(step, assistant(o, "final_message"), messages,
                        usage == null ? Usage.UNKNOWN : JsonOut.readUsage(usage),
                        stopReason(o));
            }
            default:
                // any other type is a step's chat event; EventJson rejects what is not one either
                return new LoopEvent.StepChatEvent(step, EventJson.read(json));
        }
    }

    private static ToolCall readCall(JsonTree.Obj o, int step) {
        return new ToolCall(o.requireString("id"), o.requireString("name"), o.requireString("arguments"), step,
                o.requireIndex("index"));
    }

    private static @Nullable ToolError readError(JsonTree.Obj o) {
        JsonTree.Obj e = o.object("error");
        if (e == null) {
            return null;
        }
        String kind = e.requireString("kind");
        for (ToolError.Kind k : ToolError.Kind.values()) {
            if (k.name().toLowerCase(Locale.ROOT).equals(kind)) {
                return new ToolError(k, e.requireString("reason"));
            }
        }
        throw JsonTree.shape(e.where("kind") + " must be one of " + Arrays.stream(ToolError.Kind.values())
                .map(k -> k.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")));
    }

    private static AssistantMessage assistant(JsonTree.Obj o, String name) {
        JsonTree.Obj m = o.object(name);
        if (m == null) {
            throw JsonTree.shape(o.where(name) + " is required");
        }
        if (!(MessageJson.read(m) instanceof AssistantMessage a)) {
            throw JsonTree.shape(o.where(name) + " must be an assistant message");
        }
        return a;
    }

    private static ReasoningCheck readCheck(JsonTree.Obj o) {
        JsonTree.Obj c = o.object("reasoning_check");
        if (c == null) {
            return ReasoningCheck.UNAVAILABLE;
        }
        String verdict = c.requireString("verdict");
        for (ReasoningVerdict v : ReasoningVerdict.values()) {
            if (v.name().toLowerCase(Locale.ROOT).equals(verdict)) {
                Long part = c.longValue("part");
                Long offset = c.longValue("offset");
                return new ReasoningCheck(v, c.requireIndex("checked_parts"), part == null ? -1 : part.intValue(),
                        offset == null ? -1 : offset.intValue(), false, null);
            }
        }
        throw JsonTree.shape(c.where("verdict") + " must be one of matched, mismatched, unavailable");
    }

    private static StopReason stopReason(JsonTree.Obj o) {
        String reason = o.requireString("stop_reason");
        for (StopReason r : StopReason.values()) {
            if (r.name().toLowerCase(Locale.ROOT).equals(reason)) {
                return r;
            }
        }
        throw JsonTree.shape(o.where("stop_reason") + " must be one of final_answer, step_limit, stop_predicate, stopping_tool");
    }

    /**
     * Turns loop events into Server-Sent Events for a front end, opaque state left out: same as
     * {@code toSse(events, ProviderState.OMIT)}.
     *
     * @param events the loop's events
     * @return one frame per event kept, in order
     */
    public static Flux<SseFrame> toSse(Flux<LoopEvent> events) {
        return toSse(events, ProviderState.OMIT);
    }

    /**
     * Turns loop events into Server-Sent Events: the event name is the JSON {@code type}, the data
     * the event's JSON. Backpressure, cancellation and errors pass through unchanged.
     *
     * @param events the loop's events
     * @param state {@link ProviderState#OMIT} to drop a step's {@code seal} events and write every
     *     other event in the client form; {@link ProviderState#INCLUDE} to keep everything
     * @return one frame per event kept, in order
     */
    public static Flux<SseFrame> toSse(Flux<LoopEvent> events, ProviderState state) {
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(state, "state");
        Flux<LoopEvent> kept = state == ProviderState.INCLUDE ? events
                : events.filter(e -> !(e instanceof LoopEvent.StepChatEvent s && s.event() instanceof Seal));
        return kept.map(e -> new SseFrame(type(e), write(e, state)));
    }

    /**
     * Writes a loop's failure as the last frame for a front end: event {@code loop.failed}, data
     * {@code {"type":"loop.failed","error":{"type":…,"message":…,"retryable":…}}}, the error
     * written as {@link EventJson#errorFrame} writes it (a {@link dev.ruminate.core.error.RuminateException}'s type, message
     * and retryability; {@code internal} with a fixed message for anything else).
     *
     * @param error the loop's failure
     * @return the frame
     */
    public static SseFrame errorFrame(Throwable error) {
        Objects.requireNonNull(error, "error");
        return new SseFrame(FAILED, EventJson.failure(FAILED, error));
    }

    /**
     * {@link #toSse(Flux)} for a browser: the same frames, and in place of an upstream error one
     * final {@link #errorFrame(Throwable) loop.failed frame}, after which the flux completes.
     *
     * @param events the loop's events
     * @return the frames, never ending in an error signal
     */
    public static Flux<SseFrame> toSseForClient(Flux<LoopEvent> events) {
        return toSse(events).onErrorResume(e -> Flux.just(errorFrame(e)));
    }
}
