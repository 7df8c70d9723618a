package dev.ruminate.spring;

import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import org.jspecify.annotations.Nullable;

/**
 * The Resilience4j registries the providers' guards are taken from, each when present (as beans,
 * from Resilience4j's Spring Boot integration or the application). A guard in a registry is
 * configured by {@code resilience4j.*} and seen by its actuator endpoints, events and Micrometer
 * metrics; see {@link ProviderFactory} for which guard is taken from where.
 *
 * <p>Immutable; the registries themselves are thread-safe.
 *
 * @param retry the retry registry, or null
 * @param circuitBreaker the circuit breaker registry, or null
 * @param rateLimiter the rate limiter registry, or null
 * @param bulkhead the (semaphore) bulkhead registry, or null
 * @since 0.1
 */
public record Resilience4jRegistries(@Nullable RetryRegistry retry, @Nullable CircuitBreakerRegistry circuitBreaker,
                                     @Nullable RateLimiterRegistry rateLimiter, @Nullable BulkheadRegistry bulkhead) {

    /** No registry: every guard is built from the {@code ruminate.providers.*.resilience} properties alone. */
    public static final Resilience4jRegistries NONE = new Resilience4jRegistries(null, null, null, null);
}
