package dev.ruminate.examples.webflux;

import io.opentelemetry.exporter.logging.LoggingSpanExporter;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Shows the traces: Spring Boot's OpenTelemetry tracing auto-configuration turns every Micrometer
 * observation into a span through the OpenTelemetry bridge (Ruminate's {@code chat deepseek-reasoner}
 * span under WebFlux's {@code http get /chat}), and hands them to the {@link SpanExporter} beans. This
 * one logs each span with its {@code gen_ai.*} attributes; a real application would export over OTLP
 * ({@code management.opentelemetry.tracing.export.otlp.endpoint}) to a collector instead.
 * {@code ruminate.example.log-spans=false} turns it off.
 */
@Configuration(proxyBeanMethods = false)
class TracingConfiguration {

    @Bean
    @ConditionalOnProperty(name = "ruminate.example.log-spans", havingValue = "true", matchIfMissing = true)
    SpanExporter loggingSpanExporter() {
        return LoggingSpanExporter.create();
    }
}
