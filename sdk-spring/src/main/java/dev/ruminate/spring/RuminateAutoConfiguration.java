package dev.ruminate.spring;

import dev.ruminate.core.ChatProvider;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Creates Ruminate's provider clients from the {@code ruminate.providers.*} properties: one
 * {@link ChatProvider} bean per provider, named as configured, and the {@link RuminateProviders}
 * registry. Every bean backs off when the application defines its own: a bean named like a
 * provider replaces that provider; a {@link ProviderFactory}, {@link RuminateProviders} or
 * {@link EnvironmentVariables} bean replaces ours.
 *
 * <p>When Resilience4j's registries ({@link RetryRegistry}, {@link CircuitBreakerRegistry},
 * {@link RateLimiterRegistry}, {@link BulkheadRegistry}) are beans, from Resilience4j's Spring Boot
 * integration or the application, each provider's guards are taken from them by name, so
 * {@code resilience4j.*} configuration, actuator endpoints and metrics apply to them.
 *
 * <p>The clients speak HTTP through Reactor Netty, as everywhere in Ruminate; no WebClient is
 * involved. They are built at startup, so a setting that cannot work stops the application with
 * the property's name.
 *
 * @since 0.1
 */
@AutoConfiguration
@ConditionalOnClass(ChatProvider.class)
@EnableConfigurationProperties(RuminateProperties.class)
@Import(ProviderBeanRegistrar.class)
// The registrar is an implementation detail that only Spring instantiates: it stays package-private.
@SuppressWarnings("exports")
public class RuminateAutoConfiguration {

    /** Creates the configuration; Spring calls it. */
    public RuminateAutoConfiguration() {
    }

    /**
     * Reads keys from the process environment.
     *
     * @return {@link EnvironmentVariables#system()}
     */
    @Bean
    @ConditionalOnMissingBean
    public EnvironmentVariables ruminateEnvironmentVariables() {
        return EnvironmentVariables.system();
    }

    /**
     * Builds the clients.
     *
     * @param properties the bound properties
     * @param environment where keys are read
     * @param customizers every customizer, ordered
     * @param decorators every decorator, ordered
     * @param retries Resilience4j's retry registry, if it is a bean
     * @param circuitBreakers Resilience4j's circuit breaker registry, if it is a bean
     * @param rateLimiters Resilience4j's rate limiter registry, if it is a bean
     * @param bulkheads Resilience4j's bulkhead registry, if it is a bean
     * @return the factory
     */
    @Bean
    @ConditionalOnMissingBean
    public ProviderFactory ruminateProviderFactory(RuminateProperties properties, EnvironmentVariables environment,
                                                   ObjectProvider<ChatProviderCustomizer> customizers,
                                                   ObjectProvider<ChatProviderDecorator> decorators,
                                                   ObjectProvider<RetryRegistry> retries,
                                                   ObjectProvider<CircuitBreakerRegistry> circuitBreakers,
                                                   ObjectProvider<RateLimiterRegistry> rateLimiters,
                                                   ObjectProvider<BulkheadRegistry> bulkheads) {
        // getIfUnique: with two registries of a kind, which one is meant is unknown, so neither is used.
        Resilience4jRegistries registries = new Resilience4jRegistries(retries.getIfUnique(),
                circuitBreakers.getIfUnique(), rateLimiters.getIfUnique(), bulkheads.getIfUnique());
        return new ProviderFactory(properties, environment, customizers.orderedStream().toList(),
                decorators.orderedStream().toList(), registries);
    }

    /**
     * Collects the provider beans by name.
     *
     * @param factory the factory, for the names and request defaults
     * @param beans where the provider beans live (ours, or the application's of the same name)
     * @return the registry
     */
    @Bean
    @ConditionalOnMissingBean
    public RuminateProviders ruminateProviders(ProviderFactory factory, ListableBeanFactory beans) {
        Map<String, ChatProvider> providers = new LinkedHashMap<>();
        Map<String, RequestDefaults> defaults = new LinkedHashMap<>();
        for (String name : factory.names()) {
            providers.put(name, beans.getBean(name, ChatProvider.class));
            defaults.put(name, factory.requestDefaults(name));
        }
        return new RuminateProviders(providers, defaults);
    }
}
