package dev.ruminate.spring;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.providers.CredentialChains;
import dev.ruminate.providers.MissingSettingException;
import dev.ruminate.providers.ProviderKind;
import dev.ruminate.providers.ProviderKinds;
import dev.ruminate.providers.ProviderSetting;
import dev.ruminate.providers.ProviderSettings;
import dev.ruminate.providers.bedrock.AwsCredentials;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Builds the provider clients from the {@code ruminate.providers.*} properties: the kind, from
 * {@link ProviderKinds}, given the base URL, the key read from the environment variable named by
 * {@code api-key-env}, the read timeout and the guards, then every {@link ChatProviderCustomizer},
 * then every {@link ChatProviderDecorator}. Where Resilience4j's registries are present (see
 * {@link Resilience4jRegistries}), the guards are taken from them by name.
 *
 * <p>A setting that cannot work fails at once, at startup, with an
 * {@link InvalidConfigurationPropertyValueException} naming the property (Spring Boot prints it as a
 * startup failure analysis); its message never holds a key, only the names of variables.
 *
 * <p>A provider with {@code connections.*} set gets a connection pool of its own, which
 * {@link #close()} disposes (Spring calls it when the application context closes).
 *
 * <p>Thread-safe; each {@link #create(String)} builds a new client.
 *
 * @since 0.1
 */
public final class ProviderFactory implements AutoCloseable {

    /** Reactor Netty's {@code HttpClient.create()} pool limits, which unset {@code connections.*} keep. */
    private static final int DEFAULT_MAX_CONNECTIONS = 500;
    private static final Duration DEFAULT_PENDING_TIMEOUT = Duration.ofSeconds(45);

    private final RuminateProperties properties;
    private final EnvironmentVariables environment;
    private final List<ChatProviderCustomizer> customizers;
    private final List<ChatProviderDecorator> decorators;
    private final Guards guards;
    private final List<ConnectionProvider> pools = new CopyOnWriteArrayList<>();

    /**
     * Creates a factory whose guards are built from the properties alone.
     *
     * @param properties the bound properties
     * @param environment where the variables named by {@code api-key-env} are read
     * @param customizers applied to every builder, in order
     * @param decorators applied to every built provider, in order (the first innermost)
     */
    public ProviderFactory(RuminateProperties properties, EnvironmentVariables environment,
                           List<ChatProviderCustomizer> customizers, List<ChatProviderDecorator> decorators) {
        this(properties, environment, customizers, decorators, Resilience4jRegistries.NONE);
    }

    /**
     * Creates a factory whose guards are taken from Resilience4j's registries where present.
     *
     * @param properties the bound properties
     * @param environment where the variables named by {@code api-key-env} are read
     * @param customizers applied to every builder, in order
     * @param decorators applied to every built provider, in order (the first innermost)
     * @param registries the registries the guards are taken from, by name
     */
    public ProviderFactory(RuminateProperties properties, EnvironmentVariables environment,
                           List<ChatProviderCustomizer> customizers, List<ChatProviderDecorator> decorators,
                           Resilience4jRegistries registries) {
        this.properties = Objects.requireNonNull(properties, "properties");
        this.environment = Objects.requireNonNull(environment, "environment");
        this.customizers = List.copyOf(customizers);
        this.decorators = List.copyOf(decorators);
        this.guards = new Guards(registries);
    }

    /**
     * Lists the configured provider names.
     *
     * @return the names, in configuration order
     */
    public Set<String> names() {
        return properties.providers().keySet();
    }

    /**
     * Builds the client of a configured provider.
     *
     * @param name the name under {@code ruminate.providers}
     * @return the client, decorated
     * @throws IllegalArgumentException if no provider has that name
     * @throws InvalidConfigurationPropertyValueException if a setting cannot work
     */
    public ChatProvider create(String name) {
        ProviderProperties settings = settings(name);
        ProviderKind kind = kind(name, settings);
        ChatProvider provider;
        try {
            provider = kind.create(providerSettings(name, kind, settings),
                    builder -> customizers.forEach(c -> c.customize(name, builder)));
        } catch (MissingSettingException e) {
            throw invalid(name, property(e.setting()), null, "required for kind " + kind.name());
        } catch (IllegalStateException | IllegalArgumentException e) {
            // The registry's and builders' messages name settings, never secrets (ApiKey does not print its value).
            throw invalid(name, "kind", settings.kind(), "the client cannot be built: " + e.getMessage());
        }
        for (ChatProviderDecorator decorator : decorators) {
            provider = Objects.requireNonNull(decorator.decorate(name, provider), "a decorator returned null");
        }
        return provider;
    }

    /**
     * Disposes the connection pools of the clients built with {@code connections.*} set; their
     * clients fail afterwards. Idempotent.
     */
    @Override
    public void close() {
        for (ConnectionProvider pool : pools) {
            pool.dispose();
        }
        pools.clear();
    }

    /**
     * Returns the circuit breaker that guards the client this factory built under a name, so its
     * state can be reported (see the {@code ruminate} health indicator).
     *
     * @param name the name under {@code ruminate.providers}
     * @return the breaker (the registry's instance when Resilience4j's registry supplied it), or empty
     *     when no breaker guards that provider or this factory has not built it (an application bean
     *     replaced it)
     */
    public Optional<CircuitBreaker> circuitBreaker(String name) {
        return guards.circuitBreaker(Objects.requireNonNull(name, "name"));
    }

    /** The pools built so far, for tests. */
    List<ConnectionProvider> pools() {
        return List.copyOf(pools);
    }

    /**
     * Returns the request defaults of a configured provider, checking them.
     *
     * @param name the name under {@code ruminate.providers}
     * @return its model and reasoning options
     * @throws IllegalArgumentException if no provider has that name
     * @throws InvalidConfigurationPropertyValueException if a reasoning setting is invalid
     */
    public RequestDefaults requestDefaults(String name) {
        ProviderProperties settings = settings(name);
        ProviderProperties.Reasoning r = settings.reasoning();
        if (r == null) {
            return new RequestDefaults(settings.model(), ReasoningOptions.DEFAULT);
        }
        ReasoningEffort effort = null;
        if (r.effort() != null) {
            try {
                effort = ReasoningEffort.valueOf(r.effort().strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw invalid(name, "reasoning.effort", r.effort(), "expected one of "
                        + Arrays.stream(ReasoningEffort.values()).map(ReasoningEffort::wireName).toList());
            }
        }
        if (r.budgetTokens() != null && r.budgetTokens() < 0) {
            throw invalid(name, "reasoning.budget-tokens", r.budgetTokens(), "must be 0 or more");
        }
        Boolean enabled = r.enabled();
        if (enabled == null && (effort != null || r.budgetTokens() != null)) {
            enabled = effort != ReasoningEffort.NONE;
        }
        return new RequestDefaults(settings.model(), new ReasoningOptions(enabled, effort, r.budgetTokens(), r.include()));
    }

    private ProviderProperties settings(String name) {
        ProviderProperties settings = properties.providers().get(Objects.requireNonNull(name, "name"));
        if (settings == null) {
            throw new IllegalArgumentException("no provider configured under " + RuminateProperties.PREFIX
                    + ".providers." + name);
        }
        return settings;
    }

    private static ProviderKind kind(String name, ProviderProperties settings) {
        String configured = settings.kind();
        if (configured == null || configured.isBlank()) {
            throw invalid(name, "kind", configured, "a kind is required; one of " + ProviderKinds.names());
        }
        return ProviderKinds.find(configured).orElseThrow(() ->
                invalid(name, "kind", configured, "unknown kind; expected one of " + ProviderKinds.names()));
    }

    private ProviderSettings providerSettings(String name, ProviderKind kind, ProviderProperties settings) {
        String region = settings.region() != null ? settings.region() : environment.get("AWS_REGION");
        ProviderSettings.Builder b = ProviderSettings.builder()
                .baseUrl(baseUrl(name, settings))
                .project(settings.project())
                .location(settings.location())
                .region(region)
                .thinkTags(Boolean.TRUE.equals(settings.thinkTags()) ? ThinkTagOptions.DEFAULT : null);
        if (settings.opaqueStateRecovery() != null) {
            b.opaqueStateRecovery(Objects.requireNonNull(settings.opaqueStateRecovery()));
        }
        ProviderProperties.TimeoutProperties timeouts = settings.timeouts();
        if (timeouts != null && timeouts.read() != null) {
            Duration read = timeouts.read();
            if (read.isNegative() || read.isZero()) {
                throw invalid(name, "timeouts.read", read, "must be positive");
            }
            b.readTimeout(read);
        }
        ProviderProperties.ConnectionProperties connections = settings.connections();
        if (connections != null) {
            ConnectionProvider pool = pool(name, connections);
            pools.add(pool);
            b.httpClient(HttpClient.create(pool));
        }
        try {
            b.resilience(guards.of(name, settings));
        } catch (IllegalArgumentException e) {
            throw invalid(name, "resilience", settings.resilience(), Objects.requireNonNullElse(e.getMessage(), "invalid"));
        }
        String chain = settings.credentials();
        if (chain != null) {
            try {
                CredentialChains.apply(kind, chain, region, b);
            } catch (IllegalArgumentException | IllegalStateException e) {
                // CredentialChains' and the chains' messages name the choice, artifacts, profiles and files, never a secret
                throw invalid(name, "credentials", chain, Objects.requireNonNullElse(e.getMessage(), "unusable"));
            }
            return b.build();
        }
        switch (kind.credential()) {
            case API_KEY, OPTIONAL_API_KEY -> b.apiKey(key(name, settings));
            case ACCESS_TOKEN -> {
                ApiKey token = key(name, settings);
                if (token != null) {
                    b.accessToken(token);
                }
            }
            case AWS_CREDENTIALS -> {
                AwsCredentials credentials = awsCredentials(settings.apiKeyEnv() != null ? settings.apiKeyEnv()
                        : kind.keyVariable());
                if (credentials != null) {
                    b.awsCredentials(credentials);
                }
            }
        }
        return b.build();
    }

    /** A pool of the provider's own, its settings checked first; unset ones keep HttpClient.create()'s limits. */
    private static ConnectionProvider pool(String name, ProviderProperties.ConnectionProperties c) {
        int max = c.max() != null ? c.max() : DEFAULT_MAX_CONNECTIONS;
        if (max < 1) {
            throw invalid(name, "connections.max", c.max(), "must be 1 or more");
        }
        // twice max, in long: 2 * max overflows an int past 2^30 and would then be refused as a pending-max never set
        int pendingMax = c.pendingMax() != null ? c.pendingMax() : (int) Math.min(2L * max, Integer.MAX_VALUE);
        if (pendingMax < -1) {
            throw invalid(name, "connections.pending-max", c.pendingMax(), "must be 0 or more, or -1 for no bound");
        }
        Duration pendingTimeout = c.pendingTimeout() != null ? c.pendingTimeout() : DEFAULT_PENDING_TIMEOUT;
        if (pendingTimeout.isNegative()) {
            throw invalid(name, "connections.pending-timeout", c.pendingTimeout(), "must be 0 or more");
        }
        ConnectionProvider.Builder pool = ConnectionProvider.builder("ruminate-" + name)
                .maxConnections(max)
                .pendingAcquireMaxCount(pendingMax)
                .pendingAcquireTimeout(pendingTimeout);
        Duration idle = c.maxIdleTime();
        if (idle != null) {
            if (idle.isNegative() || idle.isZero()) {
                throw invalid(name, "connections.max-idle-time", idle, "must be positive");
            }
            pool.maxIdleTime(idle);
        }
        return pool.build();
    }

    private static @Nullable URI baseUrl(String name, ProviderProperties settings) {
        String baseUrl = settings.baseUrl();
        if (baseUrl == null) {
            return null;
        }
        URI uri;
        try {
            uri = URI.create(baseUrl.strip());
        } catch (IllegalArgumentException e) {
            throw invalid(name, "base-url", baseUrl, "not a URL");
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
            throw invalid(name, "base-url", baseUrl, "an http or https URL with a host is required");
        }
        return uri;
    }

    /**
     * AWS credentials from {@code AWS_ACCESS_KEY_ID}, the secret variable, and
     * {@code AWS_SESSION_TOKEN} if set; without them the credentials must come from a
     * {@link ChatProviderCustomizer} (a rotating source), else building fails.
     */
    private @Nullable AwsCredentials awsCredentials(String secretVariable) {
        String id = environment.get("AWS_ACCESS_KEY_ID");
        String secret = environment.get(secretVariable);
        if (id == null || id.isBlank() || secret == null || secret.isBlank()) {
            return null;
        }
        String token = environment.get("AWS_SESSION_TOKEN");
        return new AwsCredentials(id.strip(), ApiKey.of(secret.strip()),
                token == null || token.isBlank() ? null : ApiKey.of(token.strip()));
    }

    /** The property that gives a setting the registry found missing. */
    private static String property(ProviderSetting setting) {
        return switch (setting) {
            case BASE_URL -> "base-url";
            case REGION -> "region";
            case PROJECT -> "project";
            case LOCATION -> "location";
            case API_KEY, ACCESS_TOKEN, AWS_CREDENTIALS -> "api-key-env";
        };
    }

    private @Nullable ApiKey key(String name, ProviderProperties settings) {
        String variable = settings.apiKeyEnv();
        if (variable == null) {
            return null;
        }
        String value = environment.get(variable);
        if (value == null || value.isBlank()) {
            throw invalid(name, "api-key-env", variable, "the environment variable " + variable + " is not set or is blank");
        }
        try {
            return ApiKey.of(value.strip());
        } catch (IllegalArgumentException e) {
            // ApiKey's message describes the problem (a line break), not the value.
            throw invalid(name, "api-key-env", variable, "the environment variable " + variable + " holds no usable key: "
                    + e.getMessage());
        }
    }

    private static InvalidConfigurationPropertyValueException invalid(String name, String property, @Nullable Object value,
                                                                      String reason) {
        return new InvalidConfigurationPropertyValueException(
                RuminateProperties.PREFIX + ".providers." + name + "." + property, value, reason);
    }
}
