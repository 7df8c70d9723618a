package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.internal.JsonWriting;
import java.io.StringWriter;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;

/**
 * What the chunk and body writers of the Chat Completions server side write alike: the usage
 * object, the finish reason, ids for calls the upstream left without one. Stateless.
 */
final class CompletionJson {

    private CompletionJson() {
    }

    /** Writes JSON text with one generator. */
    static String write(int capacity, Consumer<JsonGenerator> body) {
        StringWriter out = new StringWriter(capacity);
        try (JsonGenerator g = JsonWriting.JSON.createGenerator(ObjectWriteContext.empty(), out)) {
            body.accept(g);
        }
        return out.toString();
    }

    /**
     * Writes the {@code usage} property: every count OpenAI's types declare, 0 where the upstream did
     * not report it (clients add these up; a missing count breaks typed clients, a 0 does not).
     */
    static void writeUsage(JsonGenerator g, Usage usage) {
        long prompt = orZero(usage.inputTokens());
        long completion = orZero(usage.outputTokens());
        g.writeObjectPropertyStart("usage");
        g.writeNumberProperty("prompt_tokens", prompt);
        g.writeNumberProperty("completion_tokens", completion);
        g.writeNumberProperty("total_tokens", prompt + completion);
        g.writeObjectPropertyStart("prompt_tokens_details");
        g.writeNumberProperty("cached_tokens", orZero(usage.cachedTokens()));
        g.writeEndObject();
        g.writeObjectPropertyStart("completion_tokens_details");
        g.writeNumberProperty("reasoning_tokens", orZero(usage.reasoningTokens()));
        g.writeEndObject();
        g.writeEndObject();
    }

    /**
     * Maps a finish reason to OpenAI's set. A response that called tools ends with
     * {@code tool_calls} unless it was cut: clients run the calls on that value, and some providers
     * (Gemini) report a plain stop after a call.
     */
    static String finishReason(FinishReason reason, boolean calledTools) {
        return switch (reason) {
            case LENGTH -> "length";
            case CONTENT_FILTER -> "content_filter";
            case TOOL_CALLS -> "tool_calls";
            default -> calledTools ? "tool_calls" : "stop";
        };
    }

    /** An id for a call the upstream gave none (Gemini): a client needs one to answer the call. */
    static String callId(String completionId, int index) {
        String suffix = completionId.startsWith("chatcmpl-") ? completionId.substring("chatcmpl-".length()) : completionId;
        return "call_" + suffix + "_" + index;
    }

    static String orEmpty(@Nullable String s) {
        return s == null ? "" : s;
    }

    private static long orZero(@Nullable Long n) {
        return n == null ? 0 : n;
    }
}
