package dev.ruminate.gateway.auth;

import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The per-key rate limit: one Resilience4j rate limiter per gateway key, held in a registry under
 * the key's {@linkplain GatewayKeys#fingerprint fingerprint} (never the key). A request that finds
 * no permit is refused at once.
 *
 * <p>Thread-safe.
 *
 * @since 0.2
 */
public final class KeyRateLimits {

    private final @Nullable RateLimiterRegistry registry;

    private KeyRateLimits(@Nullable RateLimiterRegistry registry) {
        this.registry = registry;
    }

    /**
     * No limit.
     *
     * @return limits that always grant
     */
    public static KeyRateLimits none() {
        return new KeyRateLimits(null);
    }

    /**
     * A limit of so many requests per period and key.
     *
     * @param requestsPerPeriod the requests allowed per period, at least 1
     * @param period the period, positive
     * @return the limits
     */
    public static KeyRateLimits of(int requestsPerPeriod, Duration period) {
        if (requestsPerPeriod < 1) {
            throw new IllegalArgumentException("requests per period must be at least 1");
        }
        Objects.requireNonNull(period, "period");
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("period must be positive");
        }
        return new KeyRateLimits(RateLimiterRegistry.of(RateLimiterConfig.custom()
                .limitForPeriod(requestsPerPeriod)
                .limitRefreshPeriod(period)
                .timeoutDuration(Duration.ZERO)
                .build()));
    }

    /**
     * Takes a permit for a key.
     *
     * @param fingerprint the key's fingerprint (or a fixed name when auth is off)
     * @return true when the request may proceed
     */
    public boolean tryAcquire(String fingerprint) {
        return registry == null || registry.rateLimiter("gateway-key-" + fingerprint).acquirePermission();
    }

    /**
     * Returns the registry, for metrics and tests.
     *
     * @return the registry, or null when there is no limit
     */
    public @Nullable RateLimiterRegistry registry() {
        return registry;
    }
}
