package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderStreamException;
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
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Gathers the events of one response into a non-streaming {@code chat.completion} body. See
 * {@link ChatCompletionsStreamEncoder#encodeBody} for what it holds.
 *
 * <p>One instance per subscription; not thread-safe (Reactor delivers signals serially).
 */
final class CompletionBodyWriter {

    private final ChatCompletionsStreamOptions options;
    private @Nullable String model;
    private String provider = "upstream";
    private final StringBuilder reasoning = new StringBuilder();
    private final Set<Integer> reasoningParts = new HashSet<>();
    private final StringBuilder text = new StringBuilder();
    private final Map<Integer, Call> calls = new HashMap<>();
    private final List<Call> callOrder = new ArrayList<>();
    private Usage usage = Usage.UNKNOWN;
    private @Nullable FinishReason finish;

    CompletionBodyWriter(ChatCompletionsStreamOptions options) {
        this.options = options;
        this.model = options.model();
    }

    /** Takes one upstream event; events after the response completed are ignored. */
    void onEvent(ChatEvent e) {
        if (finish != null) {
            return;
        }
        if (e instanceof ResponseStarted s) {
            provider = s.provider();
            if (model == null) {
                model = s.model();
            }
        } else if (e instanceof ReasoningDelta r) {
            if (!r.text().isEmpty()) {
                reasoningParts.add(r.part());
                reasoning.append(r.text());
            }
        } else if (e instanceof ReasoningFinal f) {
            if (!reasoningParts.contains(f.part()) && !f.text().isEmpty()) {
                reasoningParts.add(f.part());
                reasoning.append(f.text());
            }
        } else if (e instanceof ContentDelta c) {
            text.append(c.text());
        } else if (e instanceof ToolCallDelta t) {
            Call call = calls.computeIfAbsent(t.part(), p -> {
                Call c = new Call();
                callOrder.add(c);
                return c;
            });
            if (call.id == null) {
                call.id = t.id();
            }
            if (call.name == null) {
                call.name = t.name();
            }
            call.arguments.append(t.argumentsDelta());
        } else if (e instanceof UsageUpdate u) {
            usage = usage.merge(u.usage());
        } else if (e instanceof ResponseCompleted c) {
            finish = c.finishReason();
        } else if (!(e instanceof Seal || e instanceof ServerToolBlock || e instanceof PartEnded || e instanceof Warning
                || e instanceof OutputChecked)) {
            // a Warning or a structured-output verdict is the SDK's note to its own caller: a completion body has
            // no place for it
            throw new IllegalStateException("the Chat Completions encoder does not handle the event type "
                    + e.getClass().getName());
        }
    }

    /**
     * Writes the body once the upstream completed.
     *
     * @throws IncompleteStreamException when the upstream ended before {@code ResponseCompleted}
     * @throws ProviderStreamException when the upstream reported that its response failed
     */
    String body() {
        FinishReason reason = finish;
        if (reason == null) {
            throw new IncompleteStreamException("the upstream ended before the response was complete", null);
        }
        if (reason == FinishReason.ERROR) {
            throw new ProviderStreamException(provider,
                    new ProviderError(null, null, "the model's response ended in an error", null));
        }
        String id = options.completionId().get();
        long created = options.created().getAsLong();
        ChatCompletionsReasoningField field = options.reasoningField();
        return CompletionJson.write(256 + reasoning.length() + text.length(), g -> {
            g.writeStartObject();
            g.writeStringProperty("id", id);
            g.writeStringProperty("object", "chat.completion");
            g.writeNumberProperty("created", created);
            g.writeStringProperty("model", CompletionJson.orEmpty(model));
            g.writeArrayPropertyStart("choices");
            g.writeStartObject();
            g.writeNumberProperty("index", 0);
            g.writeObjectPropertyStart("message");
            g.writeStringProperty("role", "assistant");
            if (text.isEmpty() && !callOrder.isEmpty()) {
                g.writeNullProperty("content");
            } else {
                g.writeStringProperty("content", text.toString());
            }
            if (!reasoning.isEmpty()) {
                if (field.writesReasoningContent()) {
                    g.writeStringProperty("reasoning_content", reasoning.toString());
                }
                if (field.writesReasoning()) {
                    g.writeStringProperty("reasoning", reasoning.toString());
                }
            }
            g.writeNullProperty("refusal");
            if (!callOrder.isEmpty()) {
                g.writeArrayPropertyStart("tool_calls");
                for (int i = 0; i < callOrder.size(); i++) {
                    Call call = callOrder.get(i);
                    g.writeStartObject();
                    g.writeStringProperty("id", call.id != null ? call.id : CompletionJson.callId(id, i));
                    g.writeStringProperty("type", "function");
                    g.writeObjectPropertyStart("function");
                    g.writeStringProperty("name", CompletionJson.orEmpty(call.name));
                    g.writeStringProperty("arguments", call.arguments.toString());
                    g.writeEndObject();
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            g.writeEndObject();
            g.writeNullProperty("logprobs");
            g.writeStringProperty("finish_reason", CompletionJson.finishReason(reason, !callOrder.isEmpty()));
            g.writeEndObject();
            g.writeEndArray();
            CompletionJson.writeUsage(g, usage);
            g.writeEndObject();
        });
    }

    /** A tool call being gathered. */
    private static final class Call {
        @Nullable String id;
        @Nullable String name;
        final StringBuilder arguments = new StringBuilder();
    }
}
