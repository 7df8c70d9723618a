package dev.ruminate.gateway.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.gateway.GatewayHarness;
import dev.ruminate.gateway.Http;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.RecordedRequest;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Two gateway instances behind a load balancer: a response stored by one is continued on the other
 * through a shared Redis store, and state sealed by one under the configured key opens on the other
 * (and so survives a restart).
 */
@ExtendWith(NettyLeakCheck.class)
class SeveralInstancesTest {

    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    private static final String ANTHROPIC = "anthropic/pydantic-thinking-stream.sse";
    private static final String KEY = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes(
            java.nio.charset.StandardCharsets.US_ASCII));

    private static GatewayHarness instance(String... extra) {
        GatewayHarness gateway = new GatewayHarness(extra);
        gateway.anthropic.always(EmulatorResponse.replay(GatewayHarness.fixture(ANTHROPIC), "text/event-stream"));
        return gateway;
    }

    @Test
    void aResponseStoredInRedisByOneInstanceIsContinuedOnAnother() {
        String[] redis = {"ruminate.gateway.store.type=redis", "ruminate.gateway.store.redis.uri=" + REDIS.uri(),
            "ruminate.gateway.store.redis.prefix=several:", "ruminate.gateway.state.key-id=shared",
            "ruminate.gateway.state.key=" + KEY};
        try (GatewayHarness a = instance(redis); GatewayHarness b = instance(redis)) {
            JsonNode turn1 = a.http().post(Http.request("claude", "How do I cross the street?"));

            ObjectNode turn2 = Http.request("claude", "And at night?");
            turn2.put("previous_response_id", turn1.path("id").asString());
            b.http().post(turn2);

            RecordedRequest sent = b.anthropic.requests().get(0);
            assertThat(sent.rejectedBy()).isNull();
            JsonNode thinking = Http.json(sent.body()).path("messages").get(1).path("content").get(0);
            assertThat(thinking.path("type").asString()).isEqualTo("thinking");
            assertThat(thinking.path("signature").asString()).startsWith("EvMCCkYICxgCKkCHP2cSuEdc");
        }
    }

    @Test
    void stateSealedUnderTheConfiguredKeyOpensOnAnotherInstanceAndNotUnderAnotherKey() {
        ObjectNode first = Http.request("claude", "How do I cross the street?");
        first.put("store", false);
        ObjectNode second = Http.request("claude", null);
        second.put("store", false);
        try (GatewayHarness a = instance("ruminate.gateway.state.key=" + KEY);
             GatewayHarness b = instance("ruminate.gateway.state.key=" + KEY);
             GatewayHarness stranger = instance()) {
            JsonNode turn1 = a.http().post(first);
            assertThat(turn1.path("output").get(0).path("encrypted_content").asString()).startsWith("rgw1.k1.");
            ArrayNode input = second.putArray("input");
            input.addObject().put("role", "user").put("content", "How do I cross the street?");
            turn1.path("output").forEach(input::add);
            input.addObject().put("role", "user").put("content", "And at night?");

            b.http().post(second);
            assertThat(b.anthropic.requests().get(0).body()).contains("\"signature\":\"EvMCCkYICxgCKkCHP2cSuEdc");

            Http.Failure refused = stranger.http().fail(second);
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.body().path("error").path("param").asString()).isEqualTo("input[1].encrypted_content");
            assertThat(stranger.anthropic.requests()).isEmpty();
        }
    }
}
