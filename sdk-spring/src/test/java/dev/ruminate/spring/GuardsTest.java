package dev.ruminate.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.transport.resilience.Resilience;
import dev.ruminate.transport.resilience.Timeouts;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class GuardsTest {

    private static ProviderProperties with(ProviderProperties.TimeoutProperties timeouts,
                                           ProviderProperties.ResilienceProperties resilience) {
        return new ProviderProperties("openai", null, null, null, null, null, null, null, null, timeouts, resilience, null, null, null);
    }

    @Test
    void nothingConfiguredMeansNoGuards() {
        Resilience guards = new Guards(Resilience4jRegistries.NONE).of("p", with(null, null));
        assertThat(guards.toString()).contains("retry=none", "circuitBreaker=none", "rateLimiter=none", "bulkhead=none");
        assertThat(guards.timeouts()).isEqualTo(Timeouts.NONE);
    }

    @Test
    void withoutRegistriesEveryGuardIsNamedAfterTheProvider() {
        Resilience guards = new Guards(Resilience4jRegistries.NONE).of("p", with(
                new ProviderProperties.TimeoutProperties(null, Duration.ofSeconds(5), Duration.ofSeconds(7), Duration.ofMinutes(1)),
                new ProviderProperties.ResilienceProperties(null, 
                        new ProviderProperties.Retry(3, Duration.ofMillis(100), 2.0, 0.0),
                        new ProviderProperties.CircuitBreaker(true, 25f, 10, 5, Duration.ofSeconds(3)),
                        new ProviderProperties.RateLimiter(5, Duration.ofSeconds(1), null),
                        new ProviderProperties.Bulkhead(2))));
        assertThat(guards.toString()).contains("retry=p", "circuitBreaker=p", "rateLimiter=p", "bulkhead=p");
        assertThat(guards.timeouts()).isEqualTo(new Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(7), Duration.ofMinutes(1)));
    }

    @Test
    void oneAttemptOrADisabledBreakerAddsNoGuard() {
        Resilience guards = new Guards(Resilience4jRegistries.NONE).of("p", with(null, new ProviderProperties.ResilienceProperties(null, 
                new ProviderProperties.Retry(1, null, null, null),
                new ProviderProperties.CircuitBreaker(false, null, null, null, null), null, null)));
        assertThat(guards.toString()).contains("retry=none", "circuitBreaker=none");
    }

    @Test
    void anImpossibleValueFailsWithResilience4jsReason() {
        assertThatThrownBy(() -> new Guards(Resilience4jRegistries.NONE).of("p", with(null, new ProviderProperties.ResilienceProperties(null, 
                null, new ProviderProperties.CircuitBreaker(true, 150f, null, null, null), null, null))))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
