package dev.ruminate.examples.webflux;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Binds the example's own {@code ruminate.example.*} properties. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ExampleProperties.class)
class ExampleConfiguration {
}
