package dev.ruminate.transport.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.RateLimitException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.ResponseStarted;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * The guards on virtual time, around a call that counts its subscriptions (each one a request):
 * the retry's waits, Retry-After as a floor, and that cancelling stops the retries.
 */
class ResilienceTest {

    private static final ChatEvent STARTED = new ResponseStarted("p", "m", null);

    private static ProviderHttpException unavailable() {
        return new ProviderHttpException("p", 503, ProviderError.UNKNOWN, null, null, "");
    }

    private static Resilience retrying(int attempts, Duration wait) {
        return Resilience.builder().retry(Retry.of("p", RetryConfig.custom().maxAttempts(attempts).waitDuration(wait).build()))
                .build();
    }

    @Test
    void retriesWaitTheRetrysIntervalAndGiveUpAfterItsAttempts() {
        AtomicInteger requests = new AtomicInteger();
        Flux<ChatEvent> call = Flux.defer(() -> {
            requests.incrementAndGet();
            return Flux.error(unavailable());
        });

        StepVerifier.withVirtualTime(() -> retrying(3, Duration.ofSeconds(2)).apply("p", call))
                .expectSubscription()
                .then(() -> assertThat(requests).hasValue(1))
                .thenAwait(Duration.ofSeconds(2))
                .then(() -> assertThat(requests).hasValue(2))
                .thenAwait(Duration.ofSeconds(2))
                .expectError(ProviderHttpException.class)
                .verify(Duration.ofSeconds(5));
        assertThat(requests).hasValue(3);
    }

    @Test
    void retryAfterIsAFloorUnderTheInterval() {
        AtomicInteger requests = new AtomicInteger();
        Flux<ChatEvent> call = Flux.defer(() -> requests.incrementAndGet() == 1
                ? Flux.error(new RateLimitException("p", ProviderError.UNKNOWN, null, Duration.ofSeconds(30), ""))
                : Flux.just(STARTED));

        StepVerifier.withVirtualTime(() -> retrying(2, Duration.ofMillis(100)).apply("p", call))
                .expectSubscription()
                .thenAwait(Duration.ofSeconds(29))
                .then(() -> assertThat(requests).as("not before Retry-After").hasValue(1))
                .thenAwait(Duration.ofSeconds(1))
                .expectNext(STARTED)
                .verifyComplete();
    }

    @Test
    void theRetrysOwnPredicateNarrowsWhatIsRetriedAndItsMetricsSayWhy() {
        AtomicInteger requests = new AtomicInteger();
        Flux<ChatEvent> call = Flux.defer(() -> {
            requests.incrementAndGet();
            return Flux.error(unavailable());
        });
        Retry refusing = Retry.of("p", RetryConfig.custom().maxAttempts(5).waitDuration(Duration.ofMillis(1))
                .retryOnException(e -> !(e instanceof ProviderHttpException)).build());

        StepVerifier.create(Resilience.builder().retry(refusing).build().apply("p", call))
                .expectError(ProviderHttpException.class)
                .verify(Duration.ofSeconds(5));

        assertThat(requests).hasValue(1);
        assertThat(refusing.getMetrics().getNumberOfFailedCallsWithoutRetryAttempt()).isEqualTo(1);
    }

    @Test
    void cancellingStopsTheRetries() {
        AtomicInteger requests = new AtomicInteger();
        Flux<ChatEvent> call = Flux.defer(() -> {
            requests.incrementAndGet();
            return Flux.error(unavailable());
        });

        VirtualTimeScheduler time = VirtualTimeScheduler.create();
        StepVerifier.withVirtualTime(() -> retrying(10, Duration.ofSeconds(1)).apply("p", call), () -> time, Long.MAX_VALUE)
                .expectSubscription()
                .thenAwait(Duration.ofMillis(1500))
                .thenCancel()
                .verify(Duration.ofSeconds(5));
        time.advanceTimeBy(Duration.ofMinutes(1));

        assertThat(requests).hasValue(2);
    }

    @Test
    void anErrorAfterAnEventIsNeverRetried() {
        AtomicInteger requests = new AtomicInteger();
        Flux<ChatEvent> call = Flux.defer(() -> {
            requests.incrementAndGet();
            return Flux.concat(Flux.just(STARTED, new ContentDelta(0, "Hel")), Flux.error(unavailable()));
        });

        StepVerifier.withVirtualTime(() -> retrying(5, Duration.ofMillis(10)).apply("p", call))
                .expectNext(STARTED, new ContentDelta(0, "Hel"))
                .expectError(ProviderHttpException.class)
                .verify(Duration.ofSeconds(5));
        assertThat(requests).hasValue(1);
    }

    @Test
    void nonPositiveTimeoutsAreRefused() {
        assertThatThrownBy(() -> new Timeouts(Duration.ZERO, null, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Timeouts(null, Duration.ofSeconds(-1), null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Resilience.NONE.apply("p", Flux.just(STARTED)).collectList().block()).containsExactly(STARTED);
    }
}
