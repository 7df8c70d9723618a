package dev.ruminate.gateway.interim;

import dev.ruminate.gateway.store.ItemStore;
import dev.ruminate.gateway.store.StoredResponse;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * A stand-in, unbounded store in memory. Replaced by the gateway's bounded in-memory and Redis
 * stores.
 *
 * <p>Thread-safe.
 *
 * @since 0.2
 */
public final class MapItemStore implements ItemStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Map<String, StoredResponse> responses = new ConcurrentHashMap<>();
    private final Map<String, String> items = new ConcurrentHashMap<>();

    /** Creates an empty store. */
    public MapItemStore() {
    }

    @Override
    public Mono<Void> put(StoredResponse response) {
        return Mono.fromRunnable(() -> {
            responses.put(response.id(), response);
            items.putAll(response.outputById(item -> {
                String id = JSON.readTree(item).path("id").asString("");
                return id.isEmpty() ? null : id;
            }));
        });
    }

    @Override
    public Mono<StoredResponse> response(String responseId) {
        return Mono.justOrEmpty(responses.get(responseId));
    }

    @Override
    public Mono<Map<String, String>> items(Collection<String> itemIds) {
        return Mono.fromCallable(() -> {
            Map<String, String> found = new LinkedHashMap<>();
            for (String id : itemIds) {
                String item = items.get(id);
                if (item != null) {
                    found.put(id, item);
                }
            }
            return found;
        });
    }
}
