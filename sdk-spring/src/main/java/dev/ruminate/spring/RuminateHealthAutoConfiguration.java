package dev.ruminate.spring;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.CompositeReactiveHealthContributor;
import org.springframework.boot.health.contributor.ReactiveHealthContributor;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Adds a {@code ruminate} health contributor, with one child per configured provider, when Spring
 * Boot's health module ({@code spring-boot-health}, which Spring Boot Actuator brings) is on the class
 * path and {@code management.health.ruminate.enabled} is not false. Each child reports the provider's
 * configuration and circuit breaker without any network call, and probes the provider's server only
 * with {@code ruminate.health.probe=true} ({@link RuminateHealthProperties}); the statuses are described
 * in the module's README.
 *
 * @since 0.1
 */
@AutoConfiguration(after = RuminateAutoConfiguration.class)
@ConditionalOnClass(ReactiveHealthIndicator.class)
@ConditionalOnBean(ProviderFactory.class)
@ConditionalOnEnabledHealthIndicator("ruminate")
@EnableConfigurationProperties(RuminateHealthProperties.class)
public class RuminateHealthAutoConfiguration {

    /** Creates the configuration; Spring calls it. */
    public RuminateHealthAutoConfiguration() {
    }

    /**
     * The providers' health, named {@code ruminate} in the health endpoint (Spring Boot drops the
     * {@code HealthContributor} suffix of the bean name).
     *
     * @param properties the providers' properties
     * @param factory the factory that built them, for their circuit breakers
     * @param environment where the credentials' variables are read (to say whether they are set)
     * @param health what the indicators may do
     * @return a composite with one indicator per provider, in configuration order
     */
    @Bean
    @ConditionalOnMissingBean(name = "ruminateHealthContributor")
    public CompositeReactiveHealthContributor ruminateHealthContributor(RuminateProperties properties,
                                                                        ProviderFactory factory,
                                                                        EnvironmentVariables environment,
                                                                        RuminateHealthProperties health) {
        Map<String, ReactiveHealthContributor> indicators = new LinkedHashMap<>();
        properties.providers().forEach((name, settings) -> indicators.put(name,
                new ProviderHealthIndicator(name, settings, environment, () -> factory.circuitBreaker(name), health)));
        return CompositeReactiveHealthContributor.fromMap(indicators);
    }
}
