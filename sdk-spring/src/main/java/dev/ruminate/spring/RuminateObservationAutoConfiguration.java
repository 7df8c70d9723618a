package dev.ruminate.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Adds Micrometer metrics and observations, per the OpenTelemetry GenAI semantic conventions, to
 * every configured provider when Micrometer is on the class path (it is an optional dependency of this
 * module): see {@link ObservingDecorator} for the meters. A {@link GenAiObservationConvention} bean
 * replaces the default naming and tagging; {@code ruminate.observations.capture-content=true} records
 * prompts and completions ({@link RuminateObservationProperties}). The registries are looked up when the providers are built, so this works whichever
 * auto-configuration creates them (Spring Boot Actuator's, or the application's own beans).
 *
 * @since 0.1
 */
@AutoConfiguration(before = RuminateAutoConfiguration.class)
@ConditionalOnClass({MeterRegistry.class, ObservationRegistry.class})
@EnableConfigurationProperties(RuminateObservationProperties.class)
public class RuminateObservationAutoConfiguration {

    /** Creates the configuration; Spring calls it. */
    public RuminateObservationAutoConfiguration() {
    }

    /**
     * Wraps every provider with metrics and observations.
     *
     * @param meters the meter registry, if the application has one
     * @param observations the observation registry, if the application has one
     * @param convention the application's convention, if it defines one
     * @param properties what the observations may record
     * @return the decorator (a pass-through when neither registry exists)
     */
    @Bean
    @ConditionalOnMissingBean
    public ObservingDecorator ruminateObservingDecorator(ObjectProvider<MeterRegistry> meters,
                                                         ObjectProvider<ObservationRegistry> observations,
                                                         ObjectProvider<GenAiObservationConvention> convention,
                                                         RuminateObservationProperties properties) {
        return new ObservingDecorator(meters::getIfAvailable, observations::getIfAvailable,
                convention.getIfAvailable(), properties.captureContent());
    }
}
