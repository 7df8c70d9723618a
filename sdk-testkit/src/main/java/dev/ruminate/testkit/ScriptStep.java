package dev.ruminate.testkit;

/** One step of a {@link ChatCompletionsScript}, in the order the stream produces it. */
sealed interface ScriptStep {

    /** Reasoning text, streamed in the script's reasoning fields. */
    record Reasoning(String text) implements ScriptStep {
    }

    /** Answer text, streamed in {@code delta.content}. */
    record Content(String text) implements ScriptStep {
    }

    /** A function call with its whole arguments JSON. */
    record ToolCall(String id, String name, String argumentsJson) implements ScriptStep {
    }

    /** An SSE comment line. */
    record Comment(String text) implements ScriptStep {
    }
}
