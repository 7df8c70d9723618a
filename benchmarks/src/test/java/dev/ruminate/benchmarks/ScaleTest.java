package dev.ruminate.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.NettyLeakCheck;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 21's scale: 10,000 complete streams open at the same time through one provider instance, and 1,000
 * concurrent clients through the gateway, against an upstream in a second JVM ({@link ScaleServing}); every message
 * checked against its own request's expected answer, and the heap per open stream held to a bound.
 *
 * <p>Concurrency is shown, not assumed: the upstream holds every stream after its first events and lets them go
 * only once it holds all of them and every client has had its first event ({@link ScaleRound#check}: held and
 * released all N, none ended before).
 *
 * <p>The bounds have headroom over what was measured in this test's JVM (which runs with Netty's paranoid leak
 * detection; see benchmarks/README.md, "Scale (issue 21)"): an idle provider stream measured 8–9 KB here, so 16 KiB
 * (the PERF.md target for an idle stream) catches a stream that starts keeping its buffers or its decoder's copies;
 * the gateway's serving JVM (gateway and upstream) measured about 45 KB per client, bounded at 96 KiB.
 */
@ExtendWith(NettyLeakCheck.class)
// generous for a loaded 2-core machine: 10,000 connections are opened through the accept backlog in a few seconds
// when the machine is quiet
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ScaleTest {

    /** PERF.md's target for an idle open stream. */
    private static final double PROVIDER_STREAM_BOUND = 16 * 1024;
    /** Gateway and upstream together, per concurrent client. */
    private static final double GATEWAY_CLIENT_BOUND = 96 * 1024;

    private static ScaleServing serving;

    @BeforeAll
    static void start() throws InterruptedException {
        serving = ScaleServing.start("1g");
    }

    @AfterAll
    static void stop() {
        serving.close();
    }

    @Test
    void tenThousandStreamsThroughOneProviderAllOpenAtOnceEachWithItsOwnAnswer() throws InterruptedException {
        ScaleRound round = ScaleStreams.providerRound(serving, 10_000, 0);
        System.out.println(round.summary());

        assertThat(round.firstFailure()).isNull();
        assertThat(round.held()).isEqualTo(10_000);
        assertThat(round.released()).isEqualTo(10_000);
        assertThat(round.endedBeforeRelease()).isZero();
        assertThat(round.correct()).isEqualTo(10_000);
        assertThat(round.clientPerStream()).isPositive().isLessThan(PROVIDER_STREAM_BOUND);
    }

    @Test
    void aThousandClientsThroughTheGatewayAllOpenAtOnceEachWithItsOwnAnswer() throws InterruptedException {
        ScaleRound round = ScaleStreams.gatewayRound(serving, 1_000, 1_000_000);
        System.out.println(round.summary());

        assertThat(round.firstFailure()).isNull();
        assertThat(round.held()).isEqualTo(1_000);
        assertThat(round.released()).isEqualTo(1_000);
        assertThat(round.endedBeforeRelease()).isZero();
        assertThat(round.correct()).isEqualTo(1_000);
        assertThat(round.servingPerStream()).isPositive().isLessThan(GATEWAY_CLIENT_BOUND);
    }
}
