package dev.ruminate.spring;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.AuthenticationException;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

/** The GenAI observations and meters of real provider calls against the Chat Completions emulator on loopback. */
@ExtendWith(NettyLeakCheck.class)
class ObservingDecoratorTest {

    private static final List<String> CONTENT_KEYS = List.of(GenAiAttributes.INPUT_MESSAGES,
            GenAiAttributes.OUTPUT_MESSAGES, GenAiAttributes.SYSTEM_INSTRUCTIONS);

    private ProviderEmulator emulator;
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final TestObservationRegistry observations = TestObservationRegistry.create();
    private ChatProvider real;
    private ChatProvider observed;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
        real = ChatCompletionsProvider.builder(Profiles.DEEPSEEK).baseUrl(emulator.baseUrl()).build();
        observed = new ObservingDecorator(() -> meters, () -> observations).decorate("ds", real);
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private static ChatRequest request() {
        return ChatRequest.builder("deepseek-reasoner").system("Be brief.").user("Hello?").build();
    }

    @Test
    void aSuccessfulStreamIsAChatObservationWithTheGenAiAttributesAndMeters() {
        emulator.enqueue(ChatCompletionsScript.create().id("resp-7").model("deepseek-reasoner-0528")
                .reasoning("Think.").content("Hi!").usage(10, 42, 17).toResponse());
        ChatRequest request = ChatRequest.builder("deepseek-reasoner").user("Hello?")
                .sampling(new SamplingOptions(0.3, 0.9, 256, List.of(), null)).build();

        StepVerifier.create(observed.stream(request)).thenConsumeWhile(e -> true).expectComplete().verify(Duration.ofSeconds(5));

        assertThat(observations).hasSingleObservationThat()
                .hasNameEqualTo(GenAiAttributes.OBSERVATION)
                .hasContextualNameEqualTo("chat deepseek-reasoner")
                .hasLowCardinalityKeyValue("gen_ai.operation.name", "chat")
                .hasLowCardinalityKeyValue("gen_ai.provider.name", "deepseek")
                .hasLowCardinalityKeyValue("gen_ai.request.model", "deepseek-reasoner")
                .hasLowCardinalityKeyValue("gen_ai.response.model", "deepseek-reasoner-0528")
                .hasLowCardinalityKeyValue("ruminate.provider", "ds")
                .hasLowCardinalityKeyValue("ruminate.outcome", "success")
                .doesNotHaveLowCardinalityKeyValueWithKey("error.type")
                .hasHighCardinalityKeyValue("gen_ai.response.id", "resp-7")
                .hasHighCardinalityKeyValue("gen_ai.response.finish_reasons", "stop")
                .hasHighCardinalityKeyValue("gen_ai.request.temperature", "0.3")
                .hasHighCardinalityKeyValue("gen_ai.request.top_p", "0.9")
                .hasHighCardinalityKeyValue("gen_ai.request.max_tokens", "256")
                .hasHighCardinalityKeyValue("gen_ai.usage.input_tokens", "10")
                .hasHighCardinalityKeyValue("gen_ai.usage.output_tokens", "42")
                .hasHighCardinalityKeyValue(GenAiAttributes.USAGE_REASONING_TOKENS, "17")
                .hasBeenStarted().hasBeenStopped();
        String[] tags = {"gen_ai.operation.name", "chat", "gen_ai.provider.name", "deepseek",
            "gen_ai.request.model", "deepseek-reasoner", "gen_ai.response.model", "deepseek-reasoner-0528",
            "error.type", "none"};
        assertThat(meters.get(GenAiAttributes.OPERATION_DURATION).tags(tags).timer().count()).isEqualTo(1);
        assertThat(meters.get(GenAiAttributes.TIME_TO_FIRST_CHUNK).tags(tags).timer().count()).isEqualTo(1);
        assertThat(meters.get(GenAiAttributes.TIME_TO_FIRST_CHUNK).timer().totalTime(java.util.concurrent.TimeUnit.NANOSECONDS))
                .isPositive()
                .isLessThanOrEqualTo(meters.get(GenAiAttributes.OPERATION_DURATION).timer()
                        .totalTime(java.util.concurrent.TimeUnit.NANOSECONDS));
        assertThat(meters.get(GenAiAttributes.TOKEN_USAGE).tags(tags).tag("gen_ai.token.type", "input")
                .summary().totalAmount()).isEqualTo(10);
        assertThat(meters.get(GenAiAttributes.TOKEN_USAGE).tag("gen_ai.token.type", "output").summary().totalAmount())
                .isEqualTo(42);
    }

    @Test
    void contentIsNeverRecordedByDefault() {
        emulator.enqueue(ChatCompletionsScript.create().reasoning("Secretly think.").content("Hi!").toResponse());

        StepVerifier.create(observed.stream(request())).thenConsumeWhile(e -> true).expectComplete().verify(Duration.ofSeconds(5));

        assertThat(observations).hasSingleObservationThat().hasBeenStopped()
                .doesNotHaveHighCardinalityKeyValueWithKey(GenAiAttributes.INPUT_MESSAGES)
                .doesNotHaveHighCardinalityKeyValueWithKey(GenAiAttributes.OUTPUT_MESSAGES)
                .doesNotHaveHighCardinalityKeyValueWithKey(GenAiAttributes.SYSTEM_INSTRUCTIONS)
                .satisfies(context -> {
                    KeyValues all = context.getAllKeyValues();
                    assertThat(all.stream().map(kv -> kv.getKey())).doesNotContainAnyElementsOf(CONTENT_KEYS);
                    assertThat(all.stream().map(kv -> kv.getValue())).noneMatch(v -> v.contains("Hello?")
                            || v.contains("Hi!") || v.contains("Be brief") || v.contains("Secretly"));
                    assertThat(((GenAiObservationContext) context).outputText()).isEmpty();
                    assertThat(((GenAiObservationContext) context).outputReasoning()).isEmpty();
                });
    }

    @Test
    void contentIsRecordedWhenOptedIn() {
        observed = new ObservingDecorator(() -> meters, () -> observations, null, true).decorate("ds", real);
        emulator.enqueue(ChatCompletionsScript.create().reasoning("Think \"twice\".").content("Hi!").toResponse());

        StepVerifier.create(observed.stream(request())).thenConsumeWhile(e -> true).expectComplete().verify(Duration.ofSeconds(5));

        assertThat(observations).hasSingleObservationThat()
                .hasHighCardinalityKeyValue(GenAiAttributes.SYSTEM_INSTRUCTIONS, "[{\"type\":\"text\",\"content\":\"Be brief.\"}]")
                .hasHighCardinalityKeyValue(GenAiAttributes.INPUT_MESSAGES,
                        "[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"Hello?\"}]}]")
                .hasHighCardinalityKeyValue(GenAiAttributes.OUTPUT_MESSAGES,
                        "[{\"role\":\"assistant\",\"parts\":[{\"type\":\"reasoning\",\"content\":\"Think \\\"twice\\\".\"},"
                                + "{\"type\":\"text\",\"content\":\"Hi!\"}],\"finish_reason\":\"stop\"}]");
    }

    @Test
    void aStructuredAnswerAskedForTwiceCountsTheTokensOfBoth() {
        ChatRequest request = ChatRequest.builder("deepseek-reasoner").user("Weather in Oslo?")
                .output(OutputSchema.of("weather", "{\"type\":\"object\",\"required\":[\"city\"]}")).build();
        StructuredOutputMethod method = Objects.requireNonNull(
                ChatCompletionsCodec.of(Profiles.DEEPSEEK).structuredOutputMethod(request));
        // the corrective attempt is made for methods that do not constrain the output (DeepSeek reasoning has none that does)
        Assumptions.assumeFalse(method.constrained(), "DeepSeek's method " + method + " constrains the output");
        emulator.enqueue(ChatCompletionsScript.create().content("Cold.").usage(10, 5, 1).toResponse());
        emulator.enqueue(ChatCompletionsScript.create().content("{\"city\":\"Oslo\"}").usage(20, 7, 2).toResponse());

        StepVerifier.create(observed.stream(request)).thenConsumeWhile(e -> true).expectComplete().verify(Duration.ofSeconds(5));

        assertThat(emulator.requests()).hasSize(2);
        assertThat(meters.get(GenAiAttributes.TOKEN_USAGE).tag("gen_ai.token.type", "output").summary().totalAmount())
                .isEqualTo(12);
        assertThat(meters.get(GenAiAttributes.TOKEN_USAGE).tag("gen_ai.token.type", "input").summary().totalAmount())
                .isEqualTo(30);
        assertThat(observations).hasSingleObservationThat()
                .hasHighCardinalityKeyValue(GenAiAttributes.USAGE_REASONING_TOKENS, "3")
                .hasHighCardinalityKeyValue("gen_ai.usage.input_tokens", "30");
    }

    @Test
    void anHttpErrorIsRecordedWithItsErrorType() {
        emulator.enqueue(EmulatorResponse.httpError(401, "{\"error\":{\"message\":\"bad key\",\"type\":\"authentication_error\"}}"));

        StepVerifier.create(observed.stream(request())).expectError(AuthenticationException.class).verify(Duration.ofSeconds(5));

        assertThat(observations).hasSingleObservationThat()
                .hasLowCardinalityKeyValue("error.type", "authentication_failed")
                .hasLowCardinalityKeyValue("ruminate.outcome", "error")
                .doesNotHaveLowCardinalityKeyValueWithKey("gen_ai.response.model")
                .hasBeenStopped()
                .assertThatError().isInstanceOf(AuthenticationException.class);
        assertThat(meters.get(GenAiAttributes.OPERATION_DURATION).tag("error.type", "authentication_failed")
                .tag("ruminate.outcome", "error").tag("gen_ai.response.model", "none").timer().count()).isEqualTo(1);
        assertThat(meters.find(GenAiAttributes.TIME_TO_FIRST_CHUNK).timer()).isNull();
        assertThat(meters.find(GenAiAttributes.TOKEN_USAGE).summary()).isNull();
    }

    @Test
    void aCancelledStreamIsStoppedAsCancelledWithoutAnError() {
        String sse = ChatCompletionsScript.create().reasoning("A long thought that never ends").content("Never sent").toSse();
        int afterFirstReasoning = sse.indexOf("\n\n", sse.indexOf("reasoning_content")) + 2;
        emulator.enqueue(EmulatorResponse.sse(sse).stallAfter(afterFirstReasoning));

        StepVerifier.create(observed.stream(request()).take(1)).expectNextCount(1).expectComplete().verify(Duration.ofSeconds(5));

        assertThat(observations).hasSingleObservationThat()
                .hasLowCardinalityKeyValue("ruminate.outcome", "cancelled")
                .doesNotHaveLowCardinalityKeyValueWithKey("error.type")
                .doesNotHaveError()
                .hasBeenStopped();
        assertThat(meters.get(GenAiAttributes.OPERATION_DURATION).tag("ruminate.outcome", "cancelled").timer().count())
                .isEqualTo(1);
        StepVerifier.create(emulator.connectionClosed(0)).expectComplete().verify(Duration.ofSeconds(5));
    }

    @Test
    void theCallersObservationIsTheParent() {
        emulator.enqueue(ChatCompletionsScript.create().content("Hi!").toResponse());
        Observation parent = Observation.start("http.server.requests", observations);

        StepVerifier.create(observed.stream(request())
                        .contextWrite(Context.of(io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor.KEY, parent)))
                .thenConsumeWhile(e -> true).expectComplete().verify(Duration.ofSeconds(5));
        parent.stop();

        assertThat(observations).hasObservationWithNameEqualTo(GenAiAttributes.OBSERVATION).that()
                .hasParentObservationEqualTo(parent);
    }

    @Test
    void aCustomConventionNamesTheObservationAndTagsTheMeters() {
        GenAiObservationConvention custom = new DefaultGenAiObservationConvention() {
            @Override
            public KeyValues getLowCardinalityKeyValues(GenAiObservationContext context) {
                return super.getLowCardinalityKeyValues(context).and("team", "search");
            }
        };
        observed = new ObservingDecorator(() -> meters, () -> observations, custom, false).decorate("ds", real);
        emulator.enqueue(ChatCompletionsScript.create().content("Hi!").toResponse());

        StepVerifier.create(observed.stream(request())).thenConsumeWhile(e -> true).expectComplete().verify(Duration.ofSeconds(5));

        assertThat(observations).hasSingleObservationThat().hasLowCardinalityKeyValue("team", "search");
        assertThat(meters.get(GenAiAttributes.OPERATION_DURATION).tag("team", "search").timer().count()).isEqualTo(1);
    }

    @Test
    void providerNamesAreTheConventionsWellKnownValues() {
        assertThat(GenAiProviderNames.of("xai-responses")).isEqualTo("x_ai");
        assertThat(GenAiProviderNames.of("bedrock")).isEqualTo("aws.bedrock");
        assertThat(GenAiProviderNames.of("vertex")).isEqualTo("gcp.vertex_ai");
        assertThat(GenAiProviderNames.of("mistral")).isEqualTo("mistral_ai");
        assertThat(GenAiProviderNames.of("ollama")).isEqualTo("ollama");
    }

    @Test
    void withoutRegistriesTheProviderIsReturnedUnchanged() {
        assertThat(new ObservingDecorator(() -> null, () -> null).decorate("ds", real)).isSameAs(real);
    }

    @Test
    void withMetersOnlyTheMetersAreStillTaggedFromTheResponse() {
        observed = new ObservingDecorator(() -> meters, () -> null).decorate("ds", real);
        emulator.enqueue(ChatCompletionsScript.create().model("deepseek-reasoner-0528").content("Hi!").usage(3, 4, 0).toResponse());

        StepVerifier.create(observed.stream(request())).thenConsumeWhile(e -> true).expectComplete().verify(Duration.ofSeconds(5));

        assertThat(meters.get(GenAiAttributes.OPERATION_DURATION).tag("gen_ai.response.model", "deepseek-reasoner-0528")
                .tag("error.type", "none").timer().count()).isEqualTo(1);
    }
}
