package dev.ruminate.gateway.responses;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The items a request answers, with every reference resolved: the stored continuation of
 * {@code previous_response_id}, then the request's own input with each {@code item_reference}
 * replaced by the stored item, and the sealed state of the gateway's own items that came back
 * without it restored (see {@link ContextResolver}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param previous the stored items the request continues, oldest first
 * @param input the request's input items, references replaced, in order
 * @param inputIndex for each entry of {@code input}, the index in the client's {@code input} it
 *     stands for (a restored state item added after a client's item has that item's index), so that
 *     errors name the client's place
 * @since 0.2
 */
public record ResolvedContext(List<String> previous, List<String> input, List<Integer> inputIndex) {

    /**
     * Creates the value, copying its lists.
     *
     * @param previous see {@link #previous()}
     * @param input see {@link #input()}
     * @param inputIndex see {@link #inputIndex()}; as long as {@code input}
     */
    public ResolvedContext {
        previous = List.copyOf(previous);
        input = List.copyOf(input);
        inputIndex = List.copyOf(inputIndex);
        if (inputIndex.size() != input.size()) {
            throw new IllegalArgumentException("inputIndex must have one entry per input item");
        }
    }

    /**
     * Creates the value for input that is the client's, item for item.
     *
     * @param previous see {@link #previous()}
     * @param input see {@link #input()}
     */
    public ResolvedContext(List<String> previous, List<String> input) {
        this(previous, input, IntStream.range(0, input.size()).boxed().toList());
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
