package dev.ruminate.spring;

import dev.ruminate.providers.ProviderBuilder;

/**
 * Adjusts a provider's builder after the {@code ruminate.providers.<name>.*} properties were applied
 * and before the client is built: to set a Reactor Netty client (proxy, TLS, pool, metrics), guards
 * of your own (Resilience4j's registries, when they are beans, are used without one), a base URL
 * known only at runtime, a rotating Vertex token or AWS credentials, or a provider-specific option
 * that has no property. Every bean of this type is applied, in {@code @Order}.
 *
 * <p>Called once per provider at startup, on the thread that creates the beans.
 *
 * @since 0.1
 */
@FunctionalInterface
public interface ChatProviderCustomizer {

    /**
     * Adjusts one builder.
     *
     * @param name the configured name ({@code ruminate.providers.<name>})
     * @param builder the provider's builder; check its concrete type for provider-specific options
     */
    void customize(String name, ProviderBuilder<?> builder);
}
