package dev.ruminate.core.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.TransportException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ServerToolBlock;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.loop.LoopEvent;
import dev.ruminate.core.loop.ToolCall;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ReasoningCheck;
import dev.ruminate.core.testing.EveryEventType;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;

/** The UI message stream encoder: the chunks of the AI SDK's schema, in its order, and never opaque state. */
class UiMessageStreamTest {

    private static List<String> encode(ChatEvent... events) {
        return UiMessageStream.encode(Flux.just(events), "msg-1").collectList().block();
    }

    @Test
    void reasoningThenTextIsOneStepOfOneMessage() {
        List<String> out = encode(new ResponseStarted("anthropic", "claude", "resp_1"),
                new ReasoningDelta(0, "Think", false, "thinking"), new ReasoningDelta(0, "ing.", false, "thinking"),
                new Seal(0, Seal.Kind.SIGNATURE, "SIG-SECRET"), new PartEnded(0),
                new ContentDelta(1, "Hello"), new ResponseCompleted(FinishReason.STOP, "end_turn"));

        assertThat(out).containsExactly(
                "{\"type\":\"start\",\"messageId\":\"msg-1\"}",
                "{\"type\":\"start-step\"}",
                "{\"type\":\"reasoning-start\",\"id\":\"s1-0\"}",
                "{\"type\":\"reasoning-delta\",\"id\":\"s1-0\",\"delta\":\"Think\"}",
                "{\"type\":\"reasoning-delta\",\"id\":\"s1-0\",\"delta\":\"ing.\"}",
                "{\"type\":\"reasoning-end\",\"id\":\"s1-0\"}",
                "{\"type\":\"text-start\",\"id\":\"s1-1\"}",
                "{\"type\":\"text-delta\",\"id\":\"s1-1\",\"delta\":\"Hello\"}",
                "{\"type\":\"text-end\",\"id\":\"s1-1\"}",
                "{\"type\":\"finish-step\"}",
                "{\"type\":\"finish\",\"finishReason\":\"stop\"}",
                "[DONE]");
        assertThat(String.join("\n", out)).doesNotContain("SIG-SECRET").doesNotContain("resp_1");
    }

    @Test
    void aToolCallStreamsItsInputAndEndsWithTheParsedInput() {
        List<String> out = encode(new ToolCallDelta(0, 0, "call_1", "weather", "{\"loc"),
                new ToolCallDelta(0, 0, null, null, "ation\":\"Paris\"}"), new PartEnded(0),
                new ResponseCompleted(FinishReason.TOOL_CALLS, null));

        assertThat(out).containsSubsequence(
                "{\"type\":\"tool-input-start\",\"toolCallId\":\"call_1\",\"toolName\":\"weather\",\"dynamic\":true}",
                "{\"type\":\"tool-input-delta\",\"toolCallId\":\"call_1\",\"inputTextDelta\":\"{\\\"loc\"}",
                "{\"type\":\"tool-input-delta\",\"toolCallId\":\"call_1\",\"inputTextDelta\":\"ation\\\":\\\"Paris\\\"}\"}",
                "{\"type\":\"tool-input-available\",\"toolCallId\":\"call_1\",\"toolName\":\"weather\","
                        + "\"input\":{\"location\":\"Paris\"},\"dynamic\":true}",
                "{\"type\":\"finish\",\"finishReason\":\"tool-calls\"}");
    }

    @Test
    void argumentsThatAreNotJsonGoAsAString() {
        List<String> out = encode(new ToolCallDelta(0, 0, "c", "t", "{\"cut"), new ResponseCompleted(FinishReason.LENGTH, null));

        assertThat(out).contains("{\"type\":\"tool-input-available\",\"toolCallId\":\"c\",\"toolName\":\"t\","
                + "\"input\":\"{\\\"cut\",\"dynamic\":true}");
    }

    @Test
    void aReasoningPartReportedOnlyWholeIsShownOnce() {
        List<String> once = encode(new ReasoningFinal(0, "All at once."), new ResponseCompleted(FinishReason.STOP, null));
        List<String> afterDeltas = encode(new ReasoningDelta(0, "Streamed.", false, "reasoning"),
                new ReasoningFinal(0, "Streamed."), new ResponseCompleted(FinishReason.STOP, null));

        assertThat(once).contains("{\"type\":\"reasoning-delta\",\"id\":\"s1-0\",\"delta\":\"All at once.\"}");
        assertThat(afterDeltas.stream().filter(c -> c.contains("reasoning-delta"))).hasSize(1);
    }

    @Test
    void serverToolBlocksAndWarningsLeaveNoProviderJson() {
        List<String> out = encode(new Warning("option-ignored", "temperature left out"),
                new ServerToolBlock(0, "web_search_tool_result", "srv_1", "web_search",
                        "{\"type\":\"web_search_tool_result\",\"encrypted_content\":\"ENC-SECRET\"}"),
                new ResponseCompleted(FinishReason.STOP, null));

        assertThat(String.join("\n", out)).doesNotContain("ENC-SECRET").doesNotContain("srv_1");
        assertThat(out).contains("{\"type\":\"data-ruminate-warning\",\"data\":{\"code\":\"option-ignored\","
                + "\"message\":\"temperature left out\"},\"transient\":true}");
    }

    static List<ChatEvent> events() {
        return EveryEventType.oneOfEach();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void everyEventTypeIsHandled(ChatEvent event) {
        List<String> out = encode(event);

        assertThat(out.get(0)).isEqualTo("{\"type\":\"start\",\"messageId\":\"msg-1\"}");
        assertThat(out).last().isEqualTo("[DONE]");
        assertThat(out).noneMatch(c -> c.contains("\"type\":\"error\""));
        if (event instanceof Seal s) {
            assertThat(String.join("\n", out)).doesNotContain(s.value());
        }
    }

    @Test
    void anErrorClosesTheOpenPartsWithASafeErrorChunk() {
        Flux<ChatEvent> events = Flux.concat(Flux.just(new ContentDelta(0, "Hal")),
                Flux.error(new TransportException("upstream said: api key sk-SECRET is wrong", new RuntimeException("cause"))));

        List<String> out = UiMessageStream.encode(events, "msg-1").collectList().block();

        assertThat(out).endsWith("{\"type\":\"text-end\",\"id\":\"s1-0\"}",
                "{\"type\":\"error\",\"errorText\":\"The model call failed (transport_error).\"}", "[DONE]");
        assertThat(String.join("\n", out)).doesNotContain("SECRET");
    }

    @Test
    void aLoopIsOneMessageWithAStepPerModelCallAndEachToolsOutput() {
        ToolCall call = new ToolCall("call_1", "weather", "{}", 1, 0);
        AssistantMessage step1 = AssistantMessage.ofText("");
        AssistantMessage answer = AssistantMessage.ofText("Sunny.");
        Flux<LoopEvent> events = Flux.just(
                new LoopEvent.StepChatEvent(1, new ToolCallDelta(0, 0, "call_1", "weather", "{}")),
                new LoopEvent.StepChatEvent(1, new ResponseCompleted(FinishReason.TOOL_CALLS, null)),
                new LoopEvent.ToolStarted(1, call),
                new LoopEvent.ToolFinished(1, call, Duration.ZERO,
                        new ToolResultMessage("call_1", "weather", "{\"sky\":\"clear\"}", false), null, false),
                new LoopEvent.StepCompleted(1, step1, ReasoningCheck.UNAVAILABLE, List.of()),
                new LoopEvent.StepChatEvent(2, new ContentDelta(0, "Sunny.")),
                new LoopEvent.StepChatEvent(2, new ResponseCompleted(FinishReason.STOP, null)),
                new LoopEvent.StepCompleted(2, answer, ReasoningCheck.UNAVAILABLE, List.of()),
                new LoopEvent.LoopCompleted(2, answer, List.of(answer), Usage.UNKNOWN,
                        dev.ruminate.core.loop.StopReason.FINAL_ANSWER));

        List<String> out = UiMessageStream.encodeLoop(events, "msg-9").collectList().block();

        assertThat(out).containsExactly(
                "{\"type\":\"start\",\"messageId\":\"msg-9\"}",
                "{\"type\":\"start-step\"}",
                "{\"type\":\"tool-input-start\",\"toolCallId\":\"call_1\",\"toolName\":\"weather\",\"dynamic\":true}",
                "{\"type\":\"tool-input-delta\",\"toolCallId\":\"call_1\",\"inputTextDelta\":\"{}\"}",
                "{\"type\":\"tool-input-available\",\"toolCallId\":\"call_1\",\"toolName\":\"weather\",\"input\":{},"
                        + "\"dynamic\":true}",
                "{\"type\":\"tool-output-available\",\"toolCallId\":\"call_1\",\"output\":{\"sky\":\"clear\"},"
                        + "\"dynamic\":true}",
                "{\"type\":\"finish-step\"}",
                "{\"type\":\"start-step\"}",
                "{\"type\":\"text-start\",\"id\":\"s2-0\"}",
                "{\"type\":\"text-delta\",\"id\":\"s2-0\",\"delta\":\"Sunny.\"}",
                "{\"type\":\"text-end\",\"id\":\"s2-0\"}",
                "{\"type\":\"finish-step\"}",
                "{\"type\":\"finish\",\"finishReason\":\"stop\"}",
                "[DONE]");
    }

    @Test
    void messageIdsAreFreshAndFramedAsServerSentEvents() {
        assertThat(UiMessageStream.newMessageId()).startsWith("msg-").isNotEqualTo(UiMessageStream.newMessageId());
        assertThat(UiMessageStream.sse("[DONE]")).isEqualTo("data: [DONE]\n\n");
    }
}
