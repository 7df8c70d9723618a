package dev.ruminate.core.json;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.OutputChecked;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ServerToolBlock;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.request.StructuredOutputMethod;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import tools.jackson.core.JsonGenerator;

/**
 * Writes and reads {@link ChatEvent}s as Ruminate's JSON wire format, and turns an event flux into
 * Server-Sent Events for a front end.
 *
 * <p>Each event is one JSON object on one line with a {@code type} discriminator:
 * {@code response.started}, {@code reasoning.delta}, {@code content.delta}, {@code tool_call.delta},
 * {@code server_tool}, {@code seal}, {@code part.ended}, {@code reasoning.final}, {@code usage},
 * {@code response.completed}, {@code warning}, {@code output.checked}. Absent (null) values are left out; field names are snake_case. The
 * format is documented, with an example per type, in {@code docs/wire-format.md}.
 *
 * <p>Opaque provider state travels only in {@code seal} events, whose {@code value} is never
 * reasoning text. {@link #toSse(Flux)} leaves them out: a browser must not receive signatures or
 * encrypted reasoning. {@link #toSse(Flux, ProviderState)} keeps them, for a trusted consumer that
 * stores the stream.
 *
 * <p>Stateless and thread-safe. Arguments must not be null.
 *
 * @since 0.1
 */
public final class EventJson {

    private static final String FAILED = "response.failed";

    private EventJson() {
    }

    /**
     * Returns the JSON {@code type} of an event, which is also its SSE event name.
     *
     * @param e the event
     * @return the type, e.g. {@code reasoning.delta}
     * @throws IllegalStateException for an event type this class was not written for (a bug: each
     *     type of the sealed hierarchy must be handled here)
     */
    public static String type(ChatEvent e) {
        Objects.requireNonNull(e, "e");
        if (e instanceof ResponseStarted) {
            return "response.started";
        } else if (e instanceof ReasoningDelta) {
            return "reasoning.delta";
        } else if (e instanceof ContentDelta) {
            return "content.delta";
        } else if (e instanceof ToolCallDelta) {
            return "tool_call.delta";
        } else if (e instanceof ServerToolBlock) {
            return "server_tool";
        } else if (e instanceof Seal) {
            return "seal";
        } else if (e instanceof PartEnded) {
            return "part.ended";
        } else if (e instanceof ReasoningFinal) {
            return "reasoning.final";
        } else if (e instanceof UsageUpdate) {
            return "usage";
        } else if (e instanceof ResponseCompleted) {
            return "response.completed";
        } else if (e instanceof Warning) {
            return "warning";
        } else if (e instanceof OutputChecked) {
            return "output.checked";
        }
        // Java 17 has no pattern switch to make the compiler check this chain: a type added to
        // ChatEvent and missed here must fail, never go out under another type's name.
        throw unhandled(e);
    }

    private static IllegalStateException unhandled(ChatEvent e) {
        return new IllegalStateException("EventJson does not handle the event type " + e.getClass().getName());
    }

    /**
     * Writes an event as one line of JSON, opaque state included (a {@link Seal} is written whole).
     *
     * @param e the event
     * @return the JSON text
     */
    public static String write(ChatEvent e) {
        Objects.requireNonNull(e, "e");
        return write(e, ProviderState.INCLUDE);
    }

    /** Writes an event; in the client form a server tool block goes without its provider JSON. */
    private static String write(ChatEvent e, ProviderState state) {
        return JsonOut.write(g -> {
            g.writeStartObject();
            g.writeStringProperty("type", type(e));
            fields(g, e, state);
            g.writeEndObject();
        });
    }

    /** Writes an event's fields after its {@code type}; the loop writer puts its {@code step} between them. */
    static void fields(JsonGenerator g, ChatEvent e, ProviderState state) {
        if (e instanceof ResponseStarted s) {
            g.writeStringProperty("provider", s.provider());
            JsonOut.optString(g, "model", s.model());
            JsonOut.optString(g, "response_id", s.responseId());
            if (state == ProviderState.INCLUDE && s.origin() != null) {
                // where the response's opaque state was made: for storage, not for a browser
                g.writeObjectPropertyStart("origin");
                JsonOut.originFields(g, s.origin());
                g.writeEndObject();
                JsonOut.optString(g, "requested_model", s.requestedModel());
            }
        } else if (e instanceof ReasoningDelta r) {
            g.writeNumberProperty("part", r.part());
            g.writeStringProperty("text", r.text());
            if (r.summary()) {
                g.writeBooleanProperty("summary", true);
            }
            g.writeStringProperty("source", r.source());
        } else if (e instanceof ContentDelta c) {
            g.writeNumberProperty("part", c.part());
            g.writeStringProperty("text", c.text());
        } else if (e instanceof ToolCallDelta t) {
            g.writeNumberProperty("part", t.part());
            g.writeNumberProperty("tool_index", t.toolIndex());
            JsonOut.optString(g, "id", t.id());
            JsonOut.optString(g, "name", t.name());
            g.writeStringProperty("arguments", t.argumentsDelta());
        } else if (e instanceof ServerToolBlock b) {
            g.writeNumberProperty("part", b.part());
            g.writeStringProperty("block_type", b.type());
            JsonOut.optString(g, "id", b.id());
            JsonOut.optString(g, "name", b.name());
            if (state == ProviderState.INCLUDE) {
                JsonOut.embedded(g, "block", b.json());
            }
        } else if (e instanceof Seal s) {
            g.writeNumberProperty("part", s.part());
            g.writeStringProperty("kind", s.kind().name().toLowerCase(Locale.ROOT));
            g.writeStringProperty("value", s.value());
        } else if (e instanceof PartEnded p) {
            g.writeNumberProperty("part", p.part());
        } else if (e instanceof ReasoningFinal f) {
            g.writeNumberProperty("part", f.part());
            g.writeStringProperty("text", f.text());
        } else if (e instanceof UsageUpdate u) {
            JsonOut.usageFields(g, u.usage());
        } else if (e instanceof ResponseCompleted c) {
            g.writeStringProperty("finish_reason", c.finishReason().wireName());
            JsonOut.optString(g, "raw_finish_reason", c.rawFinishReason());
        } else if (e instanceof Warning w) {
            // not opaque state: the same in both forms
            g.writeStringProperty("code", w.code());
            g.writeStringProperty("message", w.message());
            JsonOut.optLong(g, "turn", w.turn() == null ? null : Long.valueOf(w.turn()));
            JsonOut.optLong(g, "part", w.part() == null ? null : Long.valueOf(w.part()));
        } else if (e instanceof OutputChecked c) {
            // the model's answer and the SDK's verdict on it, no opaque state: the same in both forms
            g.writeStringProperty("schema", c.schemaName());
            g.writeStringProperty("method", c.method().name().toLowerCase(Locale.ROOT));
            g.writeBooleanProperty("valid", c.valid());
            g.writeArrayPropertyStart("violations");
            for (String v : c.violations()) {
                g.writeString(v);
            }
            g.writeEndArray();
            if (c.retrying()) {
                g.writeBooleanProperty("retrying", true);
            }
            JsonOut.optString(g, "json", c.json());
        } else {
            throw unhandled(e);
        }
    }

    /**
     * Reads an event written by {@link #write(ChatEvent)}.
     *
     * <p>Unknown properties are ignored, so a newer writer's additions do not break an older reader;
     * an unknown {@code finish_reason} reads as {@link FinishReason#OTHER}.
     *
     * @param json one event's JSON
     * @return the event
     * @throws ProtocolException {@code MALFORMED_JSON} for text that is not one JSON value,
     *     {@code UNEXPECTED_SHAPE} for JSON that is not an event (no or an unknown {@code type}, a
     *     missing or mistyped field, a negative part, a value the event refuses, such as a warning
     *     without a code); the message names the field, never a value
     */
    public static ChatEvent read(String json) {
        JsonTree.Obj o = JsonTree.parseObject(json, "an event");
        try {
            return event(o);
        } catch (IllegalArgumentException e) {
            // the shape was right, but a value the event refuses (a warning without a code): still not an event
            throw JsonTree.invalid("an event", e);
        }
    }

    private static ChatEvent event(JsonTree.Obj o) {
        String type = o.requireString("type");
        switch (type) {
            case "response.started":
                JsonTree.Obj origin = o.object("origin");
                return new ResponseStarted(o.requireString("provider"), o.string("model"), o.string("response_id"),
                        origin == null ? null : JsonOut.readOrigin(origin), o.string("requested_model"));
            case "reasoning.delta":
                return new ReasoningDelta(o.requireIndex("part"), o.requireString("text"), o.bool("summary", false),
                        requireOr(o.string("source"), "unknown"));
            case "content.delta":
                return new ContentDelta(o.requireIndex("part"), o.requireString("text"));
            case "tool_call.delta":
                return new ToolCallDelta(o.requireIndex("part"), o.requireIndex("tool_index"), o.string("id"),
                        o.string("name"), requireOr(o.string("arguments"), ""));
            case "server_tool":
                return new ServerToolBlock(o.requireIndex("part"), o.requireString("block_type"), o.string("id"),
                        o.string("name"), JsonOut.readEmbedded(o, "block"));
            case "seal":
                return new Seal(o.requireIndex("part"), sealKind(o), o.requireString("value"));
            case "part.ended":
                return new PartEnded(o.requireIndex("part"));
            case "reasoning.final":
                return new ReasoningFinal(o.requireIndex("part"), o.requireString("text"));
            case "usage":
                return new UsageUpdate(JsonOut.readUsage(o));
            case "response.completed":
                return new ResponseCompleted(finishReason(o.string("finish_reason")), o.string("raw_finish_reason"));
            case "warning":
                return new Warning(o.requireString("code"), o.requireString("message"), optIndex(o, "turn"),
                        optIndex(o, "part"));
            case "output.checked":
                return new OutputChecked(o.requireString("schema"), method(o), o.bool("valid", false),
                        strings(o, "violations"), o.bool("retrying", false), o.string("json"));
            default:
                throw JsonTree.shape("unknown event type (" + type.length() + " chars); expected one of "
                        + "response.started, reasoning.delta, content.delta, tool_call.delta, server_tool, seal, "
                        + "part.ended, reasoning.final, usage, response.completed, warning, output.checked");
        }
    }

    private static StructuredOutputMethod method(JsonTree.Obj o) {
        String method = o.requireString("method");
        for (StructuredOutputMethod m : StructuredOutputMethod.values()) {
            if (m.name().toLowerCase(Locale.ROOT).equals(method)) {
                return m;
            }
        }
        throw JsonTree.shape(o.where("method") + " must be one of native, tool_forced, tool_auto, json_mode, instruction");
    }

    /** Reads an optional array of strings: empty when absent. */
    private static List<String> strings(JsonTree.Obj o, String name) {
        JsonTree.Arr array = o.array(name);
        if (array == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Object item : array.items()) {
            if (!(item instanceof String s)) {
                throw JsonTree.shape(o.where(name) + " must hold strings only");
            }
            out.add(s);
        }
        return out;
    }

    /** Reads an optional non-negative index: null when absent or null. */
    private static @Nullable Integer optIndex(JsonTree.Obj o, String name) {
        return o.longValue(name) == null ? null : o.requireIndex(name);
    }

    /**
     * Turns events into Server-Sent Events for a front end, leaving out opaque provider state:
     * {@link Seal} events are dropped, and a {@code server_tool} event goes without its provider
     * {@code block} (a provider's tool result may itself hold encrypted content, as Anthropic's web
     * search results do). Same as {@code toSse(events, ProviderState.OMIT)}.
     *
     * @param events the events
     * @return one frame per event kept, in order; see {@link #toSse(Flux, ProviderState)}
     */
    public static Flux<SseFrame> toSse(Flux<ChatEvent> events) {
        return toSse(events, ProviderState.OMIT);
    }

    /**
     * Turns events into Server-Sent Events: the event name is the JSON {@code type}, the data the
     * event's JSON.
     *
     * <p>Backpressure, cancellation and errors pass through unchanged: an upstream error is
     * signalled as {@code onError} (the web layer decides how to report it), never as a frame.
     *
     * @param events the events
     * @param state {@link ProviderState#INCLUDE} to keep {@link Seal} events and server tool blocks
     *     whole, {@link ProviderState#OMIT} to drop seals and write server tool events without their
     *     {@code block}
     * @return one frame per event kept, in order
     */
    public static Flux<SseFrame> toSse(Flux<ChatEvent> events, ProviderState state) {
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(state, "state");
        Flux<ChatEvent> kept = state == ProviderState.INCLUDE ? events : events.filter(e -> !(e instanceof Seal));
        return kept.map(e -> new SseFrame(type(e), write(e, state)));
    }

    /**
     * Writes a stream's failure as the last frame for a front end: event {@code response.failed},
     * data {@code {"type":"response.failed","error":{"type":…,"message":…,"retryable":…}}} (not
     * named {@code error}, which an {@code EventSource} also fires for a lost connection).
     *
     * <p>Why a frame: once an SSE response has started, a browser cannot see an HTTP error, and a
     * stream that just breaks makes an {@code EventSource} reconnect and ask the provider again. A
     * {@link RuminateException} gives its {@link RuminateException#type() type}, its message (API
     * keys are redacted from it at the source) and whether a retry is reasonable; any other throwable
     * is written as type {@code internal} with a fixed message, since its text was never meant for a
     * client. The partial message is not written: the deltas before the error already carried it.
     *
     * @param error the stream's failure
     * @return the frame
     */
    public static SseFrame errorFrame(Throwable error) {
        Objects.requireNonNull(error, "error");
        return new SseFrame(FAILED, failure(FAILED, error));
    }

    /** Writes a failure frame's JSON under the given type; the loop's {@code loop.failed} shares it. */
    static String failure(String type, Throwable error) {
        return JsonOut.write(g -> {
            g.writeStartObject();
            g.writeStringProperty("type", type);
            g.writeName("error");
            g.writeStartObject();
            if (error instanceof RuminateException r) {
                g.writeStringProperty("type", r.type());
                g.writeStringProperty("message", String.valueOf(r.getMessage()));
                g.writeBooleanProperty("retryable", r.isRetryable());
            } else {
                g.writeStringProperty("type", "internal");
                g.writeStringProperty("message", "the stream failed");
                g.writeBooleanProperty("retryable", false);
            }
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    /**
     * {@link #toSse(Flux)} for a browser: the same frames, and in place of an upstream error one
     * final {@link #errorFrame(Throwable) response.failed frame}, after which the flux completes.
     *
     * @param events the events
     * @return the frames, never ending in an error signal
     */
    public static Flux<SseFrame> toSseForClient(Flux<ChatEvent> events) {
        return toSse(events).onErrorResume(e -> Flux.just(errorFrame(e)));
    }

    private static Seal.Kind sealKind(JsonTree.Obj o) {
        String kind = o.requireString("kind");
        for (Seal.Kind k : Seal.Kind.values()) {
            if (k.name().toLowerCase(Locale.ROOT).equals(kind)) {
                return k;
            }
        }
        throw JsonTree.shape(o.where("kind") + " must be one of signature, redacted, encrypted, item_id, format");
    }

    static FinishReason finishReason(@Nullable String wire) {
        if (wire == null) {
            return FinishReason.OTHER;
        }
        for (FinishReason r : FinishReason.values()) {
            if (r.wireName().equals(wire)) {
                return r;
            }
        }
        return FinishReason.OTHER;
    }

    private static String requireOr(@Nullable String value, String absent) {
        return value != null ? value : absent;
    }
}
