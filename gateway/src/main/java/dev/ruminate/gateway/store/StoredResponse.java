package dev.ruminate.gateway.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A response the gateway produced, as a later request continues from it.
 *
 * <p>{@code context} is the whole conversation the response answered, already resolved (the
 * previous response's context, then this request's input with every {@code item_reference}
 * replaced): a {@code previous_response_id} chain is therefore one lookup, not a walk. Items are
 * Responses input items as JSON text; output items are kept as the gateway wrote them, so that
 * sealed state in them is opened and checked like state a client sends back.
 *
 * <p>Immutable and thread-safe.
 *
 * @param id the response id, {@code resp_…}
 * @param model the model name the client asked for (the route)
 * @param createdAt when the response was created
 * @param instructions the request's {@code instructions}, if any; not carried to the next response,
 *     as in OpenAI's API, but kept for {@code GET}-style inspection
 * @param context the resolved input items the response answered, oldest first
 * @param output the output items, in order
 * @since 0.2
 */
public record StoredResponse(String id, String model, Instant createdAt, String instructions, List<String> context,
                             List<String> output) {

    /**
     * Creates the value, checking its components.
     *
     * @param id see {@link #id()}
     * @param model see {@link #model()}
     * @param createdAt see {@link #createdAt()}
     * @param instructions see {@link #instructions()}; empty when there were none
     * @param context see {@link #context()}
     * @param output see {@link #output()}
     */
    public StoredResponse {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(instructions, "instructions");
        context = List.copyOf(context);
        output = List.copyOf(output);
    }

    /**
     * Returns the input items a response continuing from this one starts with: its context, then
     * its output.
     *
     * @return the items, oldest first
     */
    public List<String> continuation() {
        List<String> all = new ArrayList<>(context.size() + output.size());
        all.addAll(context);
        all.addAll(output);
        return List.copyOf(all);
    }

    /**
     * Returns the output items by their ids, for indexing; items without an id are left out.
     *
     * @param idOf reads an item's id from its JSON, or returns null
     * @return the items by id, in output order
     */
    public Map<String, String> outputById(Function<String, @Nullable String> idOf) {
        Map<String, String> byId = new LinkedHashMap<>();
        for (String item : output) {
            String id = idOf.apply(item);
            if (id != null) {
                byId.put(id, item);
            }
        }
        return byId;
    }
}
