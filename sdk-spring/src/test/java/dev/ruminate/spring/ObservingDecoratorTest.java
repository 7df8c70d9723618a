package dev.ruminate.spring;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.AuthenticationException;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.time.Duration;
import java.util.Objects;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.test.StepVerifier;

@ExtendWith(NettyLeakCheck.class)
class ObservingDecoratorTest {

    private ProviderEmulator emulator;
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final TestObservationRegistry observations = TestObservationRegistry.create();
    private ChatProvider observed;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
        ChatProvider real = ChatCompletionsProvider.builder(Profiles.DEEPSEEK).baseUrl(emulator.baseUrl()).build();
        observed = new ObservingDecorator(() -> meters, () -> observations).decorate("ds", real);
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private static ChatRequest request() {
        return ChatRequest.builder("deepseek-reasoner").user("Hello?").build();
    }

    @Test
    void aSuccessfulStreamRecordsFirstEventDurationAndTokens() {
        emulator.enqueue(ChatCompletionsScript.create().reasoning("Think.").content("Hi!").usage(10, 42, 17).toResponse());

        StepVerifier.create(observed.stream(request())).thenConsumeWhile(e -> true).expectComplete().verify(Duration.ofSeconds(5));

        assertThat(meters.get(ObservingDecorator.FIRST_EVENT).tag("provider", "ds").tag("model", "deepseek-reasoner")
                .timer().count()).isEqualTo(1);
        assertThat(meters.get(ObservingDecorator.DURATION).tag("outcome", "success").tag("exception", "none")
                .timer().count()).isEqualTo(1);
        assertThat(meters.get(ObservingDecorator.TOKENS).tag("type", "reasoning").summary().totalAmount()).isEqualTo(17);
        assertThat(meters.get(ObservingDecorator.TOKENS).tag("type", "output").summary().totalAmount()).isEqualTo(42);
        assertThat(meters.find(ObservingDecorator.ERRORS).counter()).isNull();
        assertThat(observations).hasSingleObservationThat()
                .hasNameEqualTo(ObservingDecorator.OBSERVATION)
                .hasLowCardinalityKeyValue("ruminate.provider", "ds")
                .hasLowCardinalityKeyValue("ruminate.model", "deepseek-reasoner")
                .hasLowCardinalityKeyValue("ruminate.outcome", "success")
                .hasHighCardinalityKeyValue("ruminate.tokens.reasoning", "17")
                .hasBeenStarted().hasBeenStopped();
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
        assertThat(meters.get(ObservingDecorator.TOKENS).tag("type", "output").summary().totalAmount()).isEqualTo(12);
        assertThat(meters.get(ObservingDecorator.TOKENS).tag("type", "reasoning").summary().totalAmount()).isEqualTo(3);
        assertThat(meters.get(ObservingDecorator.DURATION).tag("outcome", "success").timer().count()).isEqualTo(1);
    }

    @Test
    void aFailedCallIsCountedAndTaggedByExceptionType() {
        emulator.enqueue(EmulatorResponse.httpError(401, "{\"error\":{\"message\":\"bad key\",\"type\":\"authentication_error\"}}"));

        StepVerifier.create(observed.stream(request())).expectError(AuthenticationException.class).verify(Duration.ofSeconds(5));

        assertThat(meters.get(ObservingDecorator.ERRORS).tag("exception", "AuthenticationException")
                .tag("error.type", "authentication_failed").counter().count())
                .isEqualTo(1);
        assertThat(meters.get(ObservingDecorator.DURATION).tag("outcome", "error")
                .tag("exception", "AuthenticationException").timer().count()).isEqualTo(1);
        assertThat(meters.find(ObservingDecorator.FIRST_EVENT).timer()).isNull();
        assertThat(observations).hasSingleObservationThat()
                .hasLowCardinalityKeyValue("ruminate.outcome", "error")
                .assertThatError().isInstanceOf(AuthenticationException.class);
    }

    @Test
    void aCancelledStreamIsRecordedAsCancelled() {
        String sse = ChatCompletionsScript.create().reasoning("A long thought that never ends").content("Never sent").toSse();
        int afterFirstReasoning = sse.indexOf("\n\n", sse.indexOf("reasoning_content")) + 2;
        emulator.enqueue(EmulatorResponse.sse(sse).stallAfter(afterFirstReasoning));

        StepVerifier.create(observed.stream(request()).take(1)).expectNextCount(1).expectComplete().verify(Duration.ofSeconds(5));

        assertThat(meters.get(ObservingDecorator.DURATION).tag("outcome", "cancelled").timer().count()).isEqualTo(1);
        assertThat(observations).hasSingleObservationThat().hasLowCardinalityKeyValue("ruminate.outcome", "cancelled")
                .hasBeenStopped();
        StepVerifier.create(emulator.connectionClosed(0)).expectComplete().verify(Duration.ofSeconds(5));
    }

    @Test
    void withoutRegistriesTheProviderIsReturnedUnchanged() {
        ChatProvider real = ChatCompletionsProvider.builder(Profiles.DEEPSEEK).baseUrl(emulator.baseUrl()).build();
        assertThat(new ObservingDecorator(() -> null, () -> null).decorate("ds", real)).isSameAs(real);
    }
}
