package dev.ruminate.gateway.store;

import java.util.Collection;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * Keeps the responses the gateway produced, and their output items, for later requests that name
 * them ({@code previous_response_id}, {@code item_reference}).
 *
 * <p>Implementations bound what they keep, in number or size and in age; a response or item past
 * those bounds is simply unknown. Every method is non-blocking and safe to call from any thread;
 * absent values are signalled by an empty {@code Mono} or a missing map key, never by an error.
 *
 * @since 0.2
 */
public interface ItemStore {

    /**
     * Stores a response and indexes each of its output items by id.
     *
     * @param response the response
     * @return completes when stored
     */
    Mono<Void> put(StoredResponse response);

    /**
     * Finds a response by id.
     *
     * @param responseId the id, {@code resp_…}
     * @return the response, or empty when unknown or expired
     */
    Mono<StoredResponse> response(String responseId);

    /**
     * Finds output items by id.
     *
     * @param itemIds the ids
     * @return each known id mapped to its item's JSON; unknown or expired ids are left out
     */
    Mono<Map<String, String>> items(Collection<String> itemIds);
}
