package dev.ruminate.spring;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code ruminate.health.*} properties: what the providers' health indicator may do. The
 * indicator itself is turned off with {@code management.health.ruminate.enabled=false}.
 *
 * <pre>{@code
 * ruminate.health.probe=true
 * ruminate.health.probe-timeout=3s
 * }</pre>
 *
 * <p>Immutable and thread-safe (bound once at startup).
 *
 * @param probe whether each health check also sends one {@code GET} to the provider's base URL, without
 *     credentials, to see that its server answers; off by default, when the indicator makes no network
 *     call and reports the configuration and the circuit breaker only
 * @param probeTimeout the longest a probe may take, connecting included, before the provider is
 *     reported down; default 5 s
 * @since 0.1
 */
@ConfigurationProperties("ruminate.health")
public record RuminateHealthProperties(@DefaultValue("false") boolean probe,
                                       @DefaultValue("5s") Duration probeTimeout) {
}
