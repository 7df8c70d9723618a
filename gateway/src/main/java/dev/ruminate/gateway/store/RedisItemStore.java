package dev.ruminate.gateway.store;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.reactive.RedisReactiveCommands;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Keeps responses and their output items in Redis, for a gateway run as several instances behind a
 * load balancer: any instance finds what another stored. Uses Lettuce's reactive API on one shared
 * connection (Lettuce multiplexes concurrent commands over it).
 *
 * <p>Keys are {@code <prefix>response:<id>} (the response as JSON: id, model, created_at,
 * instructions, context and output items as JSON strings), {@code <prefix>item:<id>} (the item's
 * JSON as the gateway wrote it), {@code <prefix>call:<call id>} (a function call item by the call id
 * the gateway issued) and {@code <prefix>state:<id>} (the candidate state-only item after a message
 * or call), each written with {@code SET … PX <ttl>}: Redis forgets them on its
 * own, and bounds in size are Redis's {@code maxmemory} policy (a volatile eviction policy suits,
 * as every key has a TTL).
 *
 * <p>{@link #put} sends one {@code SET} per key, pipelined on the connection, not a
 * {@code MULTI}: a transaction is per-connection state, which concurrent puts on one shared
 * connection would interleave; and it is not needed, as every key is written once with an immutable
 * value, a reader learns an item id only from a response that is stored after its items are sent,
 * and a half-failed put leaves keys that only expire. Lookups are one {@code GET} or one
 * {@code MGET}.
 *
 * <p>Every method is non-blocking except {@link #close()} and the constructors, which connect.
 * A Redis failure is the returned {@code Mono}'s error. Thread-safe.
 *
 * @since 0.2
 */
public final class RedisItemStore implements ItemStore, AutoCloseable {

    /** The default key prefix. */
    public static final String DEFAULT_PREFIX = "ruminate:gateway:";

    private final @Nullable RedisClient ownedClient;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisReactiveCommands<String, String> redis;
    private final String prefix;
    private final Duration ttl;
    private final SetArgs setArgs;
    private volatile boolean closed;

    /**
     * Connects through a client the caller owns (and shuts down, after closing this store).
     *
     * @param client the client, with the Redis URI
     * @param prefix the key prefix, for example {@link #DEFAULT_PREFIX}; may be empty
     * @param ttl how long responses and items are kept, at least a millisecond
     * @throws io.lettuce.core.RedisConnectionException when Redis cannot be reached
     */
    public RedisItemStore(RedisClient client, String prefix, Duration ttl) {
        this(null, Objects.requireNonNull(client, "client").connect(StringCodec.UTF8), prefix, ttl);
    }

    private RedisItemStore(@Nullable RedisClient ownedClient, StatefulRedisConnection<String, String> connection,
                           String prefix, Duration ttl) {
        this.ownedClient = ownedClient;
        this.connection = connection;
        this.redis = connection.reactive();
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        if (ttl.toMillis() < 1) {
            throw new IllegalArgumentException("ttl must be at least a millisecond: " + ttl);
        }
        this.setArgs = SetArgs.Builder.px(ttl.toMillis());
    }

    /**
     * Connects to Redis with a client of its own, which {@link #close()} shuts down.
     *
     * @param redisUri the URI, for example {@code redis://localhost:6379/0} (credentials may be
     *     in it: it is never logged or shown by this class)
     * @param prefix the key prefix, for example {@link #DEFAULT_PREFIX}; may be empty
     * @param ttl how long responses and items are kept, at least a millisecond
     * @return the store
     * @throws IllegalArgumentException when the URI is malformed (the message does not quote it)
     * @throws io.lettuce.core.RedisConnectionException when Redis cannot be reached
     */
    public static RedisItemStore connect(String redisUri, String prefix, Duration ttl) {
        RedisURI uri;
        try {
            uri = RedisURI.create(Objects.requireNonNull(redisUri, "redisUri"));
        } catch (IllegalArgumentException e) {
            // the parser's message, and its URISyntaxException cause, quote the whole URI, password and all
            throw new IllegalArgumentException("the Redis URI is malformed (not shown: it may hold credentials); "
                    + "expected redis://[[user:]password@]host[:port][/database]");
        }
        RedisClient client = RedisClient.create(uri);
        try {
            return new RedisItemStore(client, client.connect(StringCodec.UTF8), prefix, ttl);
        } catch (RuntimeException e) {
            client.shutdown();
            throw e;
        }
    }

    @Override
    public Mono<Void> put(StoredResponse response) {
        Objects.requireNonNull(response, "response");
        return Mono.defer(() -> {
            if (closed) {
                return closedError();
            }
            List<Mono<String>> writes = new ArrayList<>();
            response.outputById(ItemJson::idOf)
                    .forEach((id, item) -> writes.add(redis.set(itemKey(id), item, setArgs)));
            response.outputByCallId()
                    .forEach((callId, item) -> writes.add(redis.set(callKey(callId), item, setArgs)));
            response.stateItemsByItemId()
                    .forEach((id, item) -> writes.add(redis.set(stateKey(id), item, setArgs)));
            writes.add(redis.set(responseKey(response.id()), ItemJson.write(response), setArgs));
            // subscribed together: Lettuce sends them back to back, one round trip's worth
            return Mono.when(writes);
        });
    }

    @Override
    public Mono<StoredResponse> response(String responseId) {
        Objects.requireNonNull(responseId, "responseId");
        return Mono.defer(() -> closed ? closedError() : redis.get(responseKey(responseId)).map(ItemJson::read));
    }

    @Override
    public Mono<Map<String, String>> items(Collection<String> itemIds) {
        return find(prefix + "item:", Objects.requireNonNull(itemIds, "itemIds"));
    }

    @Override
    public Mono<Map<String, String>> callItems(Collection<String> callIds) {
        return find(prefix + "call:", Objects.requireNonNull(callIds, "callIds"));
    }

    @Override
    public Mono<Map<String, String>> stateItems(Collection<String> itemIds) {
        return find(prefix + "state:", Objects.requireNonNull(itemIds, "itemIds"));
    }

    private Mono<Map<String, String>> find(String keyPrefix, Collection<String> idCollection) {
        List<String> ids = List.copyOf(idCollection);
        if (ids.isEmpty()) {
            return Mono.just(Map.of());
        }
        String[] keys = ids.stream().map(id -> keyPrefix + id).toArray(String[]::new);
        return Mono.defer(() -> closed ? closedError() : mget(ids, keys));
    }

    private Mono<Map<String, String>> mget(List<String> ids, String[] keys) {
        Flux<KeyValue<String, String>> values = redis.mget(keys);
        return values.collectList().map(found -> {
            // MGET answers in key order, one entry per key, empty for a missing key
            Map<String, String> byId = new LinkedHashMap<>();
            for (int i = 0; i < found.size(); i++) {
                KeyValue<String, String> kv = found.get(i);
                if (kv.hasValue()) {
                    byId.put(ids.get(i), kv.getValue());
                }
            }
            return byId;
        });
    }

    private static <T> Mono<T> closedError() {
        return Mono.error(new IllegalStateException("the Redis item store is closed"));
    }

    /**
     * Returns how long this store keeps what it writes.
     *
     * @return the time to live of every key
     */
    public Duration ttl() {
        return ttl;
    }

    /**
     * Returns the Redis key a response is stored under.
     *
     * @param responseId the response id
     * @return the key
     */
    public String responseKey(String responseId) {
        return prefix + "response:" + responseId;
    }

    /**
     * Returns the Redis key an output item is stored under.
     *
     * @param itemId the item id
     * @return the key
     */
    public String itemKey(String itemId) {
        return prefix + "item:" + itemId;
    }

    /**
     * Returns the Redis key a function call item is stored under by the call id the gateway issued.
     *
     * @param callId the call id
     * @return the key
     */
    public String callKey(String callId) {
        return prefix + "call:" + callId;
    }

    /**
     * Returns the Redis key of the candidate state-only item stored after a message or call.
     *
     * @param itemId the message's or call's id
     * @return the key
     */
    public String stateKey(String itemId) {
        return prefix + "state:" + itemId;
    }

    /**
     * Closes the connection, and shuts down the client when {@link #connect} made it; later calls
     * fail with {@link IllegalStateException}. Blocks until done; idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        connection.close();
        if (ownedClient != null) {
            ownedClient.shutdown();
        }
    }

    /**
     * Describes the store: prefix and TTL, never the URI (it may hold credentials).
     *
     * @return the description
     */
    @Override
    public String toString() {
        return "RedisItemStore[prefix=" + prefix + ", ttl=" + ttl + "]";
    }
}
