package dev.ruminate.examples.webflux;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A WebFlux application with one page that streams a conversation from the auto-configured
 * provider: reasoning above the answer, the reasoning collapsed when the answer starts. With
 * {@code ruminate.example.emulator=true} (the default here) the provider talks to a test-kit
 * emulator started in the application, so it runs with no network and no key.
 *
 * <p>Run it with {@code examples/webflux-chat/run} and open {@code http://localhost:8080/}.
 */
@SpringBootApplication
public class WebfluxChatApplication {

    /**
     * Starts the application.
     *
     * @param args Spring Boot arguments, such as {@code --server.port=8080}
     */
    public static void main(String[] args) {
        SpringApplication.run(WebfluxChatApplication.class, args);
    }
}
