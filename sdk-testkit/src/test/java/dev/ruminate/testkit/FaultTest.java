package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.PrematureCloseException;
import reactor.test.StepVerifier;

@ExtendWith(NettyLeakCheck.class)
class FaultTest {

    private static final byte[] BODY = ChatCompletionsScript.create()
            .reasoning("Let me think about this carefully.")
            .content("The answer is 42.")
            .usage(10, 20, 5)
            .tokensOf(2)
            .toSse()
            .getBytes(StandardCharsets.UTF_8);

    private ProviderEmulator emulator;
    private URI base;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
        base = emulator.baseUrl();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 137, 500})
    void resetDeliversExactlyTheFirstBytesThenAPrematureClose(int bytes) {
        emulator.enqueue(EmulatorResponse.sse(new String(BODY, StandardCharsets.UTF_8))
                .chunked(ChunkPlan.fixed(50))
                .resetAfter(bytes));
        ByteArrayOutputStream received = new ByteArrayOutputStream();

        StepVerifier.create(Http.client(base).get().uri("/v1/chat/completions")
                        .responseContent().asByteArray()
                        .doOnNext(received::writeBytes))
                .thenConsumeWhile(chunk -> true)
                .expectError(PrematureCloseException.class)
                .verify(Http.TIMEOUT);

        assertThat(received.toByteArray()).isEqualTo(Arrays.copyOf(BODY, bytes));
        StepVerifier.create(emulator.connectionClosed(0)).expectComplete().verify(Http.TIMEOUT);
    }

    @Test
    void resetOfALengthDelimitedBodyAlsoEndsInAPrematureClose() {
        String json = "{\"choices\":[{\"message\":{\"content\":\"partial answer\"}}]}";
        emulator.enqueue(EmulatorResponse.json(200, json).resetAfter(10));

        StepVerifier.create(Http.client(base).get().uri("/").responseContent().aggregate().asString())
                .expectError(PrematureCloseException.class)
                .verify(Http.TIMEOUT);
    }

    @Test
    void stallKeepsTheResponseOpenUntilTheClientCancelsAndTheEmulatorSeesTheClose() {
        int bytes = 120;
        emulator.enqueue(EmulatorResponse.sse(new String(BODY, StandardCharsets.UTF_8))
                .chunked(ChunkPlan.fixed(40))
                .stallAfter(bytes));
        ByteArrayOutputStream received = new ByteArrayOutputStream();

        // Read until the stall point, then stop: the cancel must close the HTTP exchange.
        Flux<Integer> readUntilStall = Http.client(base).get().uri("/")
                .responseContent().asByteArray()
                .doOnNext(received::writeBytes)
                .map(chunk -> received.size())
                .takeUntil(total -> total >= bytes);
        StepVerifier.create(readUntilStall)
                .thenConsumeWhile(total -> total < bytes)
                .expectNext(bytes)
                .verifyComplete();

        assertThat(received.toByteArray()).isEqualTo(Arrays.copyOf(BODY, bytes));
        StepVerifier.create(emulator.connectionClosed(0)).expectComplete().verify(Http.TIMEOUT);
        assertThat(emulator.openConnections()).isZero();
    }

    @Test
    void stallAfterZeroBytesSendsTheHeadersAndNothingElse() {
        emulator.enqueue(EmulatorResponse.sse("data: never\n\n").stallAfter(0));

        // The status arrives although the body never does.
        StepVerifier.create(Http.client(base).get().uri("/").response().map(response -> response.status().code()))
                .expectNext(200)
                .verifyComplete();
        StepVerifier.create(emulator.connectionClosed(0)).expectComplete().verify(Http.TIMEOUT);
    }

    @Test
    void stalledResponseTimesOutOnTheClientSide() {
        emulator.enqueue(EmulatorResponse.sse(new String(BODY, StandardCharsets.UTF_8)).stallAfter(30));

        StepVerifier.create(Http.client(base).get().uri("/").responseContent().asByteArray()
                        .timeout(Duration.ofMillis(300)))
                .thenConsumeWhile(chunk -> true)
                .expectError(TimeoutException.class)
                .verify(Http.TIMEOUT);
        StepVerifier.create(emulator.connectionClosed(0)).expectComplete().verify(Http.TIMEOUT);
    }

    @Test
    void delayWaitsBetweenChunksAndStillDeliversEveryByte() {
        byte[] body = "0123456789".getBytes(StandardCharsets.US_ASCII);
        Duration delay = Duration.ofMillis(40);
        emulator.enqueue(EmulatorResponse.bytes("application/octet-stream", body)
                .chunked(ChunkPlan.fixed(2))
                .delay(delay));

        long started = System.nanoTime();
        byte[] received = Http.get(base, "/").body();
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);

        assertThat(received).isEqualTo(body);
        // Five chunks, four waits between them: a lower bound only, which no slow machine can break.
        assertThat(elapsed).isGreaterThanOrEqualTo(delay.multipliedBy(4));
    }

    @Test
    void aKeptAliveConnectionIsReportedClosedOnlyWhenItCloses() {
        emulator.always(EmulatorResponse.json(200, "{}"));
        Http.get(base, "/");

        Mono<Void> closed = emulator.connectionClosed(0);
        StepVerifier.create(closed).expectSubscription().expectNoEvent(Duration.ofMillis(100)).thenCancel().verify();
        assertThat(emulator.openConnections()).isEqualTo(1);

        emulator.close();
        StepVerifier.create(closed).expectComplete().verify(Http.TIMEOUT);
    }
}
