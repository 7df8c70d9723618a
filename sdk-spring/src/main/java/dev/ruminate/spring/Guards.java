package dev.ruminate.spring;

import dev.ruminate.transport.resilience.Resilience;
import dev.ruminate.transport.resilience.Timeouts;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.core.Registry;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * Maps the {@code timeouts.*} and {@code resilience.*} properties of one provider onto
 * {@link Resilience}. Each guard is named {@code resilience.name}, else the provider's name.
 *
 * <p>Where Resilience4j's registry of a guard is present, the guard is the registry's: the instance
 * it holds under that name, else one made from its configuration of that name, else one made from
 * the properties and registered there; so {@code resilience4j.*} configuration applies and the
 * registry's events, actuator endpoints and metrics see it. A guard configured both in the registry
 * and in the properties is refused rather than one of them ignored. Without the registry, the guard
 * is made from the properties alone.
 *
 * <p>Invalid values (a negative wait, a threshold above 100) fail with Resilience4j's own message,
 * which {@link ProviderFactory} reports with the provider's name. Thread-safe.
 */
final class Guards {

    static final Duration DEFAULT_RETRY_WAIT = Duration.ofMillis(500);
    static final double DEFAULT_MULTIPLIER = 2.0;
    static final double DEFAULT_JITTER = 0.5;

    private final Resilience4jRegistries registries;
    /** Names of the guards registered here from properties: providers sharing a name share them. */
    private final Set<String> registered = ConcurrentHashMap.newKeySet();
    /** The circuit breaker guarding each provider built, by provider name, for its health indicator. */
    private final Map<String, CircuitBreaker> breakers = new ConcurrentHashMap<>();

    Guards(Resilience4jRegistries registries) {
        this.registries = Objects.requireNonNull(registries, "registries");
    }

    Resilience of(String name, ProviderProperties settings) {
        Resilience.Builder guards = Resilience.builder();
        ProviderProperties.TimeoutProperties t = settings.timeouts();
        if (t != null) {
            guards.timeouts(new Timeouts(t.firstEvent(), t.idle(), t.total()));
        }
        ProviderProperties.ResilienceProperties r = settings.resilience();
        String id = r != null && r.name() != null && !r.name().isBlank() ? r.name().strip() : name;
        RetryConfig retryConfig = r != null ? retryConfig(r.retry()) : null;
        Retry retry = guard("retry", registries.retry(), id, retryConfig, (registry, config) -> registry.retry(id, config),
                (registry, config) -> registry.retry(id, config), Retry::of);
        if (retry != null) {
            guards.retry(retry);
        }
        CircuitBreakerConfig breakerConfig = r != null ? circuitBreakerConfig(r.circuitBreaker()) : null;
        CircuitBreaker breaker = guard("circuit-breaker", registries.circuitBreaker(), id, breakerConfig,
                (registry, config) -> registry.circuitBreaker(id, config),
                (registry, config) -> registry.circuitBreaker(id, config), CircuitBreaker::of);
        if (breaker != null) {
            guards.circuitBreaker(breaker);
            breakers.put(name, breaker);
        } else {
            breakers.remove(name);
        }
        RateLimiterConfig limiterConfig = r != null ? rateLimiterConfig(r.rateLimiter()) : null;
        RateLimiter limiter = guard("rate-limiter", registries.rateLimiter(), id, limiterConfig,
                (registry, config) -> registry.rateLimiter(id, config),
                (registry, config) -> registry.rateLimiter(id, config), RateLimiter::of);
        if (limiter != null) {
            guards.rateLimiter(limiter);
        }
        BulkheadConfig bulkheadConfig = r != null ? bulkheadConfig(r.bulkhead()) : null;
        Bulkhead bulkhead = guard("bulkhead", registries.bulkhead(), id, bulkheadConfig,
                (registry, config) -> registry.bulkhead(id, config),
                (registry, config) -> registry.bulkhead(id, config), Bulkhead::of);
        if (bulkhead != null) {
            guards.bulkhead(bulkhead);
        }
        return guards.build();
    }

    /**
     * One guard.
     *
     * @param property the property under {@code resilience}, for messages
     * @param registry Resilience4j's registry of this guard, or null
     * @param id the guard's name
     * @param fromProperties the configuration the properties give, or null when they configure none
     * @param byConfigName makes the guard from the registry's configuration named like it
     * @param byConfig makes the guard in the registry from the properties' configuration
     * @param standalone makes the guard outside any registry
     */
    private <G, C, R extends Registry<G, C>> @Nullable G guard(String property, @Nullable R registry, String id,
                                                                @Nullable C fromProperties,
                                                                BiFunction<R, String, G> byConfigName,
                                                                BiFunction<R, C, G> byConfig,
                                                                BiFunction<String, C, G> standalone) {
        if (registry == null) {
            return fromProperties == null ? null : standalone.apply(id, fromProperties);
        }
        String key = property + '/' + id;
        G existing = registry.find(id).orElse(null);
        if (existing != null) {
            if (fromProperties != null && !registered.contains(key)) {
                throw bothConfigured(property, id);
            }
            return existing;
        }
        if (registry.getConfiguration(id).isPresent()) {
            if (fromProperties != null) {
                throw bothConfigured(property, id);
            }
            return byConfigName.apply(registry, id);
        }
        if (fromProperties == null) {
            return null;
        }
        registered.add(key);
        return byConfig.apply(registry, fromProperties);
    }

    /** The circuit breaker of the provider last built under that name, if one guards it. */
    Optional<CircuitBreaker> circuitBreaker(String name) {
        return Optional.ofNullable(breakers.get(name));
    }

    private static IllegalArgumentException bothConfigured(String property, String id) {
        return new IllegalArgumentException("Resilience4j's registry already configures the " + property + " '" + id
                + "' (resilience4j.* instances or configs): configure it there or in resilience." + property + ", not both");
    }

    private static @Nullable RetryConfig retryConfig(ProviderProperties.@Nullable Retry settings) {
        if (settings == null || settings.maxAttempts() == null || settings.maxAttempts() <= 1) {
            return null;
        }
        Duration wait = orDefault(settings.initialWait(), DEFAULT_RETRY_WAIT);
        double multiplier = orDefault(settings.multiplier(), DEFAULT_MULTIPLIER);
        double jitter = orDefault(settings.jitter(), DEFAULT_JITTER);
        IntervalFunction intervals = jitter > 0
                ? IntervalFunction.ofExponentialRandomBackoff(wait, multiplier, jitter)
                : IntervalFunction.ofExponentialBackoff(wait, multiplier);
        return RetryConfig.custom()
                .maxAttempts(settings.maxAttempts())
                .intervalFunction(intervals)
                .build();
    }

    private static @Nullable CircuitBreakerConfig circuitBreakerConfig(ProviderProperties.@Nullable CircuitBreaker cb) {
        if (cb == null || !Boolean.TRUE.equals(cb.enabled())) {
            return null;
        }
        return CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .failureRateThreshold(orDefault(cb.failureRateThreshold(), 50f))
                .slidingWindowSize(orDefault(cb.slidingWindowSize(), 20))
                .minimumNumberOfCalls(orDefault(cb.minimumNumberOfCalls(), 10))
                .waitDurationInOpenState(orDefault(cb.waitInOpenState(), Duration.ofSeconds(30)))
                .build();
    }

    private static @Nullable RateLimiterConfig rateLimiterConfig(ProviderProperties.@Nullable RateLimiter rl) {
        if (rl == null || rl.limitForPeriod() == null) {
            return null;
        }
        return RateLimiterConfig.custom()
                .limitForPeriod(rl.limitForPeriod())
                .limitRefreshPeriod(orDefault(rl.refreshPeriod(), Duration.ofSeconds(1)))
                .timeoutDuration(orDefault(rl.timeout(), Duration.ZERO))
                .build();
    }

    private static @Nullable BulkheadConfig bulkheadConfig(ProviderProperties.@Nullable Bulkhead bh) {
        if (bh == null || bh.maxConcurrentCalls() == null) {
            return null;
        }
        // Zero wait: a stream holds its permit for long, so waiting for one would only queue callers.
        return BulkheadConfig.custom()
                .maxConcurrentCalls(bh.maxConcurrentCalls())
                .maxWaitDuration(Duration.ZERO)
                .build();
    }

    private static <T> T orDefault(@Nullable T value, T fallback) {
        return value != null ? value : fallback;
    }
}
