package dev.ruminate.gateway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/**
 * What every {@link ItemStore} does, run against each implementation by a subclass: what is put
 * comes back equal, output items are found by id, unknown and expired ids are absent (never an
 * error), concurrent puts all land.
 */
abstract class ItemStoreContract {

    /** The store under test, keeping what it is given for longer than a test runs. */
    abstract ItemStore store();

    /**
     * Makes what was stored for this response expire now, checking first that the store set it to
     * expire after its configured age; the contract then waits (boundedly) until it is gone.
     */
    abstract void letExpire(StoredResponse response, Collection<String> itemIds) throws Exception;

    @Test
    void aStoredResponseComesBackEqualAndItsItemsByTheirIds() {
        StoredResponse response = response(3);

        StepVerifier.create(store().put(response)).verifyComplete();

        StepVerifier.create(store().response(response.id())).expectNext(response).verifyComplete();
        List<String> ids = itemIds(response);
        StepVerifier.create(store().items(ids))
                .assertNext(found -> {
                    assertThat(found.keySet()).containsExactlyInAnyOrderElementsOf(ids);
                    for (String item : response.output()) {
                        String id = ItemJson.idOf(item);
                        if (id != null) {
                            assertThat(found.get(id)).isEqualTo(item);
                        }
                    }
                })
                .verifyComplete();
    }

    @Test
    void unknownIdsAreAbsentNotErrors() {
        StoredResponse response = response(1);
        StepVerifier.create(store().put(response)).verifyComplete();
        String known = itemIds(response).get(0);

        StepVerifier.create(store().response("resp_" + UUID.randomUUID())).verifyComplete();
        StepVerifier.create(store().items(List.of("msg_unknown_" + UUID.randomUUID(), known,
                        "rs_unknown_" + UUID.randomUUID())))
                .assertNext(found -> assertThat(found).containsOnlyKeys(known))
                .verifyComplete();
        StepVerifier.create(store().items(List.of())).expectNext(Map.of()).verifyComplete();
    }

    @Test
    void anItemWithoutAnIdIsKeptInItsResponseOnly() {
        String unnamed = "{\"type\":\"message\",\"role\":\"assistant\",\"content\":[]}";
        StoredResponse response = new StoredResponse("resp_" + UUID.randomUUID(), "m", Instant.now(), "",
                List.of(), List.of(unnamed));

        StepVerifier.create(store().put(response)).verifyComplete();

        StepVerifier.create(store().response(response.id()))
                .assertNext(r -> assertThat(r.output()).containsExactly(unnamed))
                .verifyComplete();
    }

    @Test
    void anExpiredResponseAndItsItemsAreUnknown() throws Exception {
        StoredResponse response = response(2);
        List<String> ids = itemIds(response);
        StepVerifier.create(store().put(response)).verifyComplete();
        StepVerifier.create(store().response(response.id())).expectNextCount(1).verifyComplete();

        letExpire(response, ids);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            StepVerifier.create(store().response(response.id())).verifyComplete();
            StepVerifier.create(store().items(ids)).expectNext(Map.of()).verifyComplete();
        });
    }

    @Test
    void concurrentPutsAllLand() {
        List<StoredResponse> responses = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            responses.add(response(2));
        }

        StepVerifier.create(Flux.fromIterable(responses)
                        .parallel(8).runOn(Schedulers.parallel())
                        .flatMap(r -> store().put(r))
                        .sequential())
                .verifyComplete();

        for (StoredResponse r : responses) {
            StepVerifier.create(store().response(r.id())).expectNext(r).verifyComplete();
        }
        List<String> allIds = responses.stream().flatMap(r -> itemIds(r).stream()).toList();
        StepVerifier.create(store().items(allIds))
                .assertNext(found -> assertThat(found).hasSize(allIds.size()))
                .verifyComplete();
    }

    /** A response with a unique id, a context, and the given number of output items with ids. */
    static StoredResponse response(int items) {
        String n = UUID.randomUUID().toString().replace("-", "");
        List<String> output = new ArrayList<>();
        for (int i = 0; i < items; i++) {
            output.add(i % 2 == 0
                    ? "{\"id\":\"rs_" + n + i + "\",\"type\":\"reasoning\",\"summary\":[],"
                            + "\"encrypted_content\":\"rgw1.k1.AAAA\",\"content\":[{\"type\":\"reasoning_text\","
                            + "\"text\":\"a \\\"quoted\\\" thought\\nwith é and 🧠\"}]}"
                    : "{\"type\":\"message\",\"id\":\"msg_" + n + i + "\",\"role\":\"assistant\",\"status\":"
                            + "\"completed\",\"content\":[{\"type\":\"output_text\",\"text\":\"answer " + i
                            + "\",\"annotations\":[]}]}");
        }
        return new StoredResponse("resp_" + n, "deepseek-r1", Instant.parse("2026-11-25T12:00:00.123456789Z"),
                "be brief", List.of("{\"type\":\"message\",\"role\":\"user\",\"content\":\"hi " + n + "\"}"), output);
    }

    static List<String> itemIds(StoredResponse response) {
        return List.copyOf(response.outputById(ItemJson::idOf).keySet());
    }
}
