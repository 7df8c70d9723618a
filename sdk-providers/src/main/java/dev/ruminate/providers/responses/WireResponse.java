package dev.ruminate.providers.responses;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The fields of a {@code response} object (a non-streaming body, or the {@code response} of a
 * {@code response.created}/{@code completed}/{@code incomplete}/{@code failed} event) that decoding needs.
 */
final class WireResponse {

    @Nullable String id;
    @Nullable String model;
    @Nullable String status;
    @Nullable String incompleteReason;
    /** The exact JSON of a non-null {@code error} object, or null. */
    byte @Nullable [] error;
    @Nullable Long inputTokens;
    @Nullable Long outputTokens;
    @Nullable Long reasoningTokens;
    @Nullable Long cachedTokens;
    /** The {@code output} items; the list position is the item's {@code output_index}. */
    final List<WireItem> output = new ArrayList<>(4);
    boolean hasOutput;

    boolean hasUsage() {
        return inputTokens != null || outputTokens != null || reasoningTokens != null || cachedTokens != null;
    }
}
