package dev.ruminate.providers.responses;

import org.jspecify.annotations.Nullable;

/**
 * The fields of one streamed event that decoding needs. Absent indices are {@code -1}; absent
 * strings null.
 */
final class WireEvent {

    @Nullable String type;
    int outputIndex = -1;
    int summaryIndex = -1;
    int contentIndex = -1;
    @Nullable String itemId;
    @Nullable String delta;
    @Nullable String text;
    @Nullable String refusal;
    @Nullable String arguments;
    @Nullable String input;
    @Nullable String partType;
    @Nullable String partText;
    @Nullable WireItem item;
    @Nullable WireResponse response;
}
