package dev.ruminate.core.message;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the model answered: its parts in the order it produced them, with usage and why it stopped.
 *
 * <p>Interleaved output stays interleaved: reasoning, a tool call, more reasoning and then text are
 * four parts in that order. This is the message to send back, unchanged, on the next turn; the
 * client's {@link dev.ruminate.core.history.History} decides what of it reaches the provider.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param parts the parts, in provider order (an unmodifiable copy is kept)
 * @param provider the provider that produced it, if known
 * @param model the model that produced it, if known
 * @param finishReason why it stopped
 * @param rawFinishReason the provider's own finish value, if any
 * @param usage token counts
 * @since 0.1
 */
public record AssistantMessage(List<Part> parts, @Nullable String provider, @Nullable String model,
                               FinishReason finishReason, @Nullable String rawFinishReason, Usage usage)
        implements Message {

    /**
     * Creates the value, checking its components.
     *
     * @param parts see {@link #parts()}
     * @param provider see {@link #provider()}
     * @param model see {@link #model()}
     * @param finishReason see {@link #finishReason()}
     * @param rawFinishReason see {@link #rawFinishReason()}
     * @param usage see {@link #usage()}
     */
    public AssistantMessage {
        parts = List.copyOf(parts);
        Objects.requireNonNull(finishReason, "finishReason");
        Objects.requireNonNull(usage, "usage");
    }

    /**
     * Creates a message holding only answer text, for conversations built by hand.
     *
     * @param text the answer
     * @return the message
     */
    public static AssistantMessage ofText(String text) {
        return new AssistantMessage(List.of(TextPart.of(text)), null, null, FinishReason.STOP, null, Usage.UNKNOWN);
    }

    /**
     * Returns the answer: the text parts joined in order.
     *
     * @return the text, empty if none
     */
    public String text() {
        StringBuilder sb = new StringBuilder();
        for (Part p : parts) {
            if (p instanceof TextPart t) {
                sb.append(t.text());
            }
        }
        return sb.toString();
    }

    /**
     * Returns the reasoning: the reasoning parts' text joined in order.
     *
     * @return the reasoning, empty if none
     */
    public String reasoning() {
        StringBuilder sb = new StringBuilder();
        for (Part p : parts) {
            if (p instanceof ReasoningPart r) {
                sb.append(r.text());
            }
        }
        return sb.toString();
    }

    /**
     * Returns the tool calls in order.
     *
     * @return the calls, empty if none
     */
    public List<ToolCallPart> toolCalls() {
        return parts.stream().filter(ToolCallPart.class::isInstance).map(ToolCallPart.class::cast).toList();
    }
}
