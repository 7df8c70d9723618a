package dev.ruminate.providers.responses;

import dev.ruminate.core.message.Part;
import java.util.List;
import java.util.Objects;

/**
 * One output item of an encoded Responses stream as it closes, given to an
 * {@link EncryptedContentWriter}: the item's id and type, and the Ruminate parts it was made from,
 * reduced from the events, with every seal the upstream attached to them.
 *
 * <p>A {@code reasoning} item holds {@link dev.ruminate.core.message.ReasoningPart}s (several when
 * the upstream sent several summary parts of one item, none-text ones for state-only reasoning); a
 * {@code message} one {@link dev.ruminate.core.message.TextPart}; a {@code function_call} one
 * {@link dev.ruminate.core.message.ToolCallPart}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param itemId the item's id as written ({@code rs_…}, {@code msg_…}, {@code fc_…})
 * @param type the item's type: {@code reasoning}, {@code message} or {@code function_call}
 * @param parts the item's parts, in order, unmodifiable
 * @since 0.2
 */
public record OutputItemState(String itemId, String type, List<Part> parts) {

    /**
     * Creates the value, checking and copying its components.
     *
     * @param itemId see {@link #itemId()}
     * @param type see {@link #type()}
     * @param parts see {@link #parts()}
     */
    public OutputItemState {
        Objects.requireNonNull(itemId, "itemId");
        Objects.requireNonNull(type, "type");
        parts = List.copyOf(parts);
    }
}
