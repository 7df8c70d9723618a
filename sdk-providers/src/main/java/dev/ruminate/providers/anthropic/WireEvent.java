package dev.ruminate.providers.anthropic;

import dev.ruminate.core.message.Usage;
import org.jspecify.annotations.Nullable;

/**
 * One streamed event's data as read from the wire ({@code message_start}, {@code content_block_delta},
 * …), or a whole message body. Mutable and reused by the parser: a field the data does not hold is
 * null (or -1).
 */
final class WireEvent {

    @Nullable String type;
    int index = -1;
    /** Set when the data held a {@code content_block}. */
    boolean hasBlock;
    final WireBlock block = new WireBlock();
    @Nullable String deltaType;
    /** The delta's text: {@code text}, {@code thinking}, {@code signature} or {@code partial_json}. */
    @Nullable String deltaText;
    @Nullable String stopReason;
    /** The message's own {@code type}: {@code message}, or {@code error} for an error body. */
    @Nullable String messageType;
    @Nullable String messageId;
    @Nullable String model;
    @Nullable Usage usage;

    void clear() {
        type = null;
        index = -1;
        hasBlock = false;
        block.clear();
        deltaType = null;
        deltaText = null;
        stopReason = null;
        messageType = null;
        messageId = null;
        model = null;
        usage = null;
    }
}
