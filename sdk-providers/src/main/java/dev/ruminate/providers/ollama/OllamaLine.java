package dev.ruminate.providers.ollama;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What one NDJSON line (or one non-streaming body) says, as parsed. One instance is reused for every
 * line of a response: the parser fills it, the assembler reads it.
 */
final class OllamaLine {

    @Nullable String model;
    /** {@code message.thinking} on chat, top-level {@code thinking} on generate. */
    @Nullable String thinking;
    /** {@code message.content} on chat, {@code response} on generate. */
    @Nullable String content;
    final List<ToolCall> toolCalls = new ArrayList<>();
    boolean done;
    @Nullable String doneReason;
    @Nullable Long promptEvalCount;
    @Nullable Long evalCount;
    /** True when the line has a non-null {@code error}: Ollama's error shape, in a stream or a body. */
    boolean error;

    void reset() {
        model = null;
        thinking = null;
        content = null;
        toolCalls.clear();
        done = false;
        doneReason = null;
        promptEvalCount = null;
        evalCount = null;
        error = false;
    }

    /**
     * One whole tool call.
     *
     * @param id the call's {@code id}, which newer servers send, or null
     * @param name the function name, or null when missing
     * @param arguments the exact JSON text of {@code function.arguments} (an object on the wire; a
     *     string value is taken as the text it holds), empty when absent
     */
    record ToolCall(@Nullable String id, @Nullable String name, String arguments) {
    }
}
