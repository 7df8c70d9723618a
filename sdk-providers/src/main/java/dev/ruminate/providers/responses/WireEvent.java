package dev.ruminate.providers.responses;

import org.jspecify.annotations.Nullable;

/**
 * The fields of one streamed event that decoding needs. Absent indices are {@code -1}; absent
 * strings null. The texts that repeat what deltas already gave are {@link WireText}s, decoded only
 * if used.
 */
final class WireEvent {

    @Nullable String type;
    int outputIndex = -1;
    int summaryIndex = -1;
    int contentIndex = -1;
    @Nullable String itemId;
    @Nullable String delta;
    @Nullable WireText text;
    @Nullable WireText refusal;
    @Nullable WireText arguments;
    @Nullable WireText input;
    @Nullable String partType;
    @Nullable WireText partText;
    @Nullable WireItem item;
    @Nullable WireResponse response;

    /** Clears every field, for a decoder that fills one instance event after event. */
    void reset() {
        type = null;
        outputIndex = -1;
        summaryIndex = -1;
        contentIndex = -1;
        itemId = null;
        delta = null;
        text = null;
        refusal = null;
        arguments = null;
        input = null;
        partType = null;
        partText = null;
        item = null;
        response = null;
    }
}
