package dev.ruminate.gateway;

import dev.ruminate.spring.EnvironmentVariables;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.ProviderEmulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The gateway started on a free loopback port in front of four emulated backends, for one test
 * class: a DeepSeek route ({@code deepseek-reasoner}, reasoning_content, DeepSeek's acceptance rules),
 * a think-tag route ({@code r1-distill}, an OpenAI-compatible server whose answers carry
 * {@code <think>} tags), an Anthropic route ({@code claude}, signed thinking, Anthropic's rules) and
 * a Gemini route ({@code gemini-3}, thought signatures, Gemini's rules).
 */
public final class GatewayHarness implements AutoCloseable {

    public static final String KEY = "gw-test-key-0123456789";

    public final ProviderEmulator deepseek = ProviderEmulator.start().checking(AcceptanceRules.deepSeek());
    public final ProviderEmulator tags = ProviderEmulator.start();
    public final ProviderEmulator anthropic = ProviderEmulator.start().checking(AcceptanceRules.anthropic());
    public final ProviderEmulator gemini = ProviderEmulator.start().checking(AcceptanceRules.gemini());
    private final ConfigurableApplicationContext context;

    /** A fake process environment: every provider's key variable holds a dummy key. */
    @Configuration(proxyBeanMethods = false)
    static class FakeEnvironment {
        @Bean
        EnvironmentVariables testEnvironment() {
            return name -> name.endsWith("_KEY") ? "upstream-dummy-key" : null;
        }
    }

    public GatewayHarness(String... extraProperties) {
        this(new Class<?>[0], extraProperties);
    }

    /** The gateway with extra configuration classes, whose beans replace the gateway's own where they may. */
    public GatewayHarness(Class<?>[] extraSources, String... extraProperties) {
        List<String> p = new ArrayList<>(List.of(
                "server.port=0", "server.address=127.0.0.1", "spring.main.banner-mode=off",
                "ruminate.providers.deepseek.kind=deepseek",
                "ruminate.providers.deepseek.base-url=" + deepseek.baseUrl(),
                "ruminate.providers.deepseek.api-key-env=DEEPSEEK_API_KEY",
                "ruminate.providers.tags.kind=openai-compatible",
                "ruminate.providers.tags.base-url=" + tags.baseUrl() + "/v1",
                "ruminate.providers.tags.think-tags=true",
                "ruminate.providers.anthropic.kind=anthropic",
                "ruminate.providers.anthropic.base-url=" + anthropic.baseUrl(),
                "ruminate.providers.anthropic.api-key-env=ANTHROPIC_API_KEY",
                "ruminate.providers.gemini.kind=gemini",
                "ruminate.providers.gemini.base-url=" + gemini.baseUrl(),
                "ruminate.providers.gemini.api-key-env=GEMINI_API_KEY",
                "ruminate.gateway.routes.deepseek-reasoner.provider=deepseek",
                "ruminate.gateway.routes.r1-distill.provider=tags",
                "ruminate.gateway.routes.r1-distill.upstream-model=deepseek-r1-distill-llama-70b",
                "ruminate.gateway.routes.claude.provider=anthropic",
                "ruminate.gateway.routes.claude.upstream-model=claude-sonnet-4-20250514",
                "ruminate.gateway.routes.gemini-3.provider=gemini",
                "ruminate.gateway.routes.gemini-3.upstream-model=gemini-3-pro-preview",
                "ruminate.gateway.auth.keys=" + KEY));
        p.addAll(List.of(extraProperties));
        try {
            List<Class<?>> sources = new ArrayList<>(List.of(GatewayApplication.class, FakeEnvironment.class));
            sources.addAll(List.of(extraSources));
            this.context = new SpringApplicationBuilder(sources.toArray(Class<?>[]::new))
                    .properties(p.toArray(String[]::new)).run();
        } catch (RuntimeException | Error e) {
            // a gateway that fails to start (as some tests expect) must not leave the emulators listening
            closeEmulators();
            throw e;
        }
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + Objects.requireNonNull(context.getEnvironment().getProperty("local.server.port"));
    }

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    public Http http() {
        return new Http(baseUrl(), KEY);
    }

    public Http http(@Nullable String key) {
        return new Http(baseUrl(), key);
    }

    public static byte[] fixture(String name) {
        try {
            return Files.readAllBytes(Path.of("src/test/resources/fixtures", name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        context.close();
        closeEmulators();
    }

    private void closeEmulators() {
        deepseek.close();
        tags.close();
        anthropic.close();
        gemini.close();
    }
}
