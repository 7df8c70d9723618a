package dev.ruminate.spring;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.ProviderBuilder;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Builds the provider clients from the {@code ruminate.providers.*} properties: the kind's builder,
 * the base URL, the key read from the environment variable named by {@code api-key-env}, the read
 * timeout and the guards, then every {@link ChatProviderCustomizer}, then every
 * {@link ChatProviderDecorator}.
 *
 * <p>A setting that cannot work fails at once, at startup, with an
 * {@link InvalidConfigurationPropertyValueException} naming the property (Spring Boot prints it as a
 * startup failure analysis); its message never holds a key, only the names of variables.
 *
 * <p>Thread-safe; each {@link #create(String)} builds a new client.
 *
 * @since 0.1
 */
public final class ProviderFactory {

    private final RuminateProperties properties;
    private final EnvironmentVariables environment;
    private final List<ChatProviderCustomizer> customizers;
    private final List<ChatProviderDecorator> decorators;

    /**
     * Creates a factory.
     *
     * @param properties the bound properties
     * @param environment where the variables named by {@code api-key-env} are read
     * @param customizers applied to every builder, in order
     * @param decorators applied to every built provider, in order (the first innermost)
     */
    public ProviderFactory(RuminateProperties properties, EnvironmentVariables environment,
                           List<ChatProviderCustomizer> customizers, List<ChatProviderDecorator> decorators) {
        this.properties = Objects.requireNonNull(properties, "properties");
        this.environment = Objects.requireNonNull(environment, "environment");
        this.customizers = List.copyOf(customizers);
        this.decorators = List.copyOf(decorators);
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
        PendingProvider pending = pending(name, settings);
        ProviderBuilder<?> builder = pending.builder();
        apply(name, settings, builder);
        customizers.forEach(c -> c.customize(name, builder));
        ChatProvider provider;
        try {
            provider = pending.build().get();
        } catch (IllegalStateException | IllegalArgumentException e) {
            // The builders' messages name settings, never secrets (ApiKey does not print its value).
            throw invalid(name, "kind", settings.kind(), "the client cannot be built: " + e.getMessage());
        }
        for (ChatProviderDecorator decorator : decorators) {
            provider = Objects.requireNonNull(decorator.decorate(name, provider), "a decorator returned null");
        }
        return provider;
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

    private PendingProvider pending(String name, ProviderProperties settings) {
        String configured = settings.kind();
        if (configured == null || configured.isBlank()) {
            throw invalid(name, "kind", configured, "a kind is required; one of " + ProviderKinds.names());
        }
        String kind = ProviderKinds.normalize(configured);
        ApiKey key = key(name, settings);
        if (kind.equals(ProviderKinds.VERTEX)) {
            return ProviderKinds.vertex(required(name, "project", settings.project()),
                    required(name, "location", settings.location()), key);
        }
        if (kind.equals(ProviderKinds.BEDROCK)) {
            String region = settings.region() != null ? settings.region() : environment.get("AWS_REGION");
            String secretVariable = settings.apiKeyEnv() != null ? settings.apiKeyEnv() : "AWS_SECRET_ACCESS_KEY";
            try {
                return ProviderKinds.bedrock(required(name, "region", region), environment, secretVariable);
            } catch (IllegalArgumentException e) {
                throw invalid(name, "region", region, Objects.requireNonNullElse(e.getMessage(), "not a region"));
            }
        }
        PendingProvider pending = ProviderKinds.create(kind, settings, key, environment);
        if (pending == null) {
            throw invalid(name, "kind", configured, "unknown kind; expected one of " + ProviderKinds.names());
        }
        return pending;
    }

    private void apply(String name, ProviderProperties settings, ProviderBuilder<?> builder) {
        String baseUrl = settings.baseUrl();
        if (baseUrl != null) {
            URI uri;
            try {
                uri = URI.create(baseUrl.strip());
            } catch (IllegalArgumentException e) {
                throw invalid(name, "base-url", baseUrl, "not a URL");
            }
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw invalid(name, "base-url", baseUrl, "an http or https URL with a host is required");
            }
            builder.baseUrl(uri);
        }
        ProviderProperties.TimeoutProperties timeouts = settings.timeouts();
        if (timeouts != null && timeouts.read() != null) {
            Duration read = timeouts.read();
            if (read.isNegative() || read.isZero()) {
                throw invalid(name, "timeouts.read", read, "must be positive");
            }
            builder.readTimeout(read);
        }
        try {
            builder.resilience(Guards.of(name, settings));
        } catch (IllegalArgumentException e) {
            throw invalid(name, "resilience", settings.resilience(), Objects.requireNonNullElse(e.getMessage(), "invalid"));
        }
    }

    private @Nullable ApiKey key(String name, ProviderProperties settings) {
        String variable = settings.apiKeyEnv();
        if (variable == null || ProviderKinds.BEDROCK.equals(ProviderKinds.normalize(Objects.requireNonNull(settings.kind())))) {
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

    private static String required(String name, String property, @Nullable String value) {
        if (value == null || value.isBlank()) {
            throw invalid(name, property, value, "required for this kind");
        }
        return value.strip();
    }

    private static InvalidConfigurationPropertyValueException invalid(String name, String property, @Nullable Object value,
                                                                      String reason) {
        return new InvalidConfigurationPropertyValueException(
                RuminateProperties.PREFIX + ".providers." + name + "." + property, value, reason);
    }
}
