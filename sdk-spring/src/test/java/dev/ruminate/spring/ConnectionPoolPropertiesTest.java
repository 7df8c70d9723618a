package dev.ruminate.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.TransportException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.Disposable;
import reactor.netty.resources.ConnectionProvider;
import reactor.test.StepVerifier;

/** {@code ruminate.providers.<name>.connections.*}: a pool of the provider's own, its limits, its errors, its end. */
@ExtendWith(NettyLeakCheck.class)
class ConnectionPoolPropertiesTest {

    private static final String SECRET = "sk-test-pool-0123456789-secret";

    private ProviderEmulator emulator;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RuminateAutoConfiguration.class))
            .withBean(EnvironmentVariables.class, () -> Map.of("DEEPSEEK_API_KEY", SECRET)::get);

    @BeforeEach
    void start() {
        // Every stream sends its first event, then holds the connection open until the client leaves.
        EmulatorResponse whole = ChatCompletionsScript.create().model("deepseek-reasoner")
                .reasoning("Think long.").content("Answer.").usage(5, 7, 3).toResponse();
        String body = new String(whole.body(), StandardCharsets.UTF_8);
        emulator = ProviderEmulator.start().always(whole.stallAfter(body.indexOf("\n\n") + 2));
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private String[] properties(String... connections) {
        List<String> p = new ArrayList<>(List.of("ruminate.providers.deepseek.kind=deepseek",
                "ruminate.providers.deepseek.base-url=" + emulator.baseUrl(),
                "ruminate.providers.deepseek.api-key-env=DEEPSEEK_API_KEY"));
        for (String c : connections) {
            p.add("ruminate.providers.deepseek.connections." + c);
        }
        return p.toArray(String[]::new);
    }

    private static ChatRequest hello() {
        return ChatRequest.builder("deepseek-reasoner").user("Hello?").build();
    }

    /** A stream held open; the latch opens at its first event. */
    private record Held(Disposable subscription, CountDownLatch firstEvent) {
        static Held open(ChatProvider provider) {
            CountDownLatch first = new CountDownLatch(1);
            return new Held(provider.stream(hello()).subscribe(e -> first.countDown(), e -> { }), first);
        }

        boolean started() throws InterruptedException {
            return firstEvent.await(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void twoConnectionsServeTwoStreamsOneWaitsAndTheNextFailsAtOnceNamingThePool() {
        runner.withPropertyValues(properties("max=2", "pending-max=1", "pending-timeout=1m")).run(context -> {
            ChatProvider deepseek = context.getBean("deepseek", ChatProvider.class);
            Held first = Held.open(deepseek);
            Held second = Held.open(deepseek);
            assertThat(first.started()).isTrue();
            assertThat(second.started()).isTrue();
            Held third = Held.open(deepseek); // waits for a connection: the one pending place

            StepVerifier.create(deepseek.stream(hello()))
                    .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(TransportException.class)
                            .hasMessageContaining("connection pool")
                            .hasMessageContaining("connections.max")
                            .hasMessageNotContaining(SECRET))
                    .verify(Duration.ofSeconds(5));
            assertThat(third.firstEvent().getCount()).isEqualTo(1);

            first.subscription().dispose(); // its connection goes; the waiting stream gets a new one
            assertThat(third.started()).isTrue();
            second.subscription().dispose();
            third.subscription().dispose();
        });
    }

    @Test
    void aRequestThatWaitsTooLongFailsNamingThePool() {
        runner.withPropertyValues(properties("max=1", "pending-timeout=50ms")).run(context -> {
            ChatProvider deepseek = context.getBean("deepseek", ChatProvider.class);
            Held first = Held.open(deepseek);
            assertThat(first.started()).isTrue();
            StepVerifier.create(deepseek.stream(hello()))
                    .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(TransportException.class)
                            .hasMessageContaining("connection pool")
                            .hasMessageContaining("pending-timeout"))
                    .verify(Duration.ofSeconds(5));
            first.subscription().dispose();
        });
    }

    @Test
    void theProvidersPoolIsDisposedWhenTheContextCloses() {
        AtomicReference<List<ConnectionProvider>> pools = new AtomicReference<>();
        runner.withPropertyValues(properties("max=3", "max-idle-time=30s")).run(context -> {
            Held stream = Held.open(context.getBean("deepseek", ChatProvider.class));
            assertThat(stream.started()).isTrue(); // a pool reports itself disposed until it has connected once
            pools.set(context.getBean(ProviderFactory.class).pools());
            assertThat(pools.get()).singleElement().satisfies(pool -> {
                assertThat(pool.name()).isEqualTo("ruminate-deepseek");
                assertThat(pool.maxConnections()).isEqualTo(3);
                assertThat(pool.isDisposed()).isFalse();
            });
            stream.subscription().dispose();
        });
        assertThat(pools.get()).allSatisfy(pool -> assertThat(pool.isDisposed()).isTrue());
    }

    @Test
    void withoutConnectionSettingsTheProviderSharesTheDefaultPool() {
        runner.withPropertyValues(properties()).run(context -> {
            context.getBean("deepseek", ChatProvider.class);
            assertThat(context.getBean(ProviderFactory.class).pools()).isEmpty();
        });
    }

    @Test
    void aMaxBeyondHalfAnIntStillGetsItsDefaultPendingLimit() {
        runner.withPropertyValues(properties("max=" + Integer.MAX_VALUE)).run(context -> {
            assertThat(context).hasNotFailed();
            context.getBean("deepseek", ChatProvider.class);
            assertThat(context.getBean(ProviderFactory.class).pools()).singleElement()
                    .satisfies(pool -> assertThat(pool.maxConnections()).isEqualTo(Integer.MAX_VALUE));
        });
    }

    @Test
    void invalidSettingsFailStartupNamingTheProperty() {
        Map<String, String> invalid = Map.of(
                "max=0", "ruminate.providers.deepseek.connections.max",
                "pending-max=-2", "ruminate.providers.deepseek.connections.pending-max",
                "pending-timeout=-1s", "ruminate.providers.deepseek.connections.pending-timeout",
                "max-idle-time=0s", "ruminate.providers.deepseek.connections.max-idle-time");
        invalid.forEach((setting, property) -> runner.withPropertyValues(properties(setting)).run(context -> {
            assertThat(context).hasFailed();
            assertThat(rootMessage(context.getStartupFailure())).contains(property).doesNotContain(SECRET);
        }));
    }

    private static String rootMessage(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }
}
