package dev.ruminate.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.CompositeReactiveHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.health.registry.ReactiveHealthContributorRegistry;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The {@code ruminate} health contributor: one child per provider, no call to the provider unless
 * probing is on, the circuit breaker's state, and a probe's answer mapped to UP or DOWN.
 */
@ExtendWith(NettyLeakCheck.class)
class RuminateHealthTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String SECRET = "sk-health-secret-1";

    private ProviderEmulator emulator;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RuminateAutoConfiguration.class, RuminateHealthAutoConfiguration.class))
            .withBean(EnvironmentVariables.class, () -> Map.of("LOCAL_KEY", SECRET)::get);

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private String[] local(String... more) {
        String[] base = {
                "ruminate.providers.local.kind=chat-completions",
                "ruminate.providers.local.base-url=" + emulator.baseUrl() + "/v1",
                "ruminate.providers.local.api-key-env=LOCAL_KEY",
                "ruminate.providers.bare.kind=ollama"};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    private static Health health(AssertableApplicationContext context, String provider) {
        CompositeReactiveHealthContributor ruminate =
                context.getBean("ruminateHealthContributor", CompositeReactiveHealthContributor.class);
        Health health = ((ReactiveHealthIndicator) ruminate.getContributor(provider)).health().block(WAIT);
        assertThat(health).isNotNull();
        return health;
    }

    @Test
    void withoutProbingTheIndicatorReportsTheConfigurationAndMakesNoCall() {
        runner.withPropertyValues(local()).run(context -> {
            assertThat(context).hasNotFailed();
            Health health = health(context, "local");
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("kind", "openai-compatible")
                    .containsEntry("host", "127.0.0.1:" + emulator.baseUrl().getPort())
                    .containsEntry("credentials", "present")
                    .containsEntry("probe", "off")
                    .doesNotContainKey("circuitBreaker");
            assertThat(health.toString()).doesNotContain(SECRET);
            Health bare = health(context, "bare");
            assertThat(bare.getDetails()).containsEntry("kind", "ollama").containsEntry("host", "localhost:11434")
                    .containsEntry("credentials", "absent");
            assertThat(emulator.requests()).isEmpty();
        });
    }

    @Test
    void anOpenCircuitBreakerIsOutOfServiceAndIsNotProbed() {
        runner.withPropertyValues(local("ruminate.providers.local.resilience.circuit-breaker.enabled=true",
                        "ruminate.health.probe=true"))
                .run(context -> {
                    CircuitBreaker breaker = context.getBean(ProviderFactory.class).circuitBreaker("local").orElseThrow();
                    breaker.transitionToOpenState();
                    Health health = health(context, "local");
                    assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
                    assertThat(health.getDetails()).containsEntry("circuitBreaker", "OPEN");
                    assertThat(emulator.requests()).isEmpty();
                });
    }

    @Test
    void theBreakerReportedIsTheOneResilience4jsRegistryConfigures() {
        runner.withConfiguration(AutoConfigurations.of(CircuitBreakerAutoConfiguration.class))
                .withPropertyValues(local("resilience4j.circuitbreaker.instances.local.sliding-window-size=5"))
                .run(context -> {
                    CircuitBreaker registered = context.getBean(CircuitBreakerRegistry.class).find("local").orElseThrow();
                    assertThat(registered.getCircuitBreakerConfig().getSlidingWindowSize()).isEqualTo(5);
                    assertThat(context.getBean(ProviderFactory.class).circuitBreaker("local")).containsSame(registered);
                    assertThat(health(context, "local").getDetails()).containsEntry("circuitBreaker", "CLOSED");
                    registered.transitionToForcedOpenState();
                    assertThat(health(context, "local").getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
                    assertThat(emulator.requests()).isEmpty();
                });
    }

    @Test
    void aProbeIsOneGetWithoutCredentialsAndItsAnswerDecidesUpOrDown() {
        emulator.enqueue(EmulatorResponse.httpError(404, "{\"error\":{\"message\":\"no route\"}}"))
                .enqueue(EmulatorResponse.httpError(503, "{\"error\":{\"message\":\"busy\"}}"));
        runner.withPropertyValues(local("ruminate.health.probe=true")).run(context -> {
            Health reachable = health(context, "local");
            assertThat(reachable.getStatus()).isEqualTo(Status.UP);
            assertThat(reachable.getDetails()).containsEntry("probe", "HTTP 404");
            Health failing = health(context, "local");
            assertThat(failing.getStatus()).isEqualTo(Status.DOWN);
            assertThat(failing.getDetails()).containsEntry("probe", "HTTP 503");
            assertThat(emulator.requests()).hasSize(2).allSatisfy(request -> {
                assertThat(request.method()).isEqualTo("GET");
                assertThat(request.path()).isEqualTo("/v1");
                assertThat(request.body()).isEmpty();
                assertThat(request.headers().toString()).doesNotContain(SECRET).doesNotContainIgnoringCase("authorization");
            });
        });
    }

    @Test
    void aServerThatDoesNotAnswerIsDown() {
        ProviderEmulator gone = ProviderEmulator.start();
        String url = gone.baseUrl().toString();
        gone.close();
        runner.withPropertyValues("ruminate.providers.gone.kind=openai-compatible",
                        "ruminate.providers.gone.base-url=" + url, "ruminate.health.probe=true",
                        "ruminate.health.probe-timeout=2s")
                .run(context -> {
                    Health health = health(context, "gone");
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(health.getDetails().get("probe")).asString().startsWith("failed: ");
                });
    }

    @Test
    void theContributorIsRegisteredAsRuminateWithOneChildPerProvider() {
        runner.withConfiguration(AutoConfigurations.of(HealthContributorRegistryAutoConfiguration.class))
                .withPropertyValues(local())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    ReactiveHealthContributorRegistry registry = context.getBean(ReactiveHealthContributorRegistry.class);
                    assertThat(registry.getContributor("ruminate")).isInstanceOfSatisfying(
                            CompositeReactiveHealthContributor.class, ruminate -> assertThat(ruminate.stream()
                                    .map(entry -> entry.name())).containsExactly("local", "bare"));
                });
    }

    @Test
    void theIndicatorCanBeTurnedOffAndNeedsTheHealthModule() {
        runner.withPropertyValues(local("management.health.ruminate.enabled=false"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("ruminateHealthContributor"));
        runner.withClassLoader(new FilteredClassLoader(ReactiveHealthIndicator.class))
                .withPropertyValues(local())
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("ruminateHealthContributor"));
        runner.withPropertyValues(local())
                .run(context -> assertThat(context).hasBean("ruminateHealthContributor"));
    }
}
