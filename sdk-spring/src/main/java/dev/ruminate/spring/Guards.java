package dev.ruminate.spring;

import dev.ruminate.transport.resilience.Resilience;
import dev.ruminate.transport.resilience.Timeouts;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Maps the {@code timeouts.*} and {@code resilience.*} properties of one provider onto
 * {@link Resilience}, with Resilience4j instances named {@code ruminate-<name>}. Invalid values
 * (a negative wait, a threshold above 100) fail with Resilience4j's own message, which
 * {@link ProviderFactory} reports with the provider's name.
 */
final class Guards {

    static final Duration DEFAULT_RETRY_WAIT = Duration.ofMillis(500);
    static final double DEFAULT_MULTIPLIER = 2.0;
    static final double DEFAULT_JITTER = 0.5;

    private Guards() {
    }

    static Resilience of(String name, ProviderProperties settings) {
        String id = "ruminate-" + name;
        Resilience.Builder guards = Resilience.builder();
        ProviderProperties.TimeoutProperties t = settings.timeouts();
        if (t != null) {
            guards.timeouts(new Timeouts(t.firstEvent(), t.idle(), t.total()));
        }
        ProviderProperties.ResilienceProperties r = settings.resilience();
        if (r == null) {
            return guards.build();
        }
        Retry retry = retry(id, r.retry());
        if (retry != null) {
            guards.retry(retry);
        }
        ProviderProperties.CircuitBreaker cb = r.circuitBreaker();
        if (cb != null && Boolean.TRUE.equals(cb.enabled())) {
            guards.circuitBreaker(CircuitBreaker.of(id, CircuitBreakerConfig.custom()
                    .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                    .failureRateThreshold(orDefault(cb.failureRateThreshold(), 50f))
                    .slidingWindowSize(orDefault(cb.slidingWindowSize(), 20))
                    .minimumNumberOfCalls(orDefault(cb.minimumNumberOfCalls(), 10))
                    .waitDurationInOpenState(orDefault(cb.waitInOpenState(), Duration.ofSeconds(30)))
                    .build()));
        }
        ProviderProperties.RateLimiter rl = r.rateLimiter();
        if (rl != null && rl.limitForPeriod() != null) {
            guards.rateLimiter(RateLimiter.of(id, RateLimiterConfig.custom()
                    .limitForPeriod(rl.limitForPeriod())
                    .limitRefreshPeriod(orDefault(rl.refreshPeriod(), Duration.ofSeconds(1)))
                    .timeoutDuration(orDefault(rl.timeout(), Duration.ZERO))
                    .build()));
        }
        ProviderProperties.Bulkhead bh = r.bulkhead();
        if (bh != null && bh.maxConcurrentCalls() != null) {
            // Zero wait: a stream holds its permit for long, so waiting for one would only queue callers.
            guards.bulkhead(Bulkhead.of(id, BulkheadConfig.custom()
                    .maxConcurrentCalls(bh.maxConcurrentCalls())
                    .maxWaitDuration(Duration.ZERO)
                    .build()));
        }
        return guards.build();
    }

    private static @Nullable Retry retry(String id, ProviderProperties.@Nullable Retry settings) {
        if (settings == null || settings.maxAttempts() == null || settings.maxAttempts() <= 1) {
            return null;
        }
        Duration wait = orDefault(settings.initialWait(), DEFAULT_RETRY_WAIT);
        double multiplier = orDefault(settings.multiplier(), DEFAULT_MULTIPLIER);
        double jitter = orDefault(settings.jitter(), DEFAULT_JITTER);
        IntervalFunction intervals = jitter > 0
                ? IntervalFunction.ofExponentialRandomBackoff(wait, multiplier, jitter)
                : IntervalFunction.ofExponentialBackoff(wait, multiplier);
        return Retry.of(id, RetryConfig.custom()
                .maxAttempts(settings.maxAttempts())
                .intervalFunction(intervals)
                .build());
    }

    private static <T> T orDefault(@Nullable T value, T fallback) {
        return value != null ? value : fallback;
    }
}
