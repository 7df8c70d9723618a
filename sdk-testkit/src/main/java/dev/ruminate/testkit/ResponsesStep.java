package dev.ruminate.testkit;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** One output item of a {@link ResponsesScript}, in output order. */
sealed interface ResponsesStep {

    /** A reasoning item: summary parts, or raw {@code reasoning_text}, and its encrypted state. */
    record Reasoning(String id, List<String> summaries, @Nullable String rawText, @Nullable String encryptedContent)
            implements ResponsesStep {
    }

    /** A message item with one {@code output_text} part. */
    record Text(String id, String text) implements ResponsesStep {
    }

    /** A {@code function_call} item. */
    record FunctionCall(String id, String callId, String name, String arguments) implements ResponsesStep {
    }
}
