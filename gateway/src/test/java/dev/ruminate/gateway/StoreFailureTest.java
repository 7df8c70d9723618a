package dev.ruminate.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.gateway.store.ItemStore;
import dev.ruminate.gateway.store.StoredResponse;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * A response the gateway cannot store (its Redis down, say) must not end as a completed stream
 * whose id later requests cannot name, nor as a dropped connection: the client gets
 * {@code response.failed} with a {@code server_error}, after every item was closed.
 */
@ExtendWith(NettyLeakCheck.class)
class StoreFailureTest {

    private static final String TURN1 = "deepseek/vercel-deepseek-reasoning-tool-call-stream.sse";
    private static GatewayHarness gateway;
    private static Http http;

    /** A store whose writes fail, as a store behind a lost connection does. */
    @Configuration(proxyBeanMethods = false)
    static class FailingStore {
        @Bean
        ItemStore failingStore() {
            return new ItemStore() {
                @Override
                public Mono<Void> put(StoredResponse response) {
                    return Mono.error(new IllegalStateException("connection to the store lost"));
                }

                @Override
                public Mono<StoredResponse> response(String responseId) {
                    return Mono.empty();
                }

                @Override
                public Mono<Map<String, String>> items(Collection<String> itemIds) {
                    return Mono.just(Map.of());
                }

                @Override
                public Mono<Map<String, String>> callItems(Collection<String> callIds) {
                    return Mono.just(Map.of());
                }

                @Override
                public Mono<Map<String, String>> stateItems(Collection<String> itemIds) {
                    return Mono.just(Map.of());
                }
            };
        }
    }

    @BeforeAll
    static void start() {
        gateway = new GatewayHarness(new Class<?>[] {FailingStore.class});
        http = gateway.http();
        gateway.deepseek.always(EmulatorResponse.replay(GatewayHarness.fixture(TURN1), "text/event-stream"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void aStreamWhoseResponseCannotBeStoredEndsInResponseFailed() {
        List<Http.Event> events = http.stream(Http.request("deepseek-reasoner", "What is the weather?"));

        List<String> names = events.stream().map(Http.Event::event).toList();
        assertThat(names).startsWith("response.created").endsWith("response.failed").doesNotContain("response.completed");
        assertThat(names.stream().filter("response.output_item.done"::equals).count())
                .isEqualTo(names.stream().filter("response.output_item.added"::equals).count());
        JsonNode last = Http.json(events.get(events.size() - 1).data());
        assertThat(last.path("type").asString()).isEqualTo("response.failed");
        assertThat(last.path("response").path("status").asString()).isEqualTo("failed");
        assertThat(last.path("response").path("error").path("code").asString()).isEqualTo("server_error");
        assertThat(last.toString()).doesNotContain("connection to the store lost").doesNotContain("encrypted_content");
    }

    @Test
    void storeFalseNeedsNoStoreAndCompletes() {
        var request = Http.request("deepseek-reasoner", "What is the weather?");
        request.put("store", false);

        List<Http.Event> events = http.stream(request);

        assertThat(events.get(events.size() - 1).event()).isEqualTo("response.completed");
    }
}
