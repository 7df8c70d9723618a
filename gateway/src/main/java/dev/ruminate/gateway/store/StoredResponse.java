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

    /**
     * Returns the function call items by their {@code call_id}, for clients that send a call back
     * without its item id (the Vercel AI SDK). Only call ids the gateway issued itself are indexed:
     * {@code call_} followed by the item's own id, which carries the response id's randomness. A call
     * id the backend chose (Anthropic's {@code toolu_…}, a Gemini or Mistral id) may be short or
     * sequential, so that another client could guess it; such calls are found by their item id only.
     *
     * @return the items by call id, in output order
     */
    public Map<String, String> outputByCallId() {
        Map<String, String> byCallId = new LinkedHashMap<>();
        for (String item : output) {
            ItemJson.Fields f = ItemJson.fields(item);
            if ("function_call".equals(f.type()) && f.id() != null && ("call_" + f.id()).equals(f.callId())) {
                byCallId.put(f.callId(), item);
            }
        }
        return byCallId;
    }

    /**
     * Returns, for each message or function call item, the reasoning item stored right after it when
     * that item could be the state-only item carrying its seals (a reasoning item with
     * {@code encrypted_content} and no readable text: the Responses encoder writes Gemini's thought
     * signatures of a call or an answer so). The caller confirms by opening the sealed state, which
     * for a state-only item holds no reasoning.
     *
     * @return the candidate state items by the id of the item they follow, in output order
     */
    public Map<String, String> stateItemsByItemId() {
        Map<String, String> states = new LinkedHashMap<>();
        for (int i = 0; i + 1 < output.size(); i++) {
            ItemJson.Fields f = ItemJson.fields(output.get(i));
            if (f.id() == null || !("message".equals(f.type()) || "function_call".equals(f.type()))) {
                continue;
            }
            ItemJson.Fields next = ItemJson.fields(output.get(i + 1));
            if ("reasoning".equals(next.type()) && next.id() != null && next.sealed() && !next.readable()) {
                states.put(f.id(), output.get(i + 1));
            }
        }
        return states;
    }
}
