package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.error.IncompleteStreamException;
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
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.serving.OpenAiError;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * The state of one encoded Chat Completions stream: whether the role chunk went, the tool calls
 * and their indices, the reasoning parts written, the usage. See {@link ChatCompletionsStreamEncoder}
 * for the chunks written.
 *
 * <p>One instance per subscription; not thread-safe (Reactor delivers signals serially).
 */
final class CompletionChunkWriter {

    /** The SSE event name of every frame: the default one, which OpenAI's stream leaves implicit. */
    static final String EVENT = "message";
    static final String DONE = "[DONE]";

    private final ChatCompletionsStreamOptions options;
    private final String id;
    private final long created;
    private @Nullable String model;
    private boolean started;
    private boolean terminal;
    private Usage usage = Usage.UNKNOWN;
    private final Set<Integer> reasoningParts = new HashSet<>();
    private final Map<Integer, Call> calls = new HashMap<>();
    private final List<Call> callOrder = new ArrayList<>();

    CompletionChunkWriter(ChatCompletionsStreamOptions options) {
        this.options = options;
        this.id = options.completionId().get();
        this.created = options.created().getAsLong();
        this.model = options.model();
    }

    /** Returns the frames of one upstream event. */
    List<SseFrame> onEvent(ChatEvent e) {
        List<SseFrame> out = new ArrayList<>(2);
        if (terminal) {
            return out;
        }
        if (e instanceof ResponseStarted s) {
            if (model == null) {
                model = s.model();
            }
            start(out);
        } else if (e instanceof ReasoningDelta r) {
            start(out);
            reasoning(r.part(), r.text(), out);
        } else if (e instanceof ReasoningFinal f) {
            start(out);
            // a final text after deltas cannot correct what the client has; one with no deltas before it is the whole part
            if (!reasoningParts.contains(f.part())) {
                reasoning(f.part(), f.text(), out);
            }
        } else if (e instanceof ContentDelta c) {
            start(out);
            if (!c.text().isEmpty()) {
                out.add(chunk(g -> g.writeStringProperty("content", c.text()), null));
            }
        } else if (e instanceof ToolCallDelta t) {
            start(out);
            toolCall(t, out);
        } else if (e instanceof PartEnded p) {
            Call call = calls.get(p.part());
            if (call != null) {
                announce(call, "", out);
            }
        } else if (e instanceof UsageUpdate u) {
            usage = usage.merge(u.usage());
        } else if (e instanceof ResponseCompleted c) {
            start(out);
            complete(c.finishReason(), out);
        } else if (!(e instanceof Seal || e instanceof ServerToolBlock || e instanceof Warning
                || e instanceof OutputChecked)) {
            // Seals and server tool blocks are left out on purpose (see ChatCompletionsStreamEncoder), and so
            // are warnings and structured-output verdicts: they are the SDK's notes to its own caller and a chunk has no place for them; a type
            // added to ChatEvent later must fail here, not vanish from the stream unnoticed.
            throw new IllegalStateException("the Chat Completions encoder does not handle the event type "
                    + e.getClass().getName());
        }
        return out;
    }

    /** Returns the frames when the upstream completes: an error chunk when it ended before ResponseCompleted. */
    List<SseFrame> onComplete() {
        List<SseFrame> out = new ArrayList<>(1);
        if (!terminal) {
            failed(OpenAiError.ofUpstreamFailure(
                    new IncompleteStreamException("the upstream ended before the response was complete", null)), out);
        }
        return out;
    }

    /** Returns the frames when the upstream fails: one error chunk. */
    List<SseFrame> onError(Throwable error) {
        List<SseFrame> out = new ArrayList<>(1);
        if (!terminal) {
            failed(OpenAiError.ofUpstreamFailure(error), out);
        }
        return out;
    }

    private void start(List<SseFrame> out) {
        if (!started) {
            started = true;
            out.add(chunk(g -> {
                g.writeStringProperty("role", "assistant");
                g.writeStringProperty("content", "");
            }, null));
        }
    }

    private void reasoning(int part, String text, List<SseFrame> out) {
        if (text.isEmpty()) {
            return;
        }
        reasoningParts.add(part);
        ChatCompletionsReasoningField field = options.reasoningField();
        out.add(chunk(g -> {
            if (field.writesReasoningContent()) {
                g.writeStringProperty("reasoning_content", text);
            }
            if (field.writesReasoning()) {
                g.writeStringProperty("reasoning", text);
            }
        }, null));
    }

    /**
     * Writes a call fragment. A call is announced (index, id, type, name) once its name is known:
     * clients take the first fragment of an index to hold the name, so arguments that come first are
     * held until then.
     */
    private void toolCall(ToolCallDelta t, List<SseFrame> out) {
        Call call = calls.get(t.part());
        if (call == null) {
            call = new Call(callOrder.size());
            calls.put(t.part(), call);
            callOrder.add(call);
        }
        if (call.id == null) {
            call.id = t.id();
        }
        if (call.name == null) {
            call.name = t.name();
        }
        if (!call.announced) {
            call.pending.append(t.argumentsDelta());
            if (call.name != null) {
                announce(call, call.name, out);
            }
            return;
        }
        if (!t.argumentsDelta().isEmpty()) {
            int index = call.index;
            out.add(chunk(g -> {
                g.writeArrayPropertyStart("tool_calls");
                g.writeStartObject();
                g.writeNumberProperty("index", index);
                g.writeObjectPropertyStart("function");
                g.writeStringProperty("arguments", t.argumentsDelta());
                g.writeEndObject();
                g.writeEndObject();
                g.writeEndArray();
            }, null));
        }
    }

    /** Writes a call's first fragment, if not yet written; {@code fallbackName} for a call that never got one. */
    private void announce(Call call, String fallbackName, List<SseFrame> out) {
        if (call.announced) {
            return;
        }
        call.announced = true;
        String callId = call.id != null ? call.id : CompletionJson.callId(id, call.index);
        String name = call.name != null ? call.name : fallbackName;
        String arguments = call.pending.toString();
        call.pending.setLength(0);
        out.add(chunk(g -> {
            g.writeArrayPropertyStart("tool_calls");
            g.writeStartObject();
            g.writeNumberProperty("index", call.index);
            g.writeStringProperty("id", callId);
            g.writeStringProperty("type", "function");
            g.writeObjectPropertyStart("function");
            g.writeStringProperty("name", name);
            g.writeStringProperty("arguments", arguments);
            g.writeEndObject();
            g.writeEndObject();
            g.writeEndArray();
        }, null));
    }

    private void complete(FinishReason reason, List<SseFrame> out) {
        for (Call call : callOrder) {
            announce(call, "", out);
        }
        if (reason == FinishReason.ERROR) {
            failed(new OpenAiError(502, "server_error", "server_error",
                    "The model provider reported an error during the response.", null), out);
            return;
        }
        terminal = true;
        String finish = CompletionJson.finishReason(reason, !callOrder.isEmpty());
        out.add(chunk(g -> {
        }, finish));
        if (options.includeUsage()) {
            out.add(new SseFrame(EVENT, CompletionJson.write(256, g -> {
                g.writeStartObject();
                head(g);
                g.writeArrayPropertyStart("choices");
                g.writeEndArray();
                CompletionJson.writeUsage(g, usage);
                g.writeEndObject();
            })));
        }
        out.add(new SseFrame(EVENT, DONE));
    }

    /** Ends the stream with {@code {"error": …}}, which openai-node raises as an APIError; no [DONE] follows. */
    private void failed(OpenAiError error, List<SseFrame> out) {
        terminal = true;
        out.add(new SseFrame(EVENT, "{\"error\":" + error.toErrorObjectJson() + "}"));
    }

    /** Writes one chunk of the single choice: its delta, and its finish reason (null while streaming). */
    private SseFrame chunk(Consumer<JsonGenerator> delta, @Nullable String finishReason) {
        return new SseFrame(EVENT, CompletionJson.write(192, g -> {
            g.writeStartObject();
            head(g);
            g.writeArrayPropertyStart("choices");
            g.writeStartObject();
            g.writeNumberProperty("index", 0);
            g.writeObjectPropertyStart("delta");
            delta.accept(g);
            g.writeEndObject();
            g.writeNullProperty("logprobs");
            JsonWriting.nullableString(g, "finish_reason", finishReason);
            g.writeEndObject();
            g.writeEndArray();
            if (options.includeUsage()) {
                // as OpenAI does: every chunk but the last has "usage": null when usage was asked for
                g.writeNullProperty("usage");
            }
            g.writeEndObject();
        }));
    }

    private void head(JsonGenerator g) {
        g.writeStringProperty("id", id);
        g.writeStringProperty("object", "chat.completion.chunk");
        g.writeNumberProperty("created", created);
        g.writeStringProperty("model", CompletionJson.orEmpty(model));
    }

    /** A tool call being streamed. */
    private static final class Call {
        final int index;
        @Nullable String id;
        @Nullable String name;
        boolean announced;
        final StringBuilder pending = new StringBuilder();

        Call(int index) {
            this.index = index;
        }
    }
}
