package dev.ruminate.examples.webflux;

import dev.ruminate.testkit.ProviderEmulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** The example application started on a free port, with its emulator, for one test class. */
final class RunningApp implements AutoCloseable {

    private final ConfigurableApplicationContext context;

    private RunningApp(ConfigurableApplicationContext context) {
        this.context = context;
    }

    static RunningApp start(String... extraProperties) {
        return start(List.of(), extraProperties);
    }

    static RunningApp start(List<Class<?>> extraSources, String... extraProperties) {
        List<String> properties = new ArrayList<>(List.of("server.port=0", "ruminate.example.emulator=true",
                "ruminate.example.pace=0ms", "spring.main.banner-mode=off"));
        properties.addAll(List.of(extraProperties));
        List<Class<?>> sources = new ArrayList<>(List.of(WebfluxChatApplication.class));
        sources.addAll(extraSources);
        return new RunningApp(new SpringApplicationBuilder(sources.toArray(Class<?>[]::new))
                .properties(properties.toArray(String[]::new)).run());
    }

    String baseUrl() {
        return "http://127.0.0.1:" + Objects.requireNonNull(context.getEnvironment().getProperty("local.server.port"));
    }

    <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    ProviderEmulator emulator() {
        return context.getBean(ProviderEmulator.class);
    }

    @Override
    public void close() {
        context.close();
    }
}
