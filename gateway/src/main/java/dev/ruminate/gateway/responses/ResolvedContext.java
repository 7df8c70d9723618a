package dev.ruminate.gateway.responses;

import java.util.ArrayList;
import java.util.List;

/**
 * The items a request answers, with every reference resolved: the stored continuation of
 * {@code previous_response_id}, then the request's own input with each {@code item_reference}
 * replaced by the stored item.
 *
 * <p>Immutable and thread-safe.
 *
 * @param previous the stored items the request continues, oldest first
 * @param input the request's input items, references replaced, in order
 * @since 0.2
 */
public record ResolvedContext(List<String> previous, List<String> input) {

    /**
     * Creates the value, copying its lists.
     *
     * @param previous see {@link #previous()}
     * @param input see {@link #input()}
     */
    public ResolvedContext {
        previous = List.copyOf(previous);
        input = List.copyOf(input);
    }

    /**
     * Returns every item, stored ones first.
     *
     * @return the items, oldest first
     */
    public List<String> all() {
        List<String> all = new ArrayList<>(previous.size() + input.size());
        all.addAll(previous);
        all.addAll(input);
        return List.copyOf(all);
    }
}
