package dev.ruminate.providers.gemini;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What one SSE event of a Gemini stream says: a {@code GenerateContentResponse} chunk, an error
 * object, or an Interactions API event ({@code event_type}). Filled by {@link GeminiParser}.
 */
final class GeminiChunk {

    final List<GeminiPart> parts = new ArrayList<>();
    @Nullable String finishReason;
    @Nullable String blockReason;
    @Nullable String modelVersion;
    @Nullable String responseId;
    boolean hasUsage;
    @Nullable Long promptTokens;
    @Nullable Long candidatesTokens;
    @Nullable Long thoughtsTokens;
    @Nullable Long cachedTokens;
    /** An {@code error} object's exact JSON, when the chunk is one. */
    @Nullable String error;

    // The Interactions API.
    @Nullable String eventType;
    int index = -1;
    /** {@code step} fields (strings only) and {@code arguments} as JSON under the key {@code arguments}. */
    final Map<String, String> step = new HashMap<>();
    /** {@code delta} fields (strings only). */
    final Map<String, String> delta = new HashMap<>();
    /** {@code interaction} fields: {@code id}, {@code model}, {@code status}. */
    final Map<String, String> interaction = new HashMap<>();

    /** Empties the chunk for the next event: no parts, every field absent. */
    void clear() {
        parts.clear();
        finishReason = null;
        blockReason = null;
        modelVersion = null;
        responseId = null;
        hasUsage = false;
        promptTokens = null;
        candidatesTokens = null;
        thoughtsTokens = null;
        cachedTokens = null;
        error = null;
        eventType = null;
        index = -1;
        step.clear();
        delta.clear();
        interaction.clear();
    }
}
