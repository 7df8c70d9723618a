package dev.ruminate.core.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.loop.Tool;
import dev.ruminate.core.loop.ToolLoop;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.core.testing.EveryEventType;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** AG-UI events from chat events and loop events: the sequence the client's verifier accepts, no opaque state. */
class AgUiEncoderTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SIGNATURE = "SIG-opaque-bytes-0123456789";
    private static final AgUiInput INPUT = new AgUiInput("thread-1", "run-1", List.of(Message.user("Hi")), List.of(), null);

    static List<ChatEvent> events() {
        return EveryEventType.oneOfEach();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void everyEventTypeIsHandledAndNoneWritesASealsValue(ChatEvent event) {
        AgUiRun run = new AgUiRun("t", "r", ServerTurns.inMemory(4));
        assertThatCode(() -> run.chat(event)).doesNotThrowAnyException();
        List<String> out = run.chat(event);
        if (event instanceof Seal s) {
            assertThat(out).isEmpty();
            assertThat(String.join("", out)).doesNotContain(s.value());
        }
    }

    private static List<JsonNode> encode(Flux<ChatEvent> events, ServerTurns turns) {
        return AgUiEncoder.chat(INPUT, events, turns).map(JSON::readTree).collectList().block(Duration.ofSeconds(5));
    }

    private static List<String> types(List<JsonNode> events) {
        return events.stream().map(e -> e.path("type").asString()).toList();
    }

    private static JsonNode first(List<JsonNode> events, String type) {
        return events.stream().filter(e -> e.path("type").asString().equals(type)).findFirst().orElseThrow();
    }

    @Test
    void signedThinkingThenTextIsASpanAndAMessageAndTheSignatureStaysInTheStore() {
        ServerTurns turns = ServerTurns.inMemory(4);
        List<JsonNode> out = encode(Flux.just(new ResponseStarted("anthropic", "claude", "msg_1"),
                new ReasoningDelta(0, "Let me ", false, "thinking"), new ReasoningDelta(0, "think.", false, "thinking"),
                new Seal(0, Seal.Kind.SIGNATURE, SIGNATURE), new PartEnded(0),
                new ContentDelta(1, "Hello"), new ContentDelta(1, " there"), new PartEnded(1),
                new UsageUpdate(new Usage(10L, 5L, 3L, null, null)), new ResponseCompleted(FinishReason.STOP, "end_turn")), turns);

        assertThat(types(out)).containsExactly("RUN_STARTED", "REASONING_START", "REASONING_MESSAGE_START",
                "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END", "REASONING_END",
                "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END",
                "REASONING_ENCRYPTED_VALUE", "RUN_FINISHED");
        assertThat(out.toString()).doesNotContain(SIGNATURE);
        assertThat(first(out, "RUN_STARTED").path("threadId").asString()).isEqualTo("thread-1");
        assertThat(first(out, "RUN_FINISHED").path("runId").asString()).isEqualTo("run-1");
        assertThat(first(out, "RUN_FINISHED").path("usage").get(0).path("reasoningTokens").asLong()).isEqualTo(3);
        assertThat(first(out, "REASONING_MESSAGE_START").path("role").asString()).isEqualTo("reasoning");

        String turn = first(out, "TEXT_MESSAGE_START").path("messageId").asString();
        JsonNode handle = first(out, "REASONING_ENCRYPTED_VALUE");
        assertThat(handle.path("subtype").asString()).isEqualTo("message");
        assertThat(handle.path("entityId").asString()).isEqualTo(first(out, "REASONING_START").path("messageId").asString());
        assertThat(handle.path("encryptedValue").asString()).isEqualTo("ruminate-turn:" + turn + ":0");

        AssistantMessage stored = (AssistantMessage) turns.find("thread-1", turn).orElseThrow().get(0);
        assertThat(stored.reasoning()).isEqualTo("Let me think.");
        assertThat(stored.parts().get(0).seals().signature()).isEqualTo(SIGNATURE);
        assertThat(stored.text()).isEqualTo("Hello there");
        assertThat(turns.find("another-thread", turn)).isEmpty();
    }

    @Test
    void aToolCallWithoutProviderIdGetsOneAndIsStoredWithIt() {
        ServerTurns turns = ServerTurns.inMemory(4);
        List<JsonNode> out = encode(Flux.just(new ResponseStarted("gemini", "g", null),
                new ToolCallDelta(0, 0, null, "get_country", "{\"a\":"), new ToolCallDelta(0, 0, null, null, "1}"),
                new Seal(0, Seal.Kind.SIGNATURE, SIGNATURE), new PartEnded(0),
                new ResponseCompleted(FinishReason.TOOL_CALLS, null)), turns);

        assertThat(types(out)).containsExactly("RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_ARGS",
                "TOOL_CALL_END", "REASONING_ENCRYPTED_VALUE", "RUN_FINISHED");
        JsonNode start = first(out, "TOOL_CALL_START");
        String callId = start.path("toolCallId").asString();
        assertThat(callId).startsWith("call_");
        assertThat(start.path("toolCallName").asString()).isEqualTo("get_country");
        JsonNode handle = first(out, "REASONING_ENCRYPTED_VALUE");
        assertThat(handle.path("subtype").asString()).isEqualTo("tool-call");
        assertThat(handle.path("entityId").asString()).isEqualTo(callId);
        assertThat(out.toString()).doesNotContain(SIGNATURE);

        String turn = start.path("parentMessageId").asString();
        ToolCallPart stored = ((AssistantMessage) turns.find("thread-1", turn).orElseThrow().get(0)).toolCalls().get(0);
        assertThat(stored.id()).isEqualTo(callId);
        assertThat(stored.arguments()).isEqualTo("{\"a\":1}");
        assertThat(stored.seals().signature()).isEqualTo(SIGNATURE);
    }

    @Test
    void aFailureAfterEventsEndsTheRunWithASafeRunError() {
        List<JsonNode> out = encode(Flux.concat(Flux.just(new ResponseStarted("p", "m", null), new ContentDelta(0, "Hel")),
                Flux.error(new IllegalStateException("internal detail with a secret"))), ServerTurns.inMemory(4));
        assertThat(types(out)).containsExactly("RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "RUN_ERROR");
        JsonNode error = out.get(out.size() - 1);
        assertThat(error.path("message").asString()).isEqualTo("the run failed");
        assertThat(error.path("code").asString()).isNotBlank();
        assertThat(out.toString()).doesNotContain("secret");
    }

    @Test
    void aRuminateFailureKeepsItsTypeAsCode() {
        List<JsonNode> out = encode(Flux.error(new InvalidRequestException("p", "the model is unknown", null)), ServerTurns.inMemory(4));
        assertThat(types(out)).containsExactly("RUN_STARTED", "RUN_ERROR");
        assertThat(out.get(1).path("code").asString()).isEqualTo("invalid_request");
        assertThat(out.get(1).path("message").asString()).contains("the model is unknown");
    }

    @Test
    void aToolLoopIsStepsWithTheServersToolResultsAndEachStepIsStored() {
        AtomicInteger calls = new AtomicInteger();
        ChatProvider provider = new ChatProvider() {
            @Override
            public String name() {
                return "scripted";
            }

            @Override
            public Flux<ChatEvent> stream(ChatRequest request) {
                if (calls.getAndIncrement() == 0) {
                    return Flux.just(new ResponseStarted("scripted", "m", null), new ReasoningDelta(0, "Look it up.", false, "t"),
                            new Seal(0, Seal.Kind.SIGNATURE, SIGNATURE), new PartEnded(0),
                            new ToolCallDelta(1, 0, "call_1", "lookup", "{}"), new PartEnded(1),
                            new ResponseCompleted(FinishReason.TOOL_CALLS, null));
                }
                return Flux.just(new ResponseStarted("scripted", "m", null), new ContentDelta(0, "It is 42."),
                        new ResponseCompleted(FinishReason.STOP, null));
            }

            @Override
            public Flux<ChatEvent> completeAsEvents(ChatRequest request) {
                return stream(request);
            }
        };
        ToolLoop loop = ToolLoop.builder(provider)
                .tool(Tool.blocking(new ToolDefinition("lookup", "Looks it up.", "{\"type\":\"object\"}"), call -> "42"))
                .build();
        ServerTurns turns = ServerTurns.inMemory(4);
        List<JsonNode> out = AgUiEncoder.loop(INPUT, loop.run(INPUT.request("m").build()), turns)
                .map(JSON::readTree).collectList().block(Duration.ofSeconds(5));

        assertThat(types(out)).containsExactly("RUN_STARTED",
                "STEP_STARTED", "REASONING_START", "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT",
                "REASONING_MESSAGE_END", "REASONING_END", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END",
                "TOOL_CALL_RESULT", "REASONING_ENCRYPTED_VALUE", "STEP_FINISHED",
                "STEP_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "STEP_FINISHED",
                "RUN_FINISHED");
        assertThat(first(out, "STEP_STARTED").path("stepName").asString()).isEqualTo("step 1");
        JsonNode result = first(out, "TOOL_CALL_RESULT");
        assertThat(result.path("toolCallId").asString()).isEqualTo("call_1");
        assertThat(result.path("content").asString()).isEqualTo("42");
        assertThat(out.toString()).doesNotContain(SIGNATURE);
        String step1 = first(out, "TOOL_CALL_START").path("parentMessageId").asString();
        String step2 = first(out, "TEXT_MESSAGE_START").path("messageId").asString();
        assertThat(step1).isNotEqualTo(step2);
        assertThat(((AssistantMessage) turns.find("thread-1", step1).orElseThrow().get(0)).parts().get(0).seals().signature())
                .isEqualTo(SIGNATURE);
        assertThat(((AssistantMessage) turns.find("thread-1", step2).orElseThrow().get(0)).text()).isEqualTo("It is 42.");
    }

    @Test
    void sseFramesADataLineWithoutEventName() {
        assertThat(AgUiEncoder.sse("{\"type\":\"RUN_STARTED\"}")).isEqualTo("data: {\"type\":\"RUN_STARTED\"}\n\n");
    }
}
