package dev.ruminate.gateway.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import reactor.core.publisher.Mono;

/**
 * Keeps responses and their output items in this process's memory, for a gateway run as one
 * instance: bounded in number (responses and items separately) and in age, evicted by Caffeine.
 *
 * <p>Memory: a response holds its whole resolved context, so a long conversation's responses each
 * hold its history; size {@code maxResponses} with the expected context size in mind. Items share
 * their strings with the responses that hold them.
 *
 * <p>Eviction work runs on the calling thread, amortised over writes (no background thread, no
 * lock held while waiting); every method completes without blocking. Thread-safe.
 *
 * @since 0.2
 */
public final class InMemoryItemStore implements ItemStore {

    /** The default number of responses kept. */
    public static final long DEFAULT_MAX_RESPONSES = 10_000;

    /** The default number of output items kept. */
    public static final long DEFAULT_MAX_ITEMS = 100_000;

    /** The default age after which a response or item is forgotten. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofHours(24);

    private final Cache<String, StoredResponse> responses;
    private final Cache<String, String> items;
    private final Cache<String, String> calls;
    private final Cache<String, String> states;
    private final long maxResponses;
    private final long maxItems;
    private final Duration maxAge;

    private InMemoryItemStore(Builder b) {
        Ticker ticker = clockTicker(b.clock);
        this.maxResponses = b.maxResponses;
        this.maxItems = b.maxItems;
        this.maxAge = b.maxAge;
        this.responses = Caffeine.newBuilder()
                .maximumSize(maxResponses)
                .expireAfterWrite(maxAge)
                .ticker(ticker)
                // maintenance on the caller, amortised: no work handed to the common pool
                .executor(Runnable::run)
                .build();
        this.items = Caffeine.newBuilder()
                .maximumSize(maxItems)
                .expireAfterWrite(maxAge)
                .ticker(ticker)
                .executor(Runnable::run)
                .build();
        this.calls = itemCache(maxItems, maxAge, ticker);
        this.states = itemCache(maxItems, maxAge, ticker);
    }

    private static Cache<String, String> itemCache(long maxItems, Duration maxAge, Ticker ticker) {
        return Caffeine.newBuilder()
                .maximumSize(maxItems)
                .expireAfterWrite(maxAge)
                .ticker(ticker)
                .executor(Runnable::run)
                .build();
    }

    /**
     * Starts a store with the defaults: {@link #DEFAULT_MAX_RESPONSES}, {@link #DEFAULT_MAX_ITEMS},
     * {@link #DEFAULT_MAX_AGE}, the system clock.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public Mono<Void> put(StoredResponse response) {
        Objects.requireNonNull(response, "response");
        return Mono.fromRunnable(() -> {
            items.putAll(response.outputById(ItemJson::idOf));
            calls.putAll(response.outputByCallId());
            states.putAll(response.stateItemsByItemId());
            responses.put(response.id(), response);
        });
    }

    @Override
    public Mono<StoredResponse> response(String responseId) {
        Objects.requireNonNull(responseId, "responseId");
        return Mono.fromSupplier(() -> responses.getIfPresent(responseId));
    }

    @Override
    public Mono<Map<String, String>> items(Collection<String> itemIds) {
        return find(items, Objects.requireNonNull(itemIds, "itemIds"));
    }

    @Override
    public Mono<Map<String, String>> callItems(Collection<String> callIds) {
        return find(calls, Objects.requireNonNull(callIds, "callIds"));
    }

    @Override
    public Mono<Map<String, String>> stateItems(Collection<String> itemIds) {
        return find(states, Objects.requireNonNull(itemIds, "itemIds"));
    }

    private static Mono<Map<String, String>> find(Cache<String, String> cache, Collection<String> keys) {
        return Mono.fromSupplier(() -> {
            Map<String, String> found = new LinkedHashMap<>();
            for (String key : keys) {
                String item = cache.getIfPresent(key);
                if (item != null) {
                    found.put(key, item);
                }
            }
            return found;
        });
    }

    /** Runs pending eviction now, so that a test counts what is kept exactly. */
    void cleanUp() {
        responses.cleanUp();
        items.cleanUp();
        calls.cleanUp();
        states.cleanUp();
    }

    /**
     * Describes the store's bounds.
     *
     * @return the description
     */
    @Override
    public String toString() {
        return "InMemoryItemStore[maxResponses=" + maxResponses + ", maxItems=" + maxItems + ", maxAge=" + maxAge + "]";
    }

    /** Caffeine reads time as nanoseconds from a Ticker; the store takes a Clock, as the rest of the gateway. */
    private static Ticker clockTicker(Clock clock) {
        if (clock.equals(Clock.systemUTC())) {
            return Ticker.systemTicker();
        }
        return () -> {
            Instant now = clock.instant();
            return now.getEpochSecond() * 1_000_000_000L + now.getNano();
        };
    }

    /** Configures an {@link InMemoryItemStore}. Not thread-safe. */
    public static final class Builder {

        private long maxResponses = DEFAULT_MAX_RESPONSES;
        private long maxItems = DEFAULT_MAX_ITEMS;
        private Duration maxAge = DEFAULT_MAX_AGE;
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /**
         * Sets how many responses are kept; beyond it, Caffeine evicts those least likely to be
         * used again.
         *
         * @param maxResponses positive
         * @return this builder
         */
        public Builder maxResponses(long maxResponses) {
            this.maxResponses = positive(maxResponses, "maxResponses");
            return this;
        }

        /**
         * Sets how many output items are kept for {@code item_reference}.
         *
         * @param maxItems positive
         * @return this builder
         */
        public Builder maxItems(long maxItems) {
            this.maxItems = positive(maxItems, "maxItems");
            return this;
        }

        /**
         * Sets how long after it was stored a response or item is forgotten.
         *
         * @param maxAge positive
         * @return this builder
         */
        public Builder maxAge(Duration maxAge) {
            if (maxAge.isNegative() || maxAge.isZero()) {
                throw new IllegalArgumentException("maxAge must be positive: " + maxAge);
            }
            this.maxAge = maxAge;
            return this;
        }

        /**
         * Sets the clock ages are measured with (tests move it); the system UTC clock by default.
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Builds the store.
         *
         * @return the store
         */
        public InMemoryItemStore build() {
            return new InMemoryItemStore(this);
        }

        private static long positive(long value, String name) {
            if (value <= 0) {
                throw new IllegalArgumentException(name + " must be positive: " + value);
            }
            return value;
        }
    }
}
