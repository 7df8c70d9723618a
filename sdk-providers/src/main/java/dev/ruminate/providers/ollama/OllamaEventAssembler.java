package dev.ruminate.providers.ollama;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Turns parsed Ollama lines into events, assigning dense part indices in order of appearance.
 *
 * <p>A new part opens whenever output changes kind (thinking, answer text), so thinking after text
 * is a new reasoning part. Tool calls arrive whole: each is one part with one
 * {@link ToolCallDelta} (id, name and the complete arguments), ended at once, numbered 0, 1, 2… in
 * order of arrival: a whole call needs no index to be assembled, and how the wire's
 * {@code function.index} counts across lines is not documented, so it is not relied on. Within a line,
 * thinking comes before content and content before tool calls, the order a model produces them.
 * The {@code done} line ends every part and adds usage ({@code prompt_eval_count} as input,
 * {@code eval_count} as output; Ollama reports no reasoning count) and the completion:
 * {@code TOOL_CALLS} when the response called a tool (Ollama says {@code stop} then), else
 * {@code done_reason} {@code stop} → {@code STOP}, {@code length} → {@code LENGTH}, absent →
 * {@code STOP} (older servers omit it), anything else → {@code OTHER}; the raw reason is kept.
 *
 * <p>One instance per response; not thread-safe.
 */
final class OllamaEventAssembler {

    /** The wire field reasoning comes from, on chat and generate alike. */
    static final String THINKING = "thinking";

    private enum Kind { NONE, REASONING, CONTENT }

    private final String provider;
    private boolean started;
    private boolean completed;
    private int nextPart;
    private int current = -1;
    private Kind kind = Kind.NONE;
    private int nextToolIndex;
    private boolean toolsSeen;

    OllamaEventAssembler(String provider) {
        this.provider = provider;
    }

    boolean started() {
        return started;
    }

    boolean completed() {
        return completed;
    }

    /** Adds the events of one line; a {@code done} line completes the response. */
    void apply(OllamaLine line, List<ChatEvent> out) {
        if (!started) {
            started = true;
            out.add(new ResponseStarted(provider, blankToNull(line.model), null));
        }
        String thinking = line.thinking;
        if (thinking != null && !thinking.isEmpty()) {
            if (kind != Kind.REASONING) {
                open(Kind.REASONING, out);
            }
            out.add(new ReasoningDelta(current, thinking, false, THINKING));
        }
        String content = line.content;
        if (content != null && !content.isEmpty()) {
            if (kind != Kind.CONTENT) {
                open(Kind.CONTENT, out);
            }
            out.add(new ContentDelta(current, content));
        }
        // by index: an iterator per line showed in the allocation profile, and almost every line has no call
        List<OllamaLine.ToolCall> calls = line.toolCalls;
        for (int i = 0; i < calls.size(); i++) {
            OllamaLine.ToolCall call = calls.get(i);
            endCurrent(out);
            int part = nextPart++;
            toolsSeen = true;
            out.add(new ToolCallDelta(part, nextToolIndex++, blankToNull(call.id()), blankToNull(call.name()),
                    call.arguments()));
            out.add(new PartEnded(part));
        }
        if (line.done) {
            complete(line, out);
        }
    }

    private void complete(OllamaLine line, List<ChatEvent> out) {
        endCurrent(out);
        if (line.promptEvalCount != null || line.evalCount != null) {
            out.add(new UsageUpdate(new Usage(line.promptEvalCount, line.evalCount, null, null)));
        }
        out.add(new ResponseCompleted(finish(line.doneReason), line.doneReason));
        completed = true;
    }

    private FinishReason finish(@Nullable String doneReason) {
        if (toolsSeen) {
            return FinishReason.TOOL_CALLS;
        }
        if (doneReason == null) {
            return FinishReason.STOP;
        }
        return switch (doneReason) {
            case "stop" -> FinishReason.STOP;
            case "length" -> FinishReason.LENGTH;
            default -> FinishReason.OTHER;
        };
    }

    private void open(Kind newKind, List<ChatEvent> out) {
        endCurrent(out);
        current = nextPart++;
        kind = newKind;
    }

    private void endCurrent(List<ChatEvent> out) {
        if (kind != Kind.NONE) {
            out.add(new PartEnded(current));
            kind = Kind.NONE;
            current = -1;
        }
    }

    private static @Nullable String blankToNull(@Nullable String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
