package dev.ruminate.providers.structured;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.OutputChecked;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.StructuredOutput;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.providers.OpaqueStateRecovery;
import dev.ruminate.providers.anthropic.AnthropicCodec;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.spi.ProviderPipeline;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.AnthropicSignatureRule;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.transport.wire.SseEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The structured-output mechanics with real family codecs: the Chat Completions provider with an
 * {@link OutputSchema.Strategy#AUTO AUTO} schema, asserted on whatever method its codec reports (the
 * family's own choice, which may change); and Anthropic's codec, with thinking on, against the
 * emulator that refuses signatures it did not issue: the corrective attempt sends the refused
 * answer back with its signed thinking intact (as text, or as the output tool's call answered by an
 * error result), and after a recovery stripped a refused signature it continues from the stripped
 * request instead of being refused again.
 */
@ExtendWith(NettyLeakCheck.class)
class StructuredOutputFamiliesTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"},"
            + "\"temp\":{\"type\":\"number\"}},\"required\":[\"city\",\"temp\"],\"additionalProperties\":false}";
    private static final OutputSchema WEATHER = OutputSchema.of("weather", SCHEMA);
    private static final String VALID = "{\"city\":\"Oslo\",\"temp\":3}";
    private static final String MISSING_TEMP = "{\"city\":\"Oslo\"}";
    private static final ApiKey KEY = ApiKey.of("test-key-0123456789");

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private static ChatResult reduce(Flux<ChatEvent> events) {
        return Objects.requireNonNull(ChatReducer.defaults().reduce(events).block(WAIT));
    }

    private JsonNode body(int request) {
        return JSON.readTree(emulator.requests().get(request).body());
    }

    // ---- Chat Completions, the family's own method

    private static final ChatRequest CHAT = ChatRequest.builder("gpt-test").user("Weather in Oslo?").output(WEATHER).build();

    private static StructuredOutputMethod chatCompletionsMethod() {
        return Objects.requireNonNull(ChatCompletionsCodec.of(Profiles.OPENAI).structuredOutputMethod(CHAT));
    }

    /** An answer in the form the method gives it: the output tool's call, or text. */
    private static EmulatorResponse answer(StructuredOutputMethod method, String json) {
        ChatCompletionsScript script = ChatCompletionsScript.create();
        if (method == StructuredOutputMethod.TOOL_FORCED || method == StructuredOutputMethod.TOOL_AUTO) {
            script.toolCall("call_1", "weather", json).finish("tool_calls");
        } else {
            script.content(json);
        }
        return script.toResponse();
    }

    private ChatCompletionsProvider chatCompletions() {
        return ChatCompletionsProvider.builder(Profiles.OPENAI).baseUrl(emulator.baseUrl().toString()).apiKey(KEY).build();
    }

    @Test
    void chatCompletionsValidAnswerIsReportedWithTheMethodItsCodecChose() {
        StructuredOutputMethod method = chatCompletionsMethod();
        emulator.enqueue(answer(method, VALID));

        ChatResult result = reduce(chatCompletions().stream(CHAT));

        assertThat(result.output()).isEqualTo(new StructuredOutput("weather", method, true, List.of(), 1, VALID));
        assertThat(result.message().text()).isEqualTo(VALID);
        assertThat(result.message().toolCalls()).isEmpty();
        assertThat(emulator.requests()).hasSize(1);
    }

    @Test
    void chatCompletionsInvalidAnswerIsRetriedExactlyWhenTheMethodDoesNotConstrainIt() {
        StructuredOutputMethod method = chatCompletionsMethod();
        emulator.enqueue(answer(method, MISSING_TEMP));
        emulator.enqueue(answer(method, VALID));

        List<ChatEvent> events = Objects.requireNonNull(chatCompletions().stream(CHAT).collectList().block(WAIT));
        ChatResult result = reduce(Flux.fromIterable(events));

        List<OutputChecked> verdicts = events.stream().filter(OutputChecked.class::isInstance)
                .map(OutputChecked.class::cast).toList();
        if (method.constrained()) {
            assertThat(verdicts).extracting(OutputChecked::retrying).containsExactly(false);
            assertThat(result.output()).isEqualTo(new StructuredOutput("weather", method, false,
                    List.of("$: required property 'temp' not found"), 1, MISSING_TEMP));
            assertThat(emulator.requests()).hasSize(1);
        } else {
            assertThat(verdicts).extracting(OutputChecked::retrying).containsExactly(true, false);
            assertThat(result.output()).isEqualTo(new StructuredOutput("weather", method, true, List.of(), 2, VALID));
            assertThat(result.warnings()).extracting(Warning::code).contains(Warning.STRUCTURED_OUTPUT_RETRIED);
            assertThat(emulator.requests()).hasSize(2);
            JsonNode first = body(0).get("messages");
            JsonNode second = body(1).get("messages");
            assertThat(second.size()).isEqualTo(first.size() + 2);
            assertThat(second.get(second.size() - 1).toString()).contains("required property 'temp' not found");
        }
    }

    // ---- Anthropic with thinking: signed reasoning goes back with the corrective turn

    private static final String CLAUDE = "claude-sonnet-4-5";
    private static final String SIGNATURE = "c2lnbmF0dXJlLW9mLXRoZS1maXJzdC1hbnN3ZXI=";

    private ProviderPipeline<SseEvent> anthropic(StructuredOutputMethod method, OpaqueStateRecovery recovery) {
        return ProviderPipeline.builder("anthropic", MethodCodec.around(AnthropicCodec.of(1024), method),
                        AnthropicProvider.builder().baseUrl(emulator.baseUrl().toString()).opaqueStateRecovery(recovery), null)
                .auth("x-api-key", "", KEY)
                .build();
    }

    private static ChatRequest.Builder claude() {
        return ChatRequest.builder(CLAUDE).reasoning(ReasoningOptions.budget(2048));
    }

    @Test
    void anAnswerInTextGoesBackWithItsSignedThinkingAndAUserTurn() {
        emulator.checking(AcceptanceRules.anthropic());
        emulator.enqueue(AnthropicScript.create().thinking("The user wants JSON.", SIGNATURE).text("Cold, 3 degrees.").toResponse());
        emulator.enqueue(AnthropicScript.create().thinking("Now as JSON.", SIGNATURE + "2").text(VALID).toResponse());

        ChatResult result = reduce(anthropic(StructuredOutputMethod.INSTRUCTION, OpaqueStateRecovery.OFF)
                .stream(claude().user("Weather in Oslo?").output(WEATHER).build()));

        assertThat(result.output()).isEqualTo(new StructuredOutput("weather", StructuredOutputMethod.INSTRUCTION, true,
                List.of(), 2, VALID));
        assertThat(result.message().reasoning()).isEqualTo("Now as JSON.");
        assertThat(emulator.requests()).extracting(RecordedRequest::rejectedBy).containsExactly(null, null);
        JsonNode messages = body(1).get("messages");
        assertThat(messages.size()).isEqualTo(3);
        JsonNode assistant = messages.get(1);
        assertThat(assistant.get("role").asString()).isEqualTo("assistant");
        assertThat(assistant.get("content").get(0).get("type").asString()).isEqualTo("thinking");
        assertThat(assistant.get("content").get(0).get("signature").asString()).isEqualTo(SIGNATURE);
        assertThat(assistant.get("content").get(1).get("text").asString()).isEqualTo("Cold, 3 degrees.");
        assertThat(messages.get(2).get("role").asString()).isEqualTo("user");
        assertThat(messages.get(2).toString()).contains("the answer is not JSON");
    }

    @Test
    void invalidOutputToolArgumentsGoBackAsTheCallWithAnErrorResult() {
        emulator.checking(AcceptanceRules.anthropic());
        emulator.enqueue(AnthropicScript.create().thinking("Call the tool.", SIGNATURE).toolUse("toolu_1", "weather", MISSING_TEMP)
                .stopReason("tool_use").toResponse());
        emulator.enqueue(AnthropicScript.create().thinking("Again, with temp.", SIGNATURE + "2")
                .toolUse("toolu_2", "weather", VALID).stopReason("tool_use").toResponse());

        ChatResult result = reduce(anthropic(StructuredOutputMethod.TOOL_AUTO, OpaqueStateRecovery.OFF)
                .stream(claude().user("Weather in Oslo?").output(WEATHER).build()));

        assertThat(result.output()).isEqualTo(new StructuredOutput("weather", StructuredOutputMethod.TOOL_AUTO, true,
                List.of(), 2, VALID));
        assertThat(result.message().text()).isEqualTo(VALID);
        assertThat(result.message().toolCalls()).isEmpty();
        assertThat(emulator.requests()).extracting(RecordedRequest::rejectedBy).containsExactly(null, null);
        JsonNode messages = body(1).get("messages");
        JsonNode assistant = messages.get(1).get("content");
        assertThat(assistant.get(0).get("signature").asString()).isEqualTo(SIGNATURE);
        assertThat(assistant.get(1).get("type").asString()).isEqualTo("tool_use");
        assertThat(assistant.get(1).get("id").asString()).isEqualTo("toolu_1");
        JsonNode result0 = messages.get(2).get("content").get(0);
        assertThat(result0.get("type").asString()).isEqualTo("tool_result");
        assertThat(result0.get("tool_use_id").asString()).isEqualTo("toolu_1");
        assertThat(result0.get("is_error").asBoolean()).isTrue();
        assertThat(result0.toString()).contains("required property 'temp' not found");
    }

    @Test
    void afterARecoveryTheCorrectiveAttemptContinuesFromTheStrippedRequest() {
        emulator.checking(AcceptanceRules.anthropic());
        ProviderPipeline<SseEvent> pipeline = anthropic(StructuredOutputMethod.JSON_MODE, OpaqueStateRecovery.STRIP_AND_RETRY_ONCE);
        // a first turn the emulator issued, its signature then altered: refused when sent back
        emulator.enqueue(AnthropicScript.create().thinking("Hello.", SIGNATURE).text("Hi.").toResponse());
        AssistantMessage turn = reduce(pipeline.stream(claude().user("Hi").build())).message();
        List<Part> parts = new ArrayList<>(turn.parts());
        Seals s = parts.get(0).seals();
        assertThat(parts.get(0)).isInstanceOf(ReasoningPart.class);
        parts.set(0, parts.get(0).withSeals(new Seals("A" + Objects.requireNonNull(s.signature()).substring(1), s.redacted(),
                s.encrypted(), s.itemId(), s.format(), s.provenance())));
        AssistantMessage altered = new AssistantMessage(parts, turn.provider(), turn.model(), turn.finishReason(),
                turn.rawFinishReason(), turn.usage());
        emulator.enqueue(AnthropicScript.create().thinking("Weather.", SIGNATURE + "2").text("Cold.").toResponse());
        emulator.enqueue(AnthropicScript.create().thinking("As JSON.", SIGNATURE + "3").text(VALID).toResponse());

        ChatResult result = reduce(pipeline.stream(claude().user("Hi").message(altered).user("Weather in Oslo?")
                .output(WEATHER).build()));

        assertThat(result.output()).isEqualTo(new StructuredOutput("weather", StructuredOutputMethod.JSON_MODE, true,
                List.of(), 2, VALID));
        assertThat(result.warnings()).extracting(Warning::code)
                .containsExactly(Warning.OPAQUE_STATE_RECOVERED, Warning.STRUCTURED_OUTPUT_RETRIED);
        List<RecordedRequest> requests = emulator.requests();
        // the first turn, the refused attempt, its stripped retry, the corrective attempt: never refused again
        assertThat(requests).extracting(RecordedRequest::rejectedBy)
                .containsExactly(null, AnthropicSignatureRule.NAME, null, null);
        JsonNode corrective = body(3).get("messages");
        assertThat(corrective.size()).isEqualTo(5);
        assertThat(corrective.get(1).toString()).doesNotContain("\"signature\"");
        assertThat(corrective.get(3).get("content").get(0).get("signature").asString()).isEqualTo(SIGNATURE + "2");
    }
}
