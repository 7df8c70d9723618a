package dev.ruminate.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * The gateway as an application of its own: Spring Boot's auto-configuration, with Ruminate's
 * providers ({@code ruminate.providers.*}) and the gateway ({@code ruminate.gateway.*}) configured
 * by properties. An application that embeds the gateway does not need it: the auto-configuration
 * applies to any reactive web application with this module on its class path.
 *
 * @since 0.2
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class GatewayApplication {

    /** Creates the configuration; Spring calls it. */
    public GatewayApplication() {
    }

    /**
     * Runs the gateway.
     *
     * @param args Spring Boot arguments, such as {@code --server.port=8080}
     */
    public static void main(String[] args) {
        SpringApplication.run(GatewayApplication.class, args);
    }
}
