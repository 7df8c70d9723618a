package dev.ruminate.spring;

import dev.ruminate.providers.ProviderKind;
import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.gemini.GeminiProvider;
import dev.ruminate.providers.ProviderKinds;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

/**
 * The health of one configured provider. By default it makes no network call: it reports the kind,
 * the host of the base URL, whether credentials are configured (never their value) and the state of
 * the circuit breaker guarding the provider, if any. An open breaker (also forced open) is
 * {@code OUT_OF_SERVICE}: the provider refuses calls on purpose until the breaker lets trial calls
 * through; otherwise the provider is {@code UP}, meaning configured and not refused, not "reachable".
 *
 * <p>With probing on, a check whose breaker is not open also sends one {@code GET} to the base URL,
 * without credentials and without a body, through a plain Reactor Netty client (the provider's own
 * customizations, such as a proxy, do not apply): any answer below 500 (a 401 or 404 is expected) is
 * {@code UP}, a 5xx answer, a connection failure or no answer within the timeout is {@code DOWN}. It
 * costs no tokens and sends no key; it shows that the server is reachable, not that the key is valid.
 *
 * <p>Thread-safe; each {@link #health()} runs the check anew.
 */
final class ProviderHealthIndicator implements ReactiveHealthIndicator {

    private static final String BEDROCK = "bedrock";
    private static final String VERTEX = "vertex";

    private final String name;
    private final ProviderProperties settings;
    private final EnvironmentVariables environment;
    private final Supplier<Optional<CircuitBreaker>> breaker;
    private final RuminateHealthProperties options;
    private final HttpClient http;

    ProviderHealthIndicator(String name, ProviderProperties settings, EnvironmentVariables environment,
                            Supplier<Optional<CircuitBreaker>> breaker, RuminateHealthProperties options) {
        this.name = Objects.requireNonNull(name, "name");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.environment = Objects.requireNonNull(environment, "environment");
        this.breaker = Objects.requireNonNull(breaker, "breaker");
        this.options = Objects.requireNonNull(options, "options");
        this.http = HttpClient.create().responseTimeout(options.probeTimeout()).followRedirect(false);
    }

    @Override
    public Mono<Health> health() {
        Health.Builder health = Health.up();
        ProviderKind kind = settings.kind() != null ? ProviderKinds.find(settings.kind()).orElse(null) : null;
        health.withDetail("kind", kind != null ? kind.name() : String.valueOf(settings.kind()));
        URI baseUrl = kind != null ? baseUrl(kind) : null;
        if (baseUrl != null && baseUrl.getHost() != null) {
            health.withDetail("host", baseUrl.getPort() < 0 ? baseUrl.getHost() : baseUrl.getHost() + ":" + baseUrl.getPort());
        }
        health.withDetail("credentials", kind != null && credentialsPresent(kind) ? "present" : "absent");
        CircuitBreaker cb = breaker.get().orElse(null);
        if (cb != null) {
            CircuitBreaker.State state = cb.getState();
            health.withDetail("circuitBreaker", state.name());
            if (state == CircuitBreaker.State.OPEN || state == CircuitBreaker.State.FORCED_OPEN) {
                return Mono.just(health.outOfService().build());
            }
        }
        if (!options.probe()) {
            return Mono.just(health.withDetail("probe", "off").build());
        }
        if (baseUrl == null) {
            return Mono.just(health.unknown().withDetail("probe", "no base URL to probe").build());
        }
        String target = baseUrl.toString();
        return http.get().uri(target).response()
                .map(response -> {
                    int status = response.status().code();
                    health.withDetail("probe", "HTTP " + status);
                    return (status < 500 ? health.up() : health.down()).build();
                })
                .timeout(options.probeTimeout())
                .onErrorResume(e -> Mono.just(health.down()
                        .withDetail("probe", "failed: " + e.getClass().getSimpleName()).build()));
    }

    /** The configured base URL, else the kind's public endpoint, else the one Bedrock or Vertex derive. */
    private @Nullable URI baseUrl(ProviderKind kind) {
        String configured = settings.baseUrl();
        if (configured != null && !configured.isBlank()) {
            return URI.create(configured.strip());
        }
        if (kind.defaultBaseUrl() != null) {
            return kind.defaultBaseUrl();
        }
        // The two endpoints built from other settings (see BedrockProvider and GeminiProvider).
        if (BEDROCK.equals(kind.name())) {
            String region = settings.region() != null ? settings.region() : environment.get("AWS_REGION");
            return region == null || region.isBlank() ? null
                    : BedrockProvider.endpoint(region);
        }
        if (VERTEX.equals(kind.name()) && settings.location() != null) {
            return GeminiProvider.vertexEndpoint(settings.location());
        }
        return null;
    }

    /** Whether the variables the factory reads the credentials from hold something; never their value. */
    private boolean credentialsPresent(ProviderKind kind) {
        if (kind.credential() == ProviderKind.Credential.AWS_CREDENTIALS) {
            String secret = settings.apiKeyEnv() != null ? settings.apiKeyEnv() : kind.keyVariable();
            return set("AWS_ACCESS_KEY_ID") && set(secret);
        }
        return settings.apiKeyEnv() != null && set(settings.apiKeyEnv());
    }

    private boolean set(String variable) {
        String value = environment.get(variable);
        return value != null && !value.isBlank();
    }

    @Override
    public String toString() {
        return "ProviderHealthIndicator[" + name + "]";
    }
}
