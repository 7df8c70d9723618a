package dev.ruminate.benchmarks;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.reduce.ChatResult;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What one scale stream must end with, compared whole: the answer text, the reasoning, each tool call, why it
 * stopped and the token counts. {@link #expected} derives it from the generated stream (not from decoding its
 * bytes), {@link #of} from what a client reduced.
 *
 * @param text the answer text
 * @param reasoning the reasoning text
 * @param calls each tool call as {@code name(arguments)}, in order, and whether its arguments were complete JSON
 * @param finishReason why the model stopped
 * @param inputTokens prompt tokens, or null where the path does not carry usage
 * @param outputTokens completion tokens, or null likewise
 * @param reasoningTokens reasoning tokens, or null likewise
 */
record ScaleAnswer(String text, String reasoning, List<String> calls, FinishReason finishReason,
                   @Nullable Long inputTokens, @Nullable Long outputTokens, @Nullable Long reasoningTokens) {

    /** What the generated stream says: its texts, its two calls, {@code tool_calls}, its usage chunk. */
    static ScaleAnswer expected(ReasoningStream stream) {
        List<String> calls = List.of("get_weather(" + stream.toolArguments.get(0) + ") valid",
                "search_docs(" + stream.toolArguments.get(1) + ") valid");
        return new ScaleAnswer(stream.content, stream.reasoning, calls, FinishReason.TOOL_CALLS, stream.promptTokens,
                stream.completionTokens, stream.reasoningTokens);
    }

    /** What a client reduced. */
    static ScaleAnswer of(ChatResult result) {
        AssistantMessage m = result.message();
        List<String> calls = new ArrayList<>();
        for (ToolCallPart call : m.toolCalls()) {
            calls.add(call.name() + "(" + call.arguments() + ")" + (call.argumentsValid() ? " valid" : " invalid"));
        }
        return new ScaleAnswer(m.text(), m.reasoning(), calls, m.finishReason(), m.usage().inputTokens(),
                m.usage().outputTokens(), m.usage().reasoningTokens());
    }

    /** The same answer without token counts, for a path that does not carry usage. */
    ScaleAnswer withoutUsage() {
        return new ScaleAnswer(text, reasoning, calls, finishReason, null, null, null);
    }
}
