package dev.ruminate.providers.gemini;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** One {@code Part} of a chunk's candidate content, as read from the wire. Mutable, reused per chunk. */
final class GeminiPart {

    /** One {@code partialArgs} entry of a streamed function call (Vertex AI). */
    record PartialArg(String jsonPath, @Nullable String jsonValue, @Nullable String stringValue, boolean willContinue) {
    }

    @Nullable String text;
    boolean thought;
    @Nullable String signature;
    boolean functionCall;
    @Nullable String callName;
    @Nullable String callId;
    /** The {@code args} object's exact JSON, or null when absent. */
    @Nullable String callArgs;
    boolean callWillContinue;
    final List<PartialArg> partialArgs = new ArrayList<>();
    /** For {@code executableCode} / {@code codeExecutionResult}: the key, and the whole part's JSON. */
    @Nullable String serverType;
    @Nullable String serverJson;

    boolean isEmptyFunctionCall() {
        return functionCall && callName == null && callArgs == null && partialArgs.isEmpty() && !callWillContinue;
    }
}
