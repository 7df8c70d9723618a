package dev.ruminate.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.ProviderKind;
import dev.ruminate.providers.ProviderKinds;
import dev.ruminate.providers.ProviderSetting;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

@ExtendWith(NettyLeakCheck.class)
class RuminateAutoConfigurationTest {

    private static final String SECRET = "sk-test-0123456789-very-secret";

    private ProviderEmulator emulator;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RuminateAutoConfiguration.class, RuminateObservationAutoConfiguration.class))
            .withBean(EnvironmentVariables.class, () -> Map.of("DEEPSEEK_API_KEY", SECRET)::get);

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private static ChatRequest hello() {
        return ChatRequest.builder("deepseek-reasoner").user("Hello?").build();
    }

    @Test
    void withoutPropertiesThereAreNoProviders() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(ChatProvider.class);
            assertThat(context.getBean(RuminateProviders.class).names()).isEmpty();
        });
    }

    @Test
    void bindsPropertiesAndExposesOneNamedBeanPerProvider() {
        runner.withPropertyValues(
                        "ruminate.providers.deepseek.kind=deepseek",
                        "ruminate.providers.deepseek.base-url=" + emulator.baseUrl(),
                        "ruminate.providers.deepseek.api-key-env=DEEPSEEK_API_KEY",
                        "ruminate.providers.deepseek.model=deepseek-reasoner",
                        "ruminate.providers.deepseek.reasoning.effort=high",
                        "ruminate.providers.deepseek.reasoning.include=true",
                        "ruminate.providers.deepseek.timeouts.read=2m",
                        "ruminate.providers.deepseek.timeouts.first-event=30s",
                        "ruminate.providers.deepseek.resilience.retry.max-attempts=3",
                        "ruminate.providers.deepseek.resilience.bulkhead.max-concurrent-calls=4",
                        "ruminate.providers.claude.kind=anthropic",
                        "ruminate.providers.claude.reasoning.budget-tokens=2048")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    RuminateProperties properties = context.getBean(RuminateProperties.class);
                    ProviderProperties deepseek = properties.providers().get("deepseek");
                    assertThat(deepseek.timeouts().firstEvent()).isEqualTo(Duration.ofSeconds(30));
                    assertThat(deepseek.resilience().retry().maxAttempts()).isEqualTo(3);

                    assertThat(context).getBeans(ChatProvider.class).containsOnlyKeys("deepseek", "claude");
                    RuminateProviders registry = context.getBean(RuminateProviders.class);
                    assertThat(registry.names()).containsExactly("deepseek", "claude");
                    assertThat(registry.get("deepseek")).isSameAs(context.getBean("deepseek"));
                    assertThat(registry.get("deepseek").name()).isEqualTo("deepseek");
                    assertThat(registry.get("claude").name()).isEqualTo("anthropic");
                    assertThat(registry.find("nobody")).isEmpty();

                    ChatRequest request = registry.request("deepseek").user("Hi").build();
                    assertThat(request.model()).isEqualTo("deepseek-reasoner");
                    assertThat(request.reasoning()).isEqualTo(new ReasoningOptions(true, ReasoningEffort.HIGH, null, true));
                    assertThat(registry.defaults("claude").reasoning()).isEqualTo(ReasoningOptions.budget(2048));
                });
    }

    @Test
    void aProviderBeanStreamsFromTheConfiguredEndpointWithTheKeyFromTheEnvironment() {
        emulator.enqueue(ChatCompletionsScript.create().model("deepseek-reasoner")
                .reasoning("Greet back.").content("Hello!").usage(5, 7, 3).toResponse());
        runner.withPropertyValues(
                        "ruminate.providers.deepseek.kind=deepseek",
                        "ruminate.providers.deepseek.base-url=" + emulator.baseUrl(),
                        "ruminate.providers.deepseek.api-key-env=DEEPSEEK_API_KEY")
                .run(context -> {
                    ChatProvider deepseek = context.getBean("deepseek", ChatProvider.class);
                    StepVerifier.create(deepseek.stream(hello()).filter(e -> !(e instanceof ContentDelta c) || !c.text().isEmpty()))
                            .thenConsumeWhile(e -> !(e instanceof ReasoningDelta))
                            .expectNextMatches(e -> e instanceof ReasoningDelta)
                            .thenConsumeWhile(e -> !(e instanceof ResponseCompleted))
                            .expectNextMatches(e -> e instanceof ResponseCompleted)
                            .thenConsumeWhile(e -> true)
                            .expectComplete().verify(Duration.ofSeconds(5));
                    assertThat(emulator.requests()).singleElement()
                            .satisfies(sent -> assertThat(sent.header("authorization")).isEqualTo("Bearer " + SECRET));
                });
    }

    @Test
    void everyKindBuildsFromProperties() {
        ApplicationContextRunner all = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RuminateAutoConfiguration.class))
                .withBean(EnvironmentVariables.class, () -> Map.of("KEY", "k-1", "AWS_ACCESS_KEY_ID", "AKIDEXAMPLE",
                        "AWS_SECRET_ACCESS_KEY", "aws-secret")::get);
        List<String> properties = new ArrayList<>();
        for (ProviderKind kind : ProviderKinds.all()) {
            String p = "ruminate.providers." + kind.name() + ".";
            properties.addAll(List.of(p + "kind=" + kind.name(), p + "base-url=" + emulator.baseUrl()));
            if (kind.credential() != ProviderKind.Credential.AWS_CREDENTIALS) {
                properties.add(p + "api-key-env=KEY");
            }
            for (ProviderSetting setting : kind.requires()) {
                switch (setting) {
                    case REGION -> properties.add(p + "region=eu-west-1");
                    case PROJECT -> properties.add(p + "project=my-project");
                    case LOCATION -> properties.add(p + "location=global");
                    case BASE_URL, API_KEY, ACCESS_TOKEN, AWS_CREDENTIALS -> { }
                }
            }
        }
        properties.addAll(List.of("ruminate.providers.generic.kind=Responses",
                "ruminate.providers.generic.base-url=" + emulator.baseUrl(), "ruminate.providers.generic.api-key-env=KEY"));
        all.withPropertyValues(properties.toArray(String[]::new)).run(context -> {
            assertThat(context).hasNotFailed();
            List<String> expected = new ArrayList<>(ProviderKinds.names());
            expected.add("generic");
            assertThat(context.getBean(RuminateProviders.class).names()).containsExactlyElementsOf(expected);
            for (ProviderKind kind : ProviderKinds.all()) {
                assertThat(context.getBean(kind.name(), ChatProvider.class).name()).isEqualTo(kind.name());
            }
            assertThat(context.getBean("generic", ChatProvider.class).name()).isEqualTo("openai-responses");
        });
    }

    @Test
    void bedrockWithoutCredentialsFailsStartupSayingSo() {
        runner.withPropertyValues("ruminate.providers.b.kind=bedrock", "ruminate.providers.b.region=us-east-1")
                .run(context -> assertThat(rootMessage(context.getStartupFailure()))
                        .contains("ruminate.providers.b.kind", "credentials"));
    }

    @Test
    void aCredentialsChainWithoutItsLibraryFailsStartupNamingTheArtifacts() {
        // the AWS SDK and Google's auth library are optional dependencies of sdk-providers, absent here
        runner.withPropertyValues("ruminate.providers.b.kind=bedrock", "ruminate.providers.b.region=us-east-1",
                        "ruminate.providers.b.credentials=default-chain")
                .run(context -> assertThat(rootMessage(context.getStartupFailure()))
                        .contains("ruminate.providers.b.credentials", "software.amazon.awssdk:auth"));
        runner.withPropertyValues("ruminate.providers.v.kind=vertex", "ruminate.providers.v.project=p",
                        "ruminate.providers.v.location=global", "ruminate.providers.v.credentials=default-chain")
                .run(context -> assertThat(rootMessage(context.getStartupFailure()))
                        .contains("ruminate.providers.v.credentials", "google-auth-library-oauth2-http"));
    }

    @Test
    void aCredentialsChainOnAKindThatTakesAKeyFailsStartup() {
        runner.withPropertyValues("ruminate.providers.a.kind=anthropic", "ruminate.providers.a.credentials=profile:dev")
                .run(context -> assertThat(rootMessage(context.getStartupFailure()))
                        .contains("ruminate.providers.a.credentials", "takes an API key"));
        runner.withPropertyValues("ruminate.providers.b.kind=bedrock", "ruminate.providers.b.region=us-east-1",
                        "ruminate.providers.b.credentials=chain-of-my-own")
                .run(context -> assertThat(rootMessage(context.getStartupFailure()))
                        .contains("ruminate.providers.b.credentials", "not default-chain or profile:NAME"));
    }

    @Test
    void aRequestNeedsAConfiguredModel() {
        runner.withPropertyValues("ruminate.providers.local.kind=openai-compatible",
                        "ruminate.providers.local.base-url=" + emulator.baseUrl())
                .run(context -> assertThatThrownBy(() -> context.getBean(RuminateProviders.class).request("local"))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("ruminate.providers.local.model"));
    }

    @Test
    void theKeyNeverShowsInPropertiesBeansOrDescriptions() {
        runner.withPropertyValues(
                        "ruminate.providers.deepseek.kind=deepseek",
                        "ruminate.providers.deepseek.base-url=" + emulator.baseUrl(),
                        "ruminate.providers.deepseek.api-key-env=DEEPSEEK_API_KEY")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(RuminateProperties.class).toString())
                            .contains("DEEPSEEK_API_KEY").doesNotContain(SECRET);
                    assertThat(context.getBean(RuminateProviders.class).toString()).doesNotContain(SECRET);
                    assertThat(context.getBean("deepseek").toString()).doesNotContain(SECRET);
                });
    }

    @Test
    void aBadSettingFailsStartupWithoutTheKey() {
        runner.withPropertyValues(
                        "ruminate.providers.deepseek.kind=deepseek",
                        "ruminate.providers.deepseek.api-key-env=DEEPSEEK_API_KEY",
                        "ruminate.providers.deepseek.base-url=ftp://example.invalid/")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(rootMessage(context.getStartupFailure()))
                            .contains("ruminate.providers.deepseek.base-url", "http or https")
                            .doesNotContain(SECRET);
                });
    }

    @Test
    void anUnknownKindFailsStartupListingTheKnownKinds() {
        runner.withPropertyValues("ruminate.providers.x.kind=deepthink")
                .run(context -> assertThat(rootMessage(context.getStartupFailure()))
                        .contains("ruminate.providers.x.kind", "deepthink", "unknown kind", "deepseek", "anthropic", "bedrock"));
    }

    @Test
    void aMissingKindOrKeyVariableFailsStartupNamingTheProperty() {
        runner.withPropertyValues("ruminate.providers.x.base-url=http://127.0.0.1:9")
                .run(context -> assertThat(rootMessage(context.getStartupFailure()))
                        .contains("ruminate.providers.x.kind", "a kind is required"));
        runner.withPropertyValues("ruminate.providers.x.kind=openai", "ruminate.providers.x.api-key-env=OPENAI_API_KEY")
                .run(context -> assertThat(rootMessage(context.getStartupFailure()))
                        .contains("ruminate.providers.x.api-key-env", "OPENAI_API_KEY is not set"));
        runner.withPropertyValues("ruminate.providers.v.kind=vertex", "ruminate.providers.v.location=global")
                .run(context -> assertThat(rootMessage(context.getStartupFailure()))
                        .contains("ruminate.providers.v.project", "required"));
        runner.withPropertyValues("ruminate.providers.x.kind=openai", "ruminate.providers.x.reasoning.effort=extreme")
                .run(context -> assertThat(rootMessage(context.getStartupFailure()))
                        .contains("ruminate.providers.x.reasoning.effort", "extreme", "high"));
        runner.withPropertyValues("ruminate.providers.x.kind=openai", "ruminate.providers.x.timeouts.first-event=soon")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void anApplicationBeanNamedLikeAProviderReplacesIt() {
        ChatProvider own = AnthropicProvider.builder().baseUrl(emulator.baseUrl()).build();
        runner.withPropertyValues(
                        "ruminate.providers.deepseek.kind=deepseek",
                        "ruminate.providers.deepseek.base-url=" + emulator.baseUrl(),
                        "ruminate.providers.other.kind=openai-compatible",
                        "ruminate.providers.other.base-url=" + emulator.baseUrl())
                .withBean("deepseek", ChatProvider.class, () -> own)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("deepseek")).isSameAs(own);
                    assertThat(context.getBean(RuminateProviders.class).get("deepseek")).isSameAs(own);
                    assertThat(context.getBean(RuminateProviders.class).get("other")).isNotSameAs(own);
                });
    }

    @Test
    void anApplicationRegistryReplacesOurs() {
        RuminateProviders own = new RuminateProviders(Map.of(), Map.of());
        runner.withBean(RuminateProviders.class, () -> own)
                .run(context -> assertThat(context.getBean(RuminateProviders.class)).isSameAs(own));
    }

    @Test
    void customizersAndDecoratorsApplyToEveryProvider() {
        emulator.enqueue(ChatCompletionsScript.create().content("Hi").toResponse());
        runner.withPropertyValues("ruminate.providers.local.kind=openai-compatible")
                // The base URL is known only at run time here: a customizer sets it.
                .withBean(ChatProviderCustomizer.class, () -> (name, builder) -> builder.baseUrl(emulator.baseUrl()))
                .withBean(ChatProviderDecorator.class, () -> (name, provider) -> new Renamed(name + "!", provider))
                .run(context -> {
                    ChatProvider local = context.getBean(RuminateProviders.class).get("local");
                    assertThat(local.name()).isEqualTo("local!");
                    StepVerifier.create(local.stream(hello()).filter(ContentDelta.class::isInstance).map(e -> ((ContentDelta) e).text()))
                            .expectNext("Hi").expectComplete().verify(Duration.ofSeconds(5));
                });
    }

    @Test
    void retriesConfiguredByPropertiesHappenBeforeTheFirstEvent() {
        emulator.enqueue(EmulatorResponse.httpError(503, "{\"error\":{\"message\":\"busy\"}}"));
        emulator.enqueue(ChatCompletionsScript.create().content("Done").toResponse());
        runner.withPropertyValues(
                        "ruminate.providers.local.kind=openai-compatible",
                        "ruminate.providers.local.base-url=" + emulator.baseUrl(),
                        "ruminate.providers.local.resilience.retry.max-attempts=2",
                        "ruminate.providers.local.resilience.retry.initial-wait=10ms",
                        "ruminate.providers.local.resilience.retry.jitter=0")
                .run(context -> {
                    ChatProvider local = context.getBean("local", ChatProvider.class);
                    StepVerifier.create(local.stream(hello()).filter(ContentDelta.class::isInstance).map(e -> ((ContentDelta) e).text()))
                            .expectNext("Done").expectComplete().verify(Duration.ofSeconds(5));
                    assertThat(emulator.requests()).hasSize(2);
                });
    }

    @Test
    void withoutMicrometerProvidersAreNotObserved() {
        runner.withClassLoader(new FilteredClassLoader("io.micrometer"))
                .withPropertyValues("ruminate.providers.local.kind=openai-compatible",
                        "ruminate.providers.local.base-url=" + emulator.baseUrl())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(ObservingDecorator.class);
                    assertThat(context.getBean("local")).isInstanceOf(ChatCompletionsProvider.class);
                });
    }

    @Test
    void withMicrometerAndARegistryProvidersAreObserved() {
        runner.withBean(io.micrometer.core.instrument.MeterRegistry.class,
                        io.micrometer.core.instrument.simple.SimpleMeterRegistry::new)
                .withPropertyValues("ruminate.providers.local.kind=openai-compatible",
                        "ruminate.providers.local.base-url=" + emulator.baseUrl())
                .run(context -> {
                    assertThat(context).hasSingleBean(ObservingDecorator.class);
                    assertThat(context.getBean("local")).isInstanceOf(ObservedChatProvider.class);
                });
    }

    @Test
    void captureContentAndAConventionBeanReachTheObservations() {
        io.micrometer.observation.tck.TestObservationRegistry observations =
                io.micrometer.observation.tck.TestObservationRegistry.create();
        emulator.enqueue(ChatCompletionsScript.create().content("Hi!").toResponse());
        runner.withBean(io.micrometer.observation.ObservationRegistry.class, () -> observations)
                .withBean(GenAiObservationConvention.class, () -> new DefaultGenAiObservationConvention() {
                    @Override
                    public String getContextualName(GenAiObservationContext context) {
                        return "custom " + context.request().model();
                    }
                })
                .withPropertyValues("ruminate.providers.ds.kind=deepseek",
                        "ruminate.providers.ds.base-url=" + emulator.baseUrl(),
                        "ruminate.observations.capture-content=true")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(RuminateObservationProperties.class).captureContent()).isTrue();
                    StepVerifier.create(context.getBean("ds", ChatProvider.class).stream(hello()))
                            .thenConsumeWhile(e -> true).expectComplete().verify(Duration.ofSeconds(5));
                    io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat(observations)
                            .hasSingleObservationThat().hasContextualNameEqualTo("custom deepseek-reasoner")
                            .hasHighCardinalityKeyValue(GenAiAttributes.INPUT_MESSAGES,
                                    "[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"Hello?\"}]}]");
                });
    }

    @Test
    void contentCaptureIsOffByDefault() {
        runner.withPropertyValues("ruminate.providers.local.kind=openai-compatible",
                        "ruminate.providers.local.base-url=" + emulator.baseUrl())
                .run(context -> assertThat(context.getBean(RuminateObservationProperties.class).captureContent()).isFalse());
    }

    private static String rootMessage(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }

    /** A decorator of the test's own: renames the provider, passes calls through. */
    private record Renamed(String name, ChatProvider delegate) implements ChatProvider {
        @Override
        public Flux<ChatEvent> stream(ChatRequest request) {
            return delegate.stream(request);
        }

        @Override
        public Flux<ChatEvent> completeAsEvents(ChatRequest request) {
            return delegate.completeAsEvents(request);
        }
    }
}
