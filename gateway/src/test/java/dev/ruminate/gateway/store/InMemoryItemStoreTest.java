package dev.ruminate.gateway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

class InMemoryItemStoreTest extends ItemStoreContract {

    private static final Duration MAX_AGE = Duration.ofMinutes(30);

    private final MovableClock clock = new MovableClock(Instant.parse("2026-11-25T12:00:00Z"));
    private InMemoryItemStore store;

    @BeforeEach
    void newStore() {
        store = InMemoryItemStore.builder().maxAge(MAX_AGE).clock(clock).build();
    }

    @Override
    ItemStore store() {
        return store;
    }

    @Override
    void letExpire(StoredResponse response, Collection<String> itemIds) {
        clock.advance(MAX_AGE.plusSeconds(1));
    }

    @Test
    void whatIsStoredIsKeptUntilItsMaximumAge() {
        StoredResponse response = response(2);
        StepVerifier.create(store.put(response)).verifyComplete();

        clock.advance(MAX_AGE.minusSeconds(1));
        StepVerifier.create(store.response(response.id())).expectNext(response).verifyComplete();
        StepVerifier.create(store.items(itemIds(response))).expectNextMatches(m -> m.size() == 2).verifyComplete();

        clock.advance(Duration.ofSeconds(2));
        StepVerifier.create(store.response(response.id())).verifyComplete();
        StepVerifier.create(store.items(itemIds(response))).expectNextMatches(m -> m.isEmpty()).verifyComplete();
    }

    @Test
    void responsesAndItemsAreBoundedInNumber() {
        InMemoryItemStore small = InMemoryItemStore.builder().maxResponses(10).maxItems(15).clock(clock).build();
        List<StoredResponse> responses = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            StoredResponse r = response(2);
            responses.add(r);
            small.put(r).block();
        }
        small.cleanUp();

        long keptResponses = responses.stream().filter(r -> small.response(r.id()).block() != null).count();
        List<String> ids = responses.stream().flatMap(r -> itemIds(r).stream()).toList();
        int keptItems = small.items(ids).block().size();

        assertThat(keptResponses).isBetween(1L, 10L);
        assertThat(keptItems).isBetween(1, 15);
    }

    @Test
    void boundsMustBePositive() {
        assertThatThrownBy(() -> InMemoryItemStore.builder().maxResponses(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxResponses");
        assertThatThrownBy(() -> InMemoryItemStore.builder().maxItems(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxItems");
        assertThatThrownBy(() -> InMemoryItemStore.builder().maxAge(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxAge");
        assertThat(InMemoryItemStore.builder().build().toString())
                .isEqualTo("InMemoryItemStore[maxResponses=10000, maxItems=100000, maxAge=PT24H]");
    }

    /** A clock a test moves forward. */
    static final class MovableClock extends Clock {

        private final AtomicReference<Instant> now;

        MovableClock(Instant start) {
            this.now = new AtomicReference<>(start);
        }

        void advance(Duration by) {
            now.updateAndGet(t -> t.plus(by));
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    }
}
