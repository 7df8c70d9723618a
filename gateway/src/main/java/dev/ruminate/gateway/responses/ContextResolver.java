package dev.ruminate.gateway.responses;

import dev.ruminate.gateway.store.ItemStore;
import dev.ruminate.gateway.store.StoredResponse;
import dev.ruminate.providers.serving.ClientRequestException;
import dev.ruminate.providers.serving.OpenAiError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Resolves what a request names in the {@link ItemStore}: its {@code previous_response_id} and its
 * {@code item_reference} items. An id the store does not know is an OpenAI-shaped 404, never a
 * silent drop.
 *
 * <p>Thread-safe.
 *
 * @since 0.2
 */
public final class ContextResolver {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ItemStore store;

    /**
     * Creates a resolver.
     *
     * @param store the store to look ids up in
     */
    public ContextResolver(ItemStore store) {
        this.store = Objects.requireNonNull(store, "store");
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
        Mono<List<String>> previous = previousResponseId == null ? Mono.just(List.of())
                : store.response(previousResponseId).map(StoredResponse::continuation)
                        .switchIfEmpty(Mono.error(() -> notFound("Previous response with id '" + previousResponseId
                                + "' not found.", "previous_response_id", "previous_response_not_found")));
        Mono<Map<String, String>> referenced = referencedItemIds.isEmpty() ? Mono.just(Map.of())
                : store.items(List.copyOf(referencedItemIds.values()));
        return Mono.zip(previous, referenced).map(t -> {
            List<String> input = new ArrayList<>(inputItems.size());
            for (int i = 0; i < inputItems.size(); i++) {
                String id = referencedItemIds.get(i);
                if (id == null) {
                    input.add(inputItems.get(i));
                    continue;
                }
                String item = t.getT2().get(id);
                if (item == null) {
                    throw notFound("Item with id '" + id + "' not found.", "input[" + i + "]", "item_not_found");
                }
                input.add(item);
            }
            return new ResolvedContext(t.getT1(), input);
        });
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
