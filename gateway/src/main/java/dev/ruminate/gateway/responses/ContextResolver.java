package dev.ruminate.gateway.responses;

import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.gateway.state.StateSealer;
import dev.ruminate.gateway.store.ItemStore;
import dev.ruminate.gateway.store.StoredResponse;
import dev.ruminate.providers.serving.ClientRequestException;
import dev.ruminate.providers.serving.OpenAiError;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Resolves what a request names in the {@link ItemStore}: its {@code previous_response_id}, its
 * {@code item_reference} items, and the gateway's own output items that a client sends back with
 * their ids but without their sealed state. An id the store does not know in
 * {@code previous_response_id} or {@code item_reference} is an OpenAI-shaped 404, never a silent
 * drop.
 *
 * <p><b>Restoring sealed state by id.</b> With {@code store} on, clients send the output items back
 * as they received them: without {@code encrypted_content} (the OpenAI Node SDK appends
 * {@code response.output}; {@code @ai-sdk/open-responses} sends reasoning and calls with their ids),
 * or a function call with only the call id the gateway issued (the Vercel AI SDK). Such an item is
 * looked up by its id (a function call without a known id by its {@code call_id}, among the call ids
 * the gateway issued) and, when the store holds it:
 * <ul>
 *   <li>a {@code reasoning} item gets the stored item's {@code encrypted_content};</li>
 *   <li>a {@code message} or {@code function_call} is followed by the state-only reasoning item
 *       stored right after it (Gemini's thought signatures of the answer or the call), unless the
 *       client sent that item too; a candidate is taken only when its sealed state opens and holds
 *       no reasoning, so a genuine reasoning item is never added on the client's behalf.
 *       Items resolved from an {@code item_reference} get theirs the same way.</li>
 * </ul>
 * Only when the stored item is of the client's item's type. The client's visible content is kept
 * (what the client sends is what its conversation says): a message or call the client changed keeps
 * the client's text, name and arguments, and {@link dev.ruminate.gateway.provenance.Provenance}
 * gives a call its seals by call id, an answer text its seals only when the text is unchanged. A
 * reasoning item is the exception: its parts become the sealed originals whatever summary the client
 * sent, as for a stateless client's {@code encrypted_content}, since the backend's signature covers
 * its own reasoning text (Anthropic rejects altered thinking) and the summary is only a view of it.
 * Only state this gateway stored is restored: ids come from the store, which holds only the
 * gateway's output, under ids that carry the response id's 128 random bits (call ids: only those
 * the gateway issued itself, see {@link StoredResponse#outputByCallId()}).
 *
 * <p>Thread-safe.
 *
 * @since 0.2
 */
public final class ContextResolver {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ItemStore store;
    private final StateSealer sealer;

    /**
     * Creates a resolver.
     *
     * @param store the store to look ids up in
     * @param sealer opens candidate state items, to tell them from reasoning items
     */
    public ContextResolver(ItemStore store, StateSealer sealer) {
        this.store = Objects.requireNonNull(store, "store");
        this.sealer = Objects.requireNonNull(sealer, "sealer");
    }

    /**
     * Resolves a request's context.
     *
     * @param previousResponseId the response the request continues, if any
     * @param inputItems the request's input items, as JSON texts
     * @return the context; fails with a {@link ClientRequestException} (404) for an unknown id
     */
    public Mono<ResolvedContext> resolve(@Nullable String previousResponseId, List<String> inputItems) {
        Map<Integer, String> referencedItemIds = references(inputItems);
        Map<Integer, ObjectNode> returned = returnedItems(inputItems, referencedItemIds);
        Set<String> ids = new LinkedHashSet<>(referencedItemIds.values());
        Set<String> callIds = new LinkedHashSet<>();
        for (ObjectNode item : returned.values()) {
            String id = string(item, "id");
            if (id != null) {
                ids.add(id);
            }
            String callId = string(item, "call_id");
            if (callId != null && "function_call".equals(string(item, "type"))) {
                callIds.add(callId);
            }
        }
        Mono<List<String>> previous = previousResponseId == null ? Mono.just(List.of())
                : store.response(previousResponseId).map(StoredResponse::continuation)
                        .switchIfEmpty(Mono.error(() -> notFound("Previous response with id '" + previousResponseId
                                + "' not found.", "previous_response_id", "previous_response_not_found")));
        Mono<Map<String, String>> stored = ids.isEmpty() ? Mono.just(Map.of()) : store.items(ids);
        Mono<Map<String, String>> calls = callIds.isEmpty() ? Mono.just(Map.of()) : store.callItems(callIds);
        return Mono.zip(previous, stored, calls).flatMap(t -> {
            Resolution r = new Resolution(inputItems, referencedItemIds, returned, t.getT2(), t.getT3());
            r.match();
            Mono<Map<String, String>> states = r.statesWanted.isEmpty() ? Mono.just(Map.of())
                    : store.stateItems(r.statesWanted);
            return states.map(s -> r.assemble(t.getT1(), s));
        });
    }

    /** One request's items, as they are matched against what the store holds. */
    private final class Resolution {
        private final List<String> inputItems;
        private final Map<Integer, String> referencedItemIds;
        private final Map<Integer, ObjectNode> returned;
        private final Map<String, String> storedById;
        private final Map<String, String> storedByCallId;
        /** By input index: the stored item a returned item (or a reference) stands for. */
        private final Map<Integer, JsonNode> matched = new LinkedHashMap<>();
        private final Set<String> statesWanted = new LinkedHashSet<>();

        Resolution(List<String> inputItems, Map<Integer, String> referencedItemIds, Map<Integer, ObjectNode> returned,
                   Map<String, String> storedById, Map<String, String> storedByCallId) {
            this.inputItems = inputItems;
            this.referencedItemIds = referencedItemIds;
            this.returned = returned;
            this.storedById = storedById;
            this.storedByCallId = storedByCallId;
        }

        /** Finds, for each returned item and each reference, the stored item it is; asks for their state items. */
        void match() {
            for (int i = 0; i < inputItems.size(); i++) {
                String ref = referencedItemIds.get(i);
                if (ref != null) {
                    String item = storedById.get(ref);
                    if (item != null) {
                        JsonNode node = JSON.readTree(item);
                        matched.put(i, node);
                        wantState(node);
                    }
                    continue;
                }
                ObjectNode item = returned.get(i);
                if (item == null) {
                    continue;
                }
                JsonNode found = find(item);
                if (found != null && sameType(item, found)) {
                    matched.put(i, found);
                    wantState(found);
                }
            }
        }

        private @Nullable JsonNode find(ObjectNode item) {
            String id = string(item, "id");
            String byId = id == null ? null : storedById.get(id);
            if (byId == null && "function_call".equals(string(item, "type"))) {
                String callId = string(item, "call_id");
                byId = callId == null ? null : storedByCallId.get(callId);
            }
            return byId == null ? null : JSON.readTree(byId);
        }

        private void wantState(JsonNode stored) {
            String type = string(stored, "type");
            String id = string(stored, "id");
            if (id != null && ("message".equals(type) || "function_call".equals(type))) {
                statesWanted.add(id);
            }
        }

        ResolvedContext assemble(List<String> previous, Map<String, String> states) {
            Set<String> sentIds = new HashSet<>();
            for (int i = 0; i < inputItems.size(); i++) {
                String ref = referencedItemIds.get(i);
                ObjectNode item = returned.get(i);
                String id = ref != null ? ref : item != null ? string(item, "id") : null;
                if (id != null) {
                    sentIds.add(id);
                }
            }
            List<String> input = new ArrayList<>(inputItems.size());
            List<Integer> index = new ArrayList<>(inputItems.size());
            for (int i = 0; i < inputItems.size(); i++) {
                String ref = referencedItemIds.get(i);
                JsonNode stored = matched.get(i);
                if (ref != null) {
                    if (stored == null) {
                        throw notFound("Item with id '" + ref + "' not found.", "input[" + i + "]", "item_not_found");
                    }
                    input.add(Objects.requireNonNull(storedById.get(ref)));
                } else if (stored != null && "reasoning".equals(string(stored, "type"))
                        && opens(string(stored, "encrypted_content"))) {
                    ObjectNode restored = Objects.requireNonNull(returned.get(i)).deepCopy();
                    restored.put("encrypted_content", string(stored, "encrypted_content"));
                    input.add(restored.toString());
                } else {
                    input.add(inputItems.get(i));
                }
                index.add(i);
                String storedId = stored == null ? null : string(stored, "id");
                String state = storedId == null ? null : states.get(storedId);
                if (state != null && isStateOnly(state, sentIds)) {
                    input.add(state);
                    index.add(i);
                }
            }
            return new ResolvedContext(previous, input, index);
        }

        /**
         * Whether stored state still opens (it may be older than the sealer's maximum age, or sealed
         * under a key since retired): the client did not send it, so state that does not open is not
         * the client's error; the item then goes without it, as a foreign one.
         */
        private boolean opens(@Nullable String sealed) {
            if (sealed == null) {
                return false;
            }
            try {
                sealer.open(sealed);
                return true;
            } catch (ClientRequestException e) {
                return false;
            }
        }

        /** A candidate the client did not send itself, whose sealed state opens and holds no reasoning. */
        private boolean isStateOnly(String state, Set<String> sentIds) {
            JsonNode node = JSON.readTree(state);
            String id = string(node, "id");
            String sealed = string(node, "encrypted_content");
            if (id == null || sealed == null || !sentIds.add(id)) {
                return false;
            }
            try {
                return sealer.open(sealed).parts().stream().noneMatch(p -> p instanceof ReasoningPart);
            } catch (ClientRequestException e) {
                return false; // too old to open: the call goes without its seals, as a foreign one
            }
        }
    }

    /**
     * The client's items that may be the gateway's own output sent back without its state: reasoning
     * items without a gateway {@code encrypted_content}, assistant messages with an id, function calls.
     */
    private static Map<Integer, ObjectNode> returnedItems(List<String> inputItems, Map<Integer, String> references) {
        Map<Integer, ObjectNode> returned = new LinkedHashMap<>();
        for (int i = 0; i < inputItems.size(); i++) {
            String text = inputItems.get(i);
            if (references.containsKey(i) || !(text.contains("\"id\"") || text.contains("\"call_id\""))) {
                continue; // no id to look up: skip parsing
            }
            JsonNode node;
            try {
                node = JSON.readTree(text);
            } catch (JacksonException e) {
                continue; // the reader names the malformed item
            }
            if (!(node instanceof ObjectNode item)) {
                continue;
            }
            String type = string(item, "type");
            boolean candidate = switch (type == null ? "message" : type) {
                case "reasoning" -> string(item, "id") != null && string(item, "encrypted_content") == null;
                case "message" -> "assistant".equals(string(item, "role")) && string(item, "id") != null;
                case "function_call" -> string(item, "id") != null || string(item, "call_id") != null;
                default -> false;
            };
            if (candidate) {
                returned.put(i, item);
            }
        }
        return returned;
    }

    /** Whether a stored item can give its state to a client's item: the same type. */
    private static boolean sameType(ObjectNode client, JsonNode stored) {
        String type = string(client, "type");
        return (type == null ? "message" : type).equals(string(stored, "type"));
    }

    private static @Nullable String string(JsonNode node, String name) {
        JsonNode value = node.get(name);
        return value != null && value.isString() ? value.stringValue() : null;
    }

    /** The ids of the {@code item_reference} items, by their index in the input. */
    private static Map<Integer, String> references(List<String> inputItems) {
        Map<Integer, String> references = new LinkedHashMap<>();
        for (int i = 0; i < inputItems.size(); i++) {
            String item = inputItems.get(i);
            if (!item.contains("item_reference")) {
                continue; // most items are not references: skip parsing them
            }
            JsonNode node = JSON.readTree(item);
            if ("item_reference".equals(node.path("type").asString("")) && node.path("id").isString()) {
                references.put(i, node.path("id").stringValue());
            }
        }
        return references;
    }

    private static ClientRequestException notFound(String message, String param, String code) {
        return new ClientRequestException(new OpenAiError(404, "invalid_request_error", code, message, param));
    }
}
