package dev.ruminate.examples.webflux;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The example's own settings, {@code ruminate.example.*}.
 *
 * @param emulator true to start a test-kit emulator in the application and point the provider at it
 * @param provider the configured provider the page talks to ({@code ruminate.providers.<provider>})
 * @param pace the emulator's pause between chunks, so that reasoning visibly streams before the answer
 */
@ConfigurationProperties("ruminate.example")
public record ExampleProperties(@DefaultValue("false") boolean emulator, @DefaultValue("demo") String provider,
                                @DefaultValue("40ms") Duration pace) {
}
