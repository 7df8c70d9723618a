package dev.ruminate.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.springboot.bulkhead.autoconfigure.BulkheadAutoConfiguration;
import io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import io.github.resilience4j.springboot.ratelimiter.autoconfigure.RateLimiterAutoConfiguration;
import io.github.resilience4j.springboot.retry.autoconfigure.RetryAutoConfiguration;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.test.StepVerifier;

/**
 * With Resilience4j's registries as beans, the providers' guards are the registries' own instances:
 * {@code resilience4j.*} configuration applies to them and their metrics count the provider's calls.
 */
@ExtendWith(NettyLeakCheck.class)
class Resilience4jRegistriesTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final EmulatorResponse BUSY = EmulatorResponse.httpError(503, "{\"error\":{\"message\":\"busy\"}}");

    private ProviderEmulator emulator;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RuminateAutoConfiguration.class));

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private void answersDone(ChatProvider provider) {
        StepVerifier.create(provider.stream(ChatRequest.builder("m").user("Hi?").build())
                        .ofType(ContentDelta.class).map(ContentDelta::text).reduce("", String::concat))
                .expectNext("Done").expectComplete().verify(WAIT);
    }

    @Test
    void resilience4jsSpringBootConfigurationGovernsTheProvidersGuards() {
        emulator.enqueue(BUSY).enqueue(BUSY).enqueue(ChatCompletionsScript.create().content("Done").toResponse());
        runner.withConfiguration(AutoConfigurations.of(RetryAutoConfiguration.class, CircuitBreakerAutoConfiguration.class,
                        RateLimiterAutoConfiguration.class, BulkheadAutoConfiguration.class))
                .withPropertyValues(
                        "ruminate.providers.local.kind=openai-compatible",
                        "ruminate.providers.local.base-url=" + emulator.baseUrl(),
                        "resilience4j.retry.instances.local.max-attempts=3",
                        "resilience4j.retry.instances.local.wait-duration=10ms",
                        "resilience4j.circuitbreaker.instances.local.sliding-window-size=10")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    answersDone(context.getBean("local", ChatProvider.class));
                    // Three attempts: the retry is configured by resilience4j.retry.instances.local alone.
                    assertThat(emulator.requests()).hasSize(3);
                    CircuitBreaker breaker = context.getBean(CircuitBreakerRegistry.class).find("local").orElseThrow();
                    assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(2);
                    assertThat(breaker.getMetrics().getNumberOfSuccessfulCalls()).isEqualTo(1);
                    assertThat(breaker.getCircuitBreakerConfig().getSlidingWindowSize()).isEqualTo(10);
                    assertThat(context.getBean(ProviderFactory.class).circuitBreaker("local")).containsSame(breaker);
                    // The retry in the registry (what Resilience4j's actuator endpoints and metrics list) is the one
                    // that ran: its configuration is the properties', and it counted this call.
                    Retry retry = context.getBean(RetryRegistry.class).find("local").orElseThrow();
                    assertThat(retry.getRetryConfig().getMaxAttempts()).isEqualTo(3);
                    assertThat(retry.getMetrics().getNumberOfSuccessfulCallsWithRetryAttempt()).isEqualTo(1);
                });
    }

    @Test
    void aGuardTakesTheRegistrysConfigurationOfItsNameOrIsRegisteredFromTheProperties() {
        RetryRegistry retries = RetryRegistry.ofDefaults();
        retries.addConfiguration("llm", RetryConfig.custom().maxAttempts(2).waitDuration(Duration.ofMillis(10)).build());
        RateLimiterRegistry limiters = RateLimiterRegistry.ofDefaults();
        emulator.enqueue(BUSY).enqueue(ChatCompletionsScript.create().content("Done").toResponse());
        runner.withBean(RetryRegistry.class, () -> retries)
                .withBean(RateLimiterRegistry.class, () -> limiters)
                .withPropertyValues(
                        "ruminate.providers.local.kind=openai-compatible",
                        "ruminate.providers.local.base-url=" + emulator.baseUrl(),
                        "ruminate.providers.local.resilience.name=llm",
                        "ruminate.providers.local.resilience.rate-limiter.limit-for-period=5",
                        "ruminate.providers.local.resilience.rate-limiter.refresh-period=1h")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    answersDone(context.getBean("local", ChatProvider.class));
                    assertThat(emulator.requests()).hasSize(2);
                    assertThat(retries.getAllRetries()).singleElement().satisfies(retry -> {
                        assertThat(retry.getName()).isEqualTo("llm");
                        assertThat(retry.getRetryConfig().getMaxAttempts()).isEqualTo(2);
                    });
                    // Registered from the properties, and the instance the provider used: two attempts took two permits.
                    RateLimiter limiter = limiters.find("llm").orElseThrow();
                    assertThat(limiter.getRateLimiterConfig().getLimitForPeriod()).isEqualTo(5);
                    assertThat(limiter.getMetrics().getAvailablePermissions()).isEqualTo(3);
                });
    }

    @Test
    void aGuardConfiguredInTheRegistryAndInThePropertiesStopsStartup() {
        runner.withConfiguration(AutoConfigurations.of(RetryAutoConfiguration.class))
                .withPropertyValues(
                        "ruminate.providers.local.kind=openai-compatible",
                        "ruminate.providers.local.base-url=" + emulator.baseUrl(),
                        "ruminate.providers.local.resilience.retry.max-attempts=2",
                        "resilience4j.retry.instances.local.max-attempts=3")
                .run(context -> {
                    assertThat(context).hasFailed();
                    StringBuilder messages = new StringBuilder();
                    for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
                        messages.append(t.getMessage()).append('\n');
                    }
                    assertThat(messages.toString()).contains("ruminate.providers.local.resilience", "retry 'local'", "not both");
                });
    }

    @Test
    void withRegistriesButNoConfigurationAProviderHasNoGuards() {
        emulator.enqueue(BUSY);
        runner.withConfiguration(AutoConfigurations.of(RetryAutoConfiguration.class, CircuitBreakerAutoConfiguration.class))
                .withPropertyValues(
                        "ruminate.providers.local.kind=openai-compatible",
                        "ruminate.providers.local.base-url=" + emulator.baseUrl())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    StepVerifier.create(context.getBean("local", ChatProvider.class).stream(ChatRequest.builder("m").user("Hi?").build()))
                            .expectError().verify(WAIT);
                    // The registries' defaults are not imposed on a provider nobody configured a guard for.
                    assertThat(emulator.requests()).hasSize(1);
                    assertThat(context.getBean(RetryRegistry.class).find("local")).isEmpty();
                    assertThat(context.getBean(CircuitBreakerRegistry.class).find("local")).isEmpty();
                });
    }
}
