package dev.ruminate.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.gateway.auth.GatewayKeys;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.test.StepVerifier;

/** The per-key rate limit, turning auth off, and cancellation of the upstream exchange by a client that goes away. */
@ExtendWith(NettyLeakCheck.class)
class GatewaySecurityTest {

    @Test
    void eachKeyHasItsOwnRateLimit() {
        try (GatewayHarness gateway = new GatewayHarness("ruminate.gateway.auth.keys=" + GatewayHarness.KEY
                + ",second-key-abcdef", "ruminate.gateway.rate-limit.requests-per-period=2",
                "ruminate.gateway.rate-limit.period=1h")) {
            Http first = gateway.http();
            assertThat(first.get("/v1/models").status()).isEqualTo(200);
            assertThat(first.get("/v1/models").status()).isEqualTo(200);
            Http.Reply refused = first.get("/v1/models");
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.json().path("error").path("code").asString()).isEqualTo("rate_limit_exceeded");

            assertThat(gateway.http("second-key-abcdef").get("/v1/models").status()).isEqualTo(200);
            // the limiters are registered under the keys' fingerprints, never the keys
            assertThat(gateway.bean(dev.ruminate.gateway.auth.GatewayAuthFilter.class).rateLimiterNames())
                    .containsExactlyInAnyOrder("gateway-key-" + GatewayKeys.fingerprint(GatewayHarness.KEY),
                            "gateway-key-" + GatewayKeys.fingerprint("second-key-abcdef"))
                    .noneMatch(n -> n.contains(GatewayHarness.KEY) || n.contains("second-key-abcdef"));
        }
    }

    @Test
    void authMayBeTurnedOffOnALoopbackAddress() {
        try (GatewayHarness gateway = new GatewayHarness("ruminate.gateway.auth.enabled=false")) {
            assertThat(gateway.http(null).get("/v1/models").status()).isEqualTo(200);
        }
    }

    @Test
    void turningAuthOffOnANonLoopbackAddressFailsStartup() {
        assertThatThrownBy(() -> new GatewayHarness("ruminate.gateway.auth.enabled=false", "server.address=0.0.0.0").close())
                .hasStackTraceContaining("ruminate.gateway.auth.enabled")
                .hasStackTraceContaining("loopback");
    }

    @Test
    void startupFailsWithoutKeysAndNamesTheProperty() {
        assertThatThrownBy(() -> new GatewayHarness("ruminate.gateway.auth.keys=").close())
                .hasStackTraceContaining("ruminate.gateway.auth.keys");
    }

    @Test
    void startupFailsForARouteWithoutAProvider() {
        assertThatThrownBy(() -> new GatewayHarness("ruminate.gateway.routes.ghost.provider=nobody").close())
                .hasStackTraceContaining("ruminate.gateway.routes.ghost.provider");
    }

    @Test
    void aClientThatGoesAwayCancelsTheUpstreamExchange() {
        try (GatewayHarness gateway = new GatewayHarness()) {
            byte[] recording = GatewayHarness.fixture("deepseek/vercel-deepseek-reasoning-tool-call-stream.sse");
            // the upstream sends part of its stream, then neither ends nor sends more
            gateway.deepseek.enqueue(EmulatorResponse.replay(recording, "text/event-stream").stallAfter(recording.length / 3));

            List<String> seen = gateway.http().chunks(Http.request("deepseek-reasoner", "Hi"))
                    .take(1).collectList().block(Duration.ofSeconds(10));

            assertThat(String.join("", seen)).contains("response.created");
            StepVerifier.create(gateway.deepseek.connectionClosed(0)).expectComplete().verify(Duration.ofSeconds(10));
        }
    }
}
