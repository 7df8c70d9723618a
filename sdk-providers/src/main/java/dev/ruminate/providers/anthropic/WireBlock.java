package dev.ruminate.providers.anthropic;

import org.jspecify.annotations.Nullable;

/**
 * One content block as read from the wire (a {@code content_block_start}'s {@code content_block}, or
 * an element of a whole message's {@code content}): the fields the decoder needs, and where the block,
 * its {@code input} and its {@code content} sit in the bytes it was read from, so that server-tool and
 * compaction blocks are kept byte for byte. Mutable and reused by the parser; one per parser.
 */
final class WireBlock {

    @Nullable String type;
    @Nullable String id;
    @Nullable String toolUseId;
    @Nullable String name;
    @Nullable String text;
    @Nullable String thinking;
    @Nullable String signature;
    @Nullable String data;
    /** Byte range of the block object in the source. */
    int from;
    int to;
    /** Byte range of the {@code input} value, or -1 when the block has none. */
    int inputFrom = -1;
    int inputTo = -1;
    /** Whether {@code input} is an object without members ({@code {}}). */
    boolean inputEmpty = true;
    /** Byte range of the {@code content} value, or -1 when the block has none. */
    int contentFrom = -1;
    int contentTo = -1;

    void clear() {
        type = null;
        id = null;
        toolUseId = null;
        name = null;
        text = null;
        thinking = null;
        signature = null;
        data = null;
        from = -1;
        to = -1;
        inputFrom = -1;
        inputTo = -1;
        inputEmpty = true;
        contentFrom = -1;
        contentTo = -1;
    }

    boolean hasInput() {
        return inputFrom >= 0;
    }

    boolean hasContent() {
        return contentFrom >= 0;
    }
}
