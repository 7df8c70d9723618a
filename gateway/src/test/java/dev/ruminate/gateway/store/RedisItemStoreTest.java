package dev.ruminate.gateway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.ruminate.testkit.NettyLeakCheck;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.test.StepVerifier;

@ExtendWith(NettyLeakCheck.class)
class RedisItemStoreTest extends ItemStoreContract {

    private static final Duration TTL = Duration.ofHours(1);

    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    private static RedisClient client;
    private static StatefulRedisConnection<String, String> admin;

    private final List<RedisItemStore> opened = new ArrayList<>();
    private String prefix;
    private RedisItemStore store;

    @BeforeAll
    static void connect() {
        client = RedisClient.create(REDIS.uri());
        admin = client.connect();
    }

    @AfterAll
    static void disconnect() {
        admin.close();
        client.shutdown();
    }

    @BeforeEach
    void newStore() {
        // a prefix per test: tests share one server
        prefix = "test:" + UUID.randomUUID() + ":";
        store = open(new RedisItemStore(client, prefix, TTL));
    }

    @AfterEach
    void closeStores() {
        opened.forEach(RedisItemStore::close);
    }

    @Override
    ItemStore store() {
        return store;
    }

    @Override
    void letExpire(StoredResponse response, Collection<String> itemIds) {
        RedisCommands<String, String> redis = admin.sync();
        List<String> keys = new ArrayList<>();
        keys.add(store.responseKey(response.id()));
        itemIds.forEach(id -> keys.add(store.itemKey(id)));
        response.outputByCallId().keySet().forEach(id -> keys.add(store.callKey(id)));
        response.stateItemsByItemId().keySet().forEach(id -> keys.add(store.stateKey(id)));
        for (String key : keys) {
            // every key expires after the store's TTL; then Redis is made to expire it now
            assertThat(redis.pttl(key)).as(key).isBetween(TTL.toMillis() - 60_000, TTL.toMillis());
            assertThat(redis.pexpire(key, 1)).isTrue();
        }
    }

    @Test
    void twoGatewayInstancesSeeEachOthersWrites() {
        try (RedisItemStore a = RedisItemStore.connect(REDIS.uri(), prefix, TTL);
             RedisItemStore b = RedisItemStore.connect(REDIS.uri(), prefix, TTL)) {
            StoredResponse fromA = response(2);
            StoredResponse fromB = response(2);

            StepVerifier.create(a.put(fromA)).verifyComplete();
            StepVerifier.create(b.put(fromB)).verifyComplete();

            StepVerifier.create(b.response(fromA.id())).expectNext(fromA).verifyComplete();
            StepVerifier.create(a.response(fromB.id())).expectNext(fromB).verifyComplete();
            StepVerifier.create(b.items(itemIds(fromA))).expectNextMatches(m -> m.size() == 2).verifyComplete();
        }
    }

    @Test
    void keysAreUnderThePrefixAndValuesAreJson() {
        StoredResponse response = response(2);
        StepVerifier.create(store.put(response)).verifyComplete();
        RedisCommands<String, String> redis = admin.sync();

        assertThat(redis.keys(prefix + "*")).containsExactlyInAnyOrder(prefix + "response:" + response.id(),
                prefix + "item:" + itemIds(response).get(0), prefix + "item:" + itemIds(response).get(1));
        assertThat(redis.get(prefix + "response:" + response.id()))
                .startsWith("{\"id\":\"" + response.id() + "\",\"model\":\"deepseek-r1\"");
        assertThat(redis.get(prefix + "item:" + itemIds(response).get(0))).isEqualTo(response.output().get(0));
        // another prefix is another store
        try (RedisItemStore other = RedisItemStore.connect(REDIS.uri(), "other:" + prefix, TTL)) {
            StepVerifier.create(other.response(response.id())).verifyComplete();
        }
    }

    @Test
    void aShortTtlExpiresOnRedisOwnClock() {
        RedisItemStore quick = open(new RedisItemStore(client, prefix, Duration.ofMillis(200)));
        StoredResponse response = response(1);
        StepVerifier.create(quick.put(response)).verifyComplete();

        // -2 when already gone (a slow machine), never -1 (no expiry) nor more than the TTL
        assertThat(admin.sync().pttl(quick.responseKey(response.id()))).isBetween(-2L, 200L).isNotEqualTo(-1L);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                StepVerifier.create(quick.response(response.id())).verifyComplete());
    }

    @Test
    void aValueThatIsNotAStoredResponseIsAnErrorNotAnEmptyAnswer() {
        admin.sync().set(store.responseKey("resp_foreign"), "not json");

        StepVerifier.create(store.response("resp_foreign")).verifyError(IllegalArgumentException.class);
    }

    @Test
    void aMalformedUriIsRefusedWithoutQuotingItsPassword() {
        Throwable thrown = catchThrowable(() -> RedisItemStore.connect(
                "redis://user:s3cret-pw@bad host:6379", RedisItemStore.DEFAULT_PREFIX, Duration.ofMinutes(1)));

        assertThat(thrown).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("malformed");
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            assertThat(String.valueOf(t.getMessage())).doesNotContain("s3cret-pw");
        }
    }

    @Test
    void closingReleasesTheConnection() {
        int before = clients();
        RedisItemStore closing = RedisItemStore.connect(REDIS.uri(), prefix, TTL);
        assertThat(clients()).isEqualTo(before + 1);

        closing.close();
        closing.close();

        await().atMost(Duration.ofSeconds(10)).until(() -> clients() == before);
        StepVerifier.create(closing.put(response(1)))
                .verifyErrorSatisfies(e -> assertThat(e).isInstanceOf(IllegalStateException.class)
                        .hasMessage("the Redis item store is closed"));
        StepVerifier.create(closing.response("resp_x")).verifyError(IllegalStateException.class);
        StepVerifier.create(closing.items(List.of("x"))).verifyError(IllegalStateException.class);
        assertThat(closing.toString()).isEqualTo("RedisItemStore[prefix=" + prefix + ", ttl=PT1H]");
    }

    private static int clients() {
        return (int) admin.sync().clientList().lines().filter(l -> !l.isBlank()).count();
    }

    private RedisItemStore open(RedisItemStore s) {
        opened.add(s);
        return s;
    }
}
