package dev.ruminate.examples.webflux;

import dev.ruminate.spring.ChatProviderCustomizer;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.ProviderEmulator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Starts a loopback provider emulator and points the example's provider at it, when
 * {@code ruminate.example.emulator=true}. The emulator's port is known only once it is bound, so
 * the base URL is set by a {@link ChatProviderCustomizer} rather than by a property.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "ruminate.example.emulator", havingValue = "true")
class EmulatorConfiguration {

    /**
     * The emulator: answers every request with a DeepSeek-style stream (reasoning, then the answer),
     * cut into small chunks sent at the configured pace. Tests may queue other responses first.
     */
    @Bean(destroyMethod = "close")
    ProviderEmulator providerEmulator(ExampleProperties example) {
        ProviderEmulator emulator = ProviderEmulator.start();
        EmulatorResponse answer = ChatCompletionsScript.create().model("deepseek-reasoner")
                .reasoning("The user asks why the sky is blue. Sunlight is scattered by the molecules of the air, "
                        + "and Rayleigh scattering grows with the fourth power of frequency, so blue light is "
                        + "scattered far more than red. I'll say that simply, and mention sunsets.")
                .content("Because air scatters blue light much more than red (Rayleigh scattering). "
                        + "At sunset the light crosses more air, the blue is scattered away, and reds remain.")
                .finish("stop").usage(18, 96, 54).usageOnFinishChunk(true)
                .toResponse();
        emulator.always(example.pace().isZero() ? answer : answer.chunked(ChunkPlan.fixed(96)).delay(example.pace()));
        return emulator;
    }

    /** Points the example's provider at the emulator; other providers keep their settings. */
    @Bean
    ChatProviderCustomizer emulatorBaseUrl(ProviderEmulator emulator, ExampleProperties example) {
        return (name, builder) -> {
            if (name.equals(example.provider())) {
                builder.baseUrl(emulator.baseUrl());
            }
        };
    }
}
