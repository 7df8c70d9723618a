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
    void callsAreFoundByTheCallIdsTheGatewayIssuedAndStateItemsByTheItemTheyFollow() {
        StoredResponse response = toolResponse();
        List<String> out = response.output();
        String n = response.id().substring(5);
        StepVerifier.create(store().put(response)).verifyComplete();

        // only the call id the gateway made from the item id is an index key; a backend's own call id is not
        StepVerifier.create(store().callItems(List.of("call_fc_" + n + "_1", "toolu_01backend", "call_fc_unknown")))
                .assertNext(found -> assertThat(found).containsExactly(Map.entry("call_fc_" + n + "_1", out.get(1))))
                .verifyComplete();
        // a sealed reasoning item without readable text right after a message or call is its candidate state
        // item; one with text (or after a reasoning item) is not
        StepVerifier.create(store().stateItems(List.of("fc_" + n + "_1", "msg_" + n + "_3", "fc_" + n + "_5",
                        "rs_" + n + "_0")))
                .assertNext(found -> assertThat(found).containsOnly(Map.entry("fc_" + n + "_1", out.get(2)),
                        Map.entry("msg_" + n + "_3", out.get(4))))
                .verifyComplete();
        StepVerifier.create(store().callItems(List.of())).expectNext(Map.of()).verifyComplete();
        StepVerifier.create(store().stateItems(List.of())).expectNext(Map.of()).verifyComplete();
    }

    @Test
    void expiredCallsAndStateItemsAreUnknown() throws Exception {
        StoredResponse response = toolResponse();
        String n = response.id().substring(5);
        StepVerifier.create(store().put(response)).verifyComplete();

        letExpire(response, itemIds(response));

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            StepVerifier.create(store().callItems(List.of("call_fc_" + n + "_1"))).expectNext(Map.of()).verifyComplete();
            StepVerifier.create(store().stateItems(List.of("fc_" + n + "_1"))).expectNext(Map.of()).verifyComplete();
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

    /**
     * A tool-calling response as the encoder writes one: reasoning, a call with a gateway-issued call
     * id and its state-only item, a message and its state-only item, a call with the backend's call
     * id followed by a reasoning item with text.
     */
    static StoredResponse toolResponse() {
        String n = UUID.randomUUID().toString().replace("-", "");
        String state = "\",\"type\":\"reasoning\",\"summary\":[],\"encrypted_content\":\"rgw1.k1.STATE\","
                + "\"status\":\"completed\"}";
        List<String> output = List.of(
                "{\"id\":\"rs_" + n + "_0\",\"type\":\"reasoning\",\"summary\":[{\"type\":\"summary_text\","
                        + "\"text\":\"think\"}],\"encrypted_content\":\"rgw1.k1.R\",\"status\":\"completed\"}",
                "{\"id\":\"fc_" + n + "_1\",\"type\":\"function_call\",\"status\":\"completed\",\"arguments\":\"{}\","
                        + "\"call_id\":\"call_fc_" + n + "_1\",\"name\":\"get_country\"}",
                "{\"id\":\"rs_" + n + "_2" + state,
                "{\"type\":\"message\",\"id\":\"msg_" + n + "_3\",\"role\":\"assistant\",\"status\":\"completed\","
                        + "\"content\":[{\"type\":\"output_text\",\"text\":\"Mexico City\",\"annotations\":[]}]}",
                "{\"id\":\"rs_" + n + "_4" + state,
                "{\"id\":\"fc_" + n + "_5\",\"type\":\"function_call\",\"status\":\"completed\",\"arguments\":\"{}\","
                        + "\"call_id\":\"toolu_01backend\",\"name\":\"get_country\"}",
                "{\"id\":\"rs_" + n + "_6\",\"type\":\"reasoning\",\"summary\":[],\"content\":[{\"type\":"
                        + "\"reasoning_text\",\"text\":\"more\"}],\"encrypted_content\":\"rgw1.k1.R2\"}");
        return new StoredResponse("resp_" + n, "gemini-3", Instant.parse("2026-11-25T12:00:00Z"), "", List.of(), output);
    }

    static List<String> itemIds(StoredResponse response) {
        return List.copyOf(response.outputById(ItemJson::idOf).keySet());
    }
}
