package dev.ruminate.gateway.store;

import java.util.Collection;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * Keeps the responses the gateway produced, and their output items, for later requests that name
 * them ({@code previous_response_id}, {@code item_reference}, or output items sent back with their
 * ids but without their sealed state).
 *
 * <p>Implementations bound what they keep, in number or size and in age; a response or item past
 * those bounds is simply unknown. Every method is non-blocking and safe to call from any thread;
 * absent values are signalled by an empty {@code Mono} or a missing map key, never by an error.
 *
 * @since 0.2
 */
public interface ItemStore {

    /**
     * Stores a response and indexes each of its output items by id, its function calls by the call
     * ids the gateway issued ({@link StoredResponse#outputByCallId()}), and the candidate state items
     * of its messages and calls ({@link StoredResponse#stateItemsByItemId()}).
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

    /**
     * Finds function call items by the call id the gateway issued for them.
     *
     * @param callIds the call ids
     * @return each known call id mapped to its item's JSON; unknown or expired ids are left out
     */
    Mono<Map<String, String>> callItems(Collection<String> callIds);

    /**
     * Finds the candidate state-only items stored right after messages or function calls.
     *
     * @param itemIds the ids of the messages or calls
     * @return each id that has one mapped to the state item's JSON; others are left out
     */
    Mono<Map<String, String>> stateItems(Collection<String> itemIds);
}
