package dev.ruminate.spring;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code ruminate.*} properties: the provider clients to create, by name.
 *
 * <pre>{@code
 * ruminate.providers.deepseek.kind=deepseek
 * ruminate.providers.deepseek.api-key-env=DEEPSEEK_API_KEY
 * ruminate.providers.deepseek.model=deepseek-reasoner
 * ruminate.providers.deepseek.reasoning.effort=high
 * ruminate.providers.deepseek.timeouts.first-event=30s
 * ruminate.providers.deepseek.resilience.retry.max-attempts=3
 * }</pre>
 *
 * <p>No secret is ever a property: {@code api-key-env} holds the <em>name</em> of an environment
 * variable, read once when the client is built, so these values are safe in logs, in
 * {@code toString()} and in actuator dumps.
 *
 * <p>Immutable and thread-safe (bound once at startup).
 *
 * @param providers the clients to create, keyed by name (the bean name, and the {@code provider} tag
 *     of metrics); empty when nothing is configured
 * @since 0.1
 */
@ConfigurationProperties("ruminate")
public record RuminateProperties(@DefaultValue Map<String, ProviderProperties> providers) {

    /** The prefix of every property. */
    public static final String PREFIX = "ruminate";

    /**
     * Creates the value, keeping the configured order of the providers.
     *
     * @param providers see {@link #providers()}
     */
    public RuminateProperties {
        providers = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(providers, "providers")));
    }
}
