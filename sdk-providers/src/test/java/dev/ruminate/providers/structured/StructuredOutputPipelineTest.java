package dev.ruminate.providers.structured;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.OutputChecked;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.StructuredOutput;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.spi.ProviderPipeline;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.transport.resilience.Resilience;
import dev.ruminate.transport.wire.SseEvent;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The provider-neutral structured-output mechanics of {@link ProviderPipeline}, over real HTTP on
 * loopback: a test codec ({@link MethodCodec}) reports each method while the emulator serves
 * scripted Chat Completions responses, so every path (native, forced tool, the output tool called
 * or not under {@code tool_choice: auto}, JSON mode, instruction) is exercised whatever the
 * families' encoders do today.
 */
@ExtendWith(NettyLeakCheck.class)
class StructuredOutputPipelineTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"},"
            + "\"temp\":{\"type\":\"number\"}},\"required\":[\"city\",\"temp\"],\"additionalProperties\":false}";
    private static final OutputSchema WEATHER = OutputSchema.of("weather", SCHEMA);
    private static final String VALID = "{\"city\":\"Oslo\",\"temp\":3}";
    private static final String MISSING_TEMP = "{\"city\":\"Oslo\"}";
    private static final ChatRequest REQUEST = ChatRequest.builder("gpt-test").user("Weather in Oslo?").output(WEATHER).build();

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private ProviderPipeline<SseEvent> pipeline(MethodCodec<SseEvent> codec) {
        return pipeline(codec, Resilience.NONE);
    }

    private ProviderPipeline<SseEvent> pipeline(MethodCodec<SseEvent> codec, Resilience guards) {
        return ProviderPipeline.builder("openai", codec, ChatCompletionsProvider.builder(Profiles.OPENAI)
                        .baseUrl(emulator.baseUrl().toString()).resilience(guards), null)
                .auth("Authorization", "Bearer ", ApiKey.of("sk-structured-test"))
                .build();
    }

    private static EmulatorResponse text(String answer) {
        return ChatCompletionsScript.create().content(answer).toResponse();
    }

    private static EmulatorResponse toolCall(String name, String arguments) {
        return ChatCompletionsScript.create().toolCall("call_1", name, arguments).finish("tool_calls").toResponse();
    }

    private static ChatResult reduce(List<ChatEvent> events) {
        return Objects.requireNonNull(ChatReducer.defaults().reduce(Flux.fromIterable(events)).block(Duration.ofSeconds(5)));
    }

    private static List<ChatEvent> collect(Flux<ChatEvent> events) {
        return Objects.requireNonNull(events.collectList().block(Duration.ofSeconds(30)));
    }

    private static List<OutputChecked> verdicts(List<ChatEvent> events) {
        return events.stream().filter(OutputChecked.class::isInstance).map(OutputChecked.class::cast).toList();
    }

    private JsonNode body(int request) {
        return JSON.readTree(emulator.requests().get(request).body());
    }

    @Test
    void nativeValidAnswerIsReportedValidBeforeTheCompletion() {
        emulator.enqueue(text(VALID));

        StepVerifier.create(pipeline(MethodCodec.reporting(StructuredOutputMethod.NATIVE)).stream(REQUEST))
                .expectNextMatches(ResponseStarted.class::isInstance)
                .thenConsumeWhile(e -> e instanceof ContentDelta || e instanceof PartEnded)
                .expectNext(new OutputChecked("weather", StructuredOutputMethod.NATIVE, true, List.of(), false, VALID))
                .expectNextMatches(e -> e instanceof ResponseCompleted c && c.finishReason() == FinishReason.STOP)
                .verifyComplete();
        assertThat(emulator.requests()).hasSize(1);
    }

    @Test
    void nativeInvalidAnswerIsReportedAndNotRetried() {
        emulator.enqueue(text(MISSING_TEMP));

        List<ChatEvent> events = collect(pipeline(MethodCodec.reporting(StructuredOutputMethod.NATIVE)).stream(REQUEST));

        assertThat(verdicts(events)).containsExactly(new OutputChecked("weather", StructuredOutputMethod.NATIVE, false,
                List.of("$: required property 'temp' not found"), false, MISSING_TEMP));
        assertThat(events).noneMatch(Warning.class::isInstance);
        ChatResult result = reduce(events);
        assertThat(result.output()).isEqualTo(new StructuredOutput("weather", StructuredOutputMethod.NATIVE, false,
                List.of("$: required property 'temp' not found"), 1, MISSING_TEMP));
        assertThat(emulator.requests()).hasSize(1);
    }

    @Test
    void forcedToolWithInvalidArgumentsIsReportedAndNotRetried() {
        emulator.enqueue(toolCall("weather", "{\"city\":7,\"temp\":3}"));

        ChatResult result = reduce(collect(pipeline(MethodCodec.reporting(StructuredOutputMethod.TOOL_FORCED)).stream(REQUEST)));

        StructuredOutput output = Objects.requireNonNull(result.output());
        assertThat(output.valid()).isFalse();
        assertThat(output.violations()).containsExactly("$.city: integer found, string expected");
        assertThat(output.attempts()).isEqualTo(1);
        assertThat(emulator.requests()).hasSize(1);
    }

    @Test
    void outputToolCalledUnderAutoBecomesTheAnswerTextWithFinishStop() {
        emulator.enqueue(toolCall("weather", VALID));

        List<ChatEvent> events = collect(pipeline(MethodCodec.reporting(StructuredOutputMethod.TOOL_AUTO)).stream(REQUEST));

        assertThat(events).noneMatch(ToolCallDelta.class::isInstance);
        assertThat(events.get(events.size() - 1)).isEqualTo(new ResponseCompleted(FinishReason.STOP, "tool_calls"));
        ChatResult result = reduce(events);
        assertThat(result.message().text()).isEqualTo(VALID);
        assertThat(result.message().toolCalls()).isEmpty();
        assertThat(result.message().finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(result.output()).isEqualTo(new StructuredOutput("weather", StructuredOutputMethod.TOOL_AUTO, true,
                List.of(), 1, VALID));
        assertThat(emulator.requests()).hasSize(1);
    }

    @Test
    void outputToolCalledWholeBodyToo() {
        emulator.enqueue(ChatCompletionsScript.create().toolCall("call_1", "weather", VALID).finish("tool_calls")
                .toCompletionResponse());

        ChatResult result = reduce(collect(pipeline(MethodCodec.reporting(StructuredOutputMethod.TOOL_FORCED)).complete(REQUEST)));

        assertThat(result.message().text()).isEqualTo(VALID);
        assertThat(result.message().finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(Objects.requireNonNull(result.output()).valid()).isTrue();
        assertThat(emulator.requests()).hasSize(1);
    }

    @Test
    void autoAnsweredInTextIsRetriedOnceWithTheAnswerAndACorrectiveTurn() {
        emulator.enqueue(ChatCompletionsScript.create().content("It is cold in Oslo.").usage(10, 5, 0).toResponse());
        emulator.enqueue(ChatCompletionsScript.create().toolCall("call_2", "weather", VALID).finish("tool_calls")
                .usage(30, 7, 0).toResponse());

        StepVerifier.create(pipeline(MethodCodec.reporting(StructuredOutputMethod.TOOL_AUTO)).stream(REQUEST))
                .expectNextMatches(ResponseStarted.class::isInstance)
                .thenConsumeWhile(e -> e instanceof ContentDelta || e instanceof PartEnded || e instanceof UsageUpdate)
                .expectNextMatches(e -> e instanceof OutputChecked c && c.retrying() && !c.valid()
                        && "It is cold in Oslo.".equals(c.json()))
                .expectNextMatches(e -> e instanceof Warning w && w.code().equals(Warning.STRUCTURED_OUTPUT_RETRIED))
                .expectNextMatches(ResponseStarted.class::isInstance)
                .thenConsumeWhile(e -> e instanceof ContentDelta || e instanceof PartEnded || e instanceof UsageUpdate)
                .expectNext(new OutputChecked("weather", StructuredOutputMethod.TOOL_AUTO, true, List.of(), false, VALID))
                .expectNext(new ResponseCompleted(FinishReason.STOP, "tool_calls"))
                .verifyComplete();

        assertThat(emulator.requests()).hasSize(2);
        JsonNode first = body(0).get("messages");
        JsonNode second = body(1).get("messages");
        assertThat(second.size()).isEqualTo(first.size() + 2);
        assertThat(second.get(first.size()).get("role").asString()).isEqualTo("assistant");
        assertThat(second.get(first.size()).get("content").asString()).isEqualTo("It is cold in Oslo.");
        JsonNode corrective = second.get(first.size() + 1);
        assertThat(corrective.get("role").asString()).isEqualTo("user");
        assertThat(corrective.get("content").asString())
                .contains("$: the answer is not JSON")
                .contains("calling the tool weather");
    }

    @Test
    void theReducedRetryHasTheSecondAnswerTheSummedUsageAndTheWarning() {
        emulator.enqueue(ChatCompletionsScript.create().content("It is cold in Oslo.").usage(10, 5, 0).toResponse());
        emulator.enqueue(ChatCompletionsScript.create().toolCall("call_2", "weather", VALID).finish("tool_calls")
                .usage(30, 7, 0).toResponse());

        ChatResult result = reduce(collect(pipeline(MethodCodec.reporting(StructuredOutputMethod.TOOL_AUTO)).stream(REQUEST)));

        assertThat(result.message().text()).isEqualTo(VALID);
        assertThat(result.message().usage().inputTokens()).isEqualTo(40L);
        assertThat(result.message().usage().outputTokens()).isEqualTo(12L);
        assertThat(result.output()).isEqualTo(new StructuredOutput("weather", StructuredOutputMethod.TOOL_AUTO, true,
                List.of(), 2, VALID));
        assertThat(result.warnings()).extracting(Warning::code).containsExactly(Warning.STRUCTURED_OUTPUT_RETRIED);
    }

    @Test
    void invalidOutputToolArgumentsAreAnsweredWithAnErrorToolResult() {
        emulator.enqueue(toolCall("weather", MISSING_TEMP));
        emulator.enqueue(toolCall("weather", VALID));

        ChatResult result = reduce(collect(pipeline(MethodCodec.reporting(StructuredOutputMethod.TOOL_AUTO)).stream(REQUEST)));

        assertThat(Objects.requireNonNull(result.output()).valid()).isTrue();
        assertThat(emulator.requests()).hasSize(2);
        JsonNode second = body(1).get("messages");
        JsonNode assistant = second.get(second.size() - 2);
        assertThat(assistant.get("role").asString()).isEqualTo("assistant");
        assertThat(assistant.get("tool_calls").get(0).get("id").asString()).isEqualTo("call_1");
        assertThat(assistant.get("tool_calls").get(0).get("function").get("arguments").asString()).isEqualTo(MISSING_TEMP);
        JsonNode toolResult = second.get(second.size() - 1);
        assertThat(toolResult.get("role").asString()).isEqualTo("tool");
        assertThat(toolResult.get("tool_call_id").asString()).isEqualTo("call_1");
        assertThat(toolResult.get("content").asString()).contains("$: required property 'temp' not found");
    }

    @Test
    void aRetryThatIsAlsoInvalidIsTheFinalVerdictAfterExactlyTwoRequests() {
        emulator.enqueue(text("Oslo, 3 degrees"));
        emulator.enqueue(text(MISSING_TEMP));

        List<ChatEvent> events = collect(pipeline(MethodCodec.reporting(StructuredOutputMethod.INSTRUCTION)).stream(REQUEST));

        assertThat(verdicts(events)).extracting(OutputChecked::retrying).containsExactly(true, false);
        assertThat(events.stream().filter(ResponseCompleted.class::isInstance)).hasSize(1);
        ChatResult result = reduce(events);
        assertThat(result.message().text()).isEqualTo(MISSING_TEMP);
        assertThat(result.output()).isEqualTo(new StructuredOutput("weather", StructuredOutputMethod.INSTRUCTION, false,
                List.of("$: required property 'temp' not found"), 2, MISSING_TEMP));
        assertThat(emulator.requests()).hasSize(2);
        JsonNode second = body(1).get("messages");
        assertThat(second.get(second.size() - 1).get("content").asString())
                .contains("Answer again with one JSON value").contains(SCHEMA);
    }

    @Test
    void theRetryWorksWholeBodyToo() {
        emulator.enqueue(ChatCompletionsScript.create().content("Oslo, 3 degrees").toCompletionResponse());
        emulator.enqueue(ChatCompletionsScript.create().content(VALID).toCompletionResponse());

        ChatResult result = reduce(collect(pipeline(MethodCodec.reporting(StructuredOutputMethod.JSON_MODE)).complete(REQUEST)));

        assertThat(result.message().text()).isEqualTo(VALID);
        assertThat(result.output()).isEqualTo(new StructuredOutput("weather", StructuredOutputMethod.JSON_MODE, true,
                List.of(), 2, VALID));
        assertThat(emulator.requests()).hasSize(2);
    }

    @Test
    void aFencedJsonAnswerIsTakenOutOfItsFence() {
        emulator.enqueue(text("```json\n" + VALID + "\n```\n"));

        ChatResult result = reduce(collect(pipeline(MethodCodec.reporting(StructuredOutputMethod.INSTRUCTION)).stream(REQUEST)));

        assertThat(result.output()).isEqualTo(new StructuredOutput("weather", StructuredOutputMethod.INSTRUCTION, true,
                List.of(), 1, VALID));
        assertThat(emulator.requests()).hasSize(1);
    }

    @Test
    void theOutputToolBesideAnotherToolIsAToolLoopStepWithoutAVerdict() {
        emulator.enqueue(ChatCompletionsScript.create().toolCall("call_1", "weather", VALID)
                .toolCall("call_2", "lookup", "{\"q\":\"Oslo\"}").finish("tool_calls").toResponse());

        List<ChatEvent> events = collect(pipeline(MethodCodec.reporting(StructuredOutputMethod.TOOL_AUTO)).stream(REQUEST));

        assertThat(verdicts(events)).isEmpty();
        ChatResult result = reduce(events);
        assertThat(result.output()).isNull();
        assertThat(result.message().text()).isEqualTo(VALID);
        assertThat(result.message().toolCalls()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("lookup");
            assertThat(c.arguments()).isEqualTo("{\"q\":\"Oslo\"}");
        });
        assertThat(result.message().finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(emulator.requests()).hasSize(1);
    }

    @Test
    void encoderWarningsComeFirstAndOnceAcrossTheRetry() {
        emulator.enqueue(text("not json"));
        emulator.enqueue(text(VALID));

        List<ChatEvent> events = collect(pipeline(MethodCodec.warning(StructuredOutputMethod.JSON_MODE, "seed ignored"))
                .stream(REQUEST));

        assertThat(events.get(0)).isEqualTo(new Warning(Warning.OPTION_IGNORED, "seed ignored"));
        assertThat(events.get(1)).isInstanceOf(ResponseStarted.class);
        assertThat(events.stream().filter(Warning.class::isInstance).map(e -> ((Warning) e).code()))
                .containsExactly(Warning.OPTION_IGNORED, Warning.STRUCTURED_OUTPUT_RETRIED);
        assertThat(events.subList(events.size() - 2, events.size()))
                .first().isInstanceOf(OutputChecked.class);
        assertThat(events.get(events.size() - 1)).isInstanceOf(ResponseCompleted.class);
    }

    @Test
    void theMethodIsAskedOncePerAttempt() {
        emulator.enqueue(text("not json"));
        emulator.enqueue(text(VALID));
        MethodCodec<SseEvent> codec = MethodCodec.reporting(StructuredOutputMethod.INSTRUCTION);

        collect(pipeline(codec).stream(REQUEST));

        assertThat(codec.asked.get()).isEqualTo(2);
    }

    @Test
    void anHttpErrorIsNeverFollowedByACorrectiveAttempt() {
        emulator.enqueue(EmulatorResponse.httpError(400, "{\"error\":{\"message\":\"bad request\",\"type\":\"invalid_request_error\"}}"));
        emulator.enqueue(text(VALID));

        StepVerifier.create(pipeline(MethodCodec.reporting(StructuredOutputMethod.TOOL_AUTO)).stream(REQUEST))
                .verifyError(ProviderHttpException.class);
        assertThat(emulator.requests()).hasSize(1);
    }

    @Test
    void aCorrectiveAttemptThatFailsEndsTheCallWithItsError() {
        emulator.enqueue(text("not json"));
        emulator.enqueue(EmulatorResponse.httpError(400, "{\"error\":{\"message\":\"bad request\",\"type\":\"invalid_request_error\"}}"));

        StepVerifier.create(pipeline(MethodCodec.reporting(StructuredOutputMethod.INSTRUCTION)).stream(REQUEST))
                .thenConsumeWhile(e -> !(e instanceof OutputChecked))
                .expectNextMatches(e -> e instanceof OutputChecked c && c.retrying())
                .expectNextMatches(Warning.class::isInstance)
                .verifyError(ProviderHttpException.class);
        assertThat(emulator.requests()).hasSize(2);
    }

    @Test
    void eachAttemptHasTheGuardsOfItsOwn() {
        String overloaded = "{\"error\":{\"message\":\"overloaded\"}}";
        emulator.enqueue(EmulatorResponse.httpError(503, overloaded));
        emulator.enqueue(text("not json"));
        emulator.enqueue(EmulatorResponse.httpError(503, overloaded));
        emulator.enqueue(text(VALID));
        Resilience guards = Resilience.builder().retry(Retry.of("openai",
                RetryConfig.custom().maxAttempts(2).waitDuration(Duration.ofMillis(10)).build())).build();

        List<ChatEvent> events = collect(pipeline(MethodCodec.reporting(StructuredOutputMethod.INSTRUCTION), guards)
                .stream(REQUEST));

        assertThat(verdicts(events)).extracting(OutputChecked::retrying).containsExactly(true, false);
        assertThat(reduce(events).output()).isEqualTo(new StructuredOutput("weather", StructuredOutputMethod.INSTRUCTION,
                true, List.of(), 2, VALID));
        // the guard's retry sends the same body again; the corrective attempt's body is a new one
        assertThat(emulator.requests()).hasSize(4);
        assertThat(emulator.requests().get(1).body()).isEqualTo(emulator.requests().get(0).body());
        assertThat(emulator.requests().get(3).body()).isEqualTo(emulator.requests().get(2).body())
                .isNotEqualTo(emulator.requests().get(0).body());
    }

    @Test
    void anAnswerCutOffByTheOutputLimitIsNotRetried() {
        emulator.enqueue(ChatCompletionsScript.create().content("{\"city\":\"Os").finish("length").toResponse());

        List<ChatEvent> events = collect(pipeline(MethodCodec.reporting(StructuredOutputMethod.JSON_MODE)).stream(REQUEST));

        assertThat(verdicts(events)).singleElement().satisfies(c -> {
            assertThat(c.valid()).isFalse();
            assertThat(c.retrying()).isFalse();
        });
        assertThat(emulator.requests()).hasSize(1);
    }

    @Test
    void aSchemaTheCodecRefusesFailsBeforeAnyRequest() {
        StepVerifier.create(pipeline(MethodCodec.refusing()).stream(REQUEST))
                .verifyErrorSatisfies(e -> assertThat(e).isInstanceOf(UnsupportedInputException.class)
                        .hasMessageContaining("openai"));
        assertThat(emulator.requests()).isEmpty();
    }

    @Test
    void aSchemaThatCannotBeCompiledFailsBeforeAnyRequest() {
        ChatRequest broken = ChatRequest.builder("gpt-test").user("x").output(OutputSchema.of("weather", "{\"$ref\":\"#/$defs/missing\"}"))
                .build();

        StepVerifier.create(pipeline(MethodCodec.reporting(StructuredOutputMethod.NATIVE)).stream(broken))
                .verifyErrorSatisfies(e -> assertThat(e).isInstanceOf(InvalidRequestException.class)
                        .hasMessageContaining("output schema weather cannot be compiled"));
        assertThat(emulator.requests()).isEmpty();
    }

    @Test
    void aRequestWithoutASchemaHasNoVerdictAndTheMethodIsNotAsked() {
        emulator.enqueue(toolCall("weather", VALID));
        MethodCodec<SseEvent> codec = MethodCodec.reporting(StructuredOutputMethod.TOOL_AUTO);

        List<ChatEvent> events = collect(pipeline(codec).stream(ChatRequest.builder("gpt-test").user("x").build()));

        assertThat(verdicts(events)).isEmpty();
        assertThat(events).anyMatch(ToolCallDelta.class::isInstance);
        assertThat(reduce(events).output()).isNull();
        assertThat(codec.asked.get()).isZero();
    }
}
