package dev.ruminate.core.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.loop.Approval;
import dev.ruminate.core.loop.LoopEvent;
import dev.ruminate.core.loop.StopReason;
import dev.ruminate.core.loop.ToolCall;
import dev.ruminate.core.loop.ToolError;
import dev.ruminate.core.loop.ToolLoopException;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ReasoningCheck;
import dev.ruminate.core.reduce.ReasoningVerdict;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/** The loop events' wire JSON: documented shapes, round trips, every event type, the client form. */
class LoopEventJsonTest {

    private static final ToolCall CALL = new ToolCall("call_1", "calculator", "{\"expression\":\"2*(3+4)\"}", 1, 0);

    private static AssistantMessage signedToolTurn() {
        return new AssistantMessage(List.of(
                new ReasoningPart("I need the product.", false, "thinking", new Seals("SIG-secret", null, null, null, null)),
                new ToolCallPart("call_1", "calculator", "{\"expression\":\"2*(3+4)\"}", true, Seals.NONE)),
                "anthropic", "claude-sonnet-4-5", FinishReason.TOOL_CALLS, "tool_use", new Usage(10L, 20L, null, null));
    }

    private static AssistantMessage answer() {
        return new AssistantMessage(List.of(
                new ReasoningPart("14 it is.", false, "thinking", new Seals(null, null, "gAAAA-ENC", "rs_9", null)),
                new TextPart("2*(3+4) = 14", Seals.NONE)),
                "anthropic", "claude-sonnet-4-5", FinishReason.STOP, "end_turn", new Usage(30L, 5L, null, null));
    }

    private static final ToolResultMessage RESULT = new ToolResultMessage("call_1", "calculator", "14", false);

    /** One event of each permitted subclass, with every optional field set somewhere. */
    static List<LoopEvent> oneOfEach() {
        return List.of(
                new LoopEvent.StepChatEvent(2, new ReasoningDelta(0, "Let me think", false, "thinking")),
                new LoopEvent.ToolStarted(1, CALL),
                new LoopEvent.ToolFinished(1, CALL, Duration.ofMillis(3), RESULT, null, false),
                new LoopEvent.ToolFinished(1, CALL, Duration.ofMillis(12),
                        new ToolResultMessage("call_1", "calculator", "division by zero", true),
                        new ToolError(ToolError.Kind.HANDLER_FAILED, "division by zero"), true),
                new LoopEvent.StepCompleted(1, signedToolTurn(),
                        new ReasoningCheck(ReasoningVerdict.MISMATCHED, 1, 0, 7, false, null), List.of(RESULT)),
                new LoopEvent.LoopCompleted(2, answer(),
                        List.of(Message.user("2*(3+4)?"), signedToolTurn(), RESULT, answer()),
                        new Usage(40L, 25L, null, null), StopReason.FINAL_ANSWER),
                // after the others: tests above pick samples by position
                new LoopEvent.ApprovalRequested(1, CALL),
                new LoopEvent.ApprovalResolved(1, CALL, Approval.approve(), Duration.ofMillis(1500)),
                new LoopEvent.ApprovalResolved(1, CALL, Approval.deny("not on weekends"), Duration.ofMillis(40)));
    }

    @Test
    void anApprovalDecisionIsWrittenWithItsReasonAndWait() {
        assertThat(LoopEventJson.write(new LoopEvent.ApprovalResolved(1, CALL, Approval.deny("not on weekends"),
                Duration.ofMillis(40)))).contains("\"type\":\"approval.resolved\"", "\"approved\":false",
                "\"reason\":\"not on weekends\"", "\"waited_ms\":40");
        assertThat(LoopEventJson.write(new LoopEvent.ApprovalResolved(1, CALL, Approval.approve(), Duration.ZERO)))
                .contains("\"approved\":true").doesNotContain("reason");
    }

    @Test
    void everyPermittedLoopEventTypeIsCoveredAndHasAWireTypeOfItsOwn() {
        Set<Class<?>> permitted = Arrays.stream(LoopEvent.class.getPermittedSubclasses()).collect(Collectors.toSet());
        Set<Class<?>> sampled = oneOfEach().stream().map(Object::getClass).collect(Collectors.toSet());
        // a subclass added to LoopEvent fails here until it has a sample, a wire type and a round trip
        assertThat(sampled).isEqualTo(permitted);
        List<String> loopTypes = oneOfEach().stream().filter(e -> !(e instanceof LoopEvent.StepChatEvent))
                .map(LoopEventJson::type).distinct().collect(Collectors.toList());
        assertThat(loopTypes).containsExactly("tool.started", "tool.finished", "step.completed", "loop.completed",
                "approval.requested", "approval.resolved");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneOfEach")
    void eachEventReadsBackAsItselfInTheFullForm(LoopEvent event) {
        assertThat(LoopEventJson.read(LoopEventJson.write(event))).isEqualTo(event);
    }

    @Test
    void aStepsChatEventKeepsItsTypeAndGainsTheStep() {
        assertThat(LoopEventJson.write(new LoopEvent.StepChatEvent(2, new ContentDelta(1, "Hi"))))
                .isEqualTo("{\"type\":\"content.delta\",\"step\":2,\"part\":1,\"text\":\"Hi\"}");
    }

    @Test
    void toolEventsHaveTheirDocumentedShape() {
        assertThat(LoopEventJson.write(new LoopEvent.ToolStarted(1, CALL))).isEqualTo(
                "{\"type\":\"tool.started\",\"step\":1,\"id\":\"call_1\",\"name\":\"calculator\","
                        + "\"arguments\":\"{\\\"expression\\\":\\\"2*(3+4)\\\"}\",\"index\":0}");
        assertThat(LoopEventJson.write(oneOfEach().get(2))).isEqualTo(
                "{\"type\":\"tool.finished\",\"step\":1,\"id\":\"call_1\",\"name\":\"calculator\","
                        + "\"arguments\":\"{\\\"expression\\\":\\\"2*(3+4)\\\"}\",\"index\":0,\"duration_ms\":3,\"result\":\"14\"}");
        assertThat(LoopEventJson.write(oneOfEach().get(3))).endsWith(
                "\"duration_ms\":12,\"result\":\"division by zero\",\"is_error\":true,"
                        + "\"error\":{\"kind\":\"handler_failed\",\"reason\":\"division by zero\"},\"truncated\":true}");
    }

    @Test
    void stepAndLoopCompletedHaveTheirDocumentedShape() {
        assertThat(LoopEventJson.write(oneOfEach().get(4), ProviderState.OMIT)).isEqualTo(
                "{\"type\":\"step.completed\",\"step\":1,\"message\":" + MessageJson.writeForClient(signedToolTurn())
                        + ",\"reasoning_check\":{\"verdict\":\"mismatched\",\"checked_parts\":1,\"part\":0,\"offset\":7},"
                        + "\"tool_results\":[{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"name\":\"calculator\",\"content\":\"14\"}]}");
        assertThat(LoopEventJson.write(oneOfEach().get(5), ProviderState.OMIT)).isEqualTo(
                "{\"type\":\"loop.completed\",\"step\":2,\"stop_reason\":\"final_answer\","
                        + "\"usage\":{\"input_tokens\":40,\"output_tokens\":25},\"final_message\":"
                        + MessageJson.writeForClient(answer()) + "}");
    }

    @Test
    void theClientFormCarriesNoOpaqueStateAndNoConversation() {
        for (LoopEvent e : oneOfEach()) {
            String json = LoopEventJson.write(e, ProviderState.OMIT);
            assertThat(json).doesNotContain("SIG-secret", "gAAAA-ENC", "rs_9", "provider_state", "\"conversation\"");
        }
        // the full form keeps them, so a server can store and continue the conversation
        String full = LoopEventJson.write(oneOfEach().get(5));
        assertThat(full).contains("\"conversation\":[", "SIG-secret", "gAAAA-ENC");
        LoopEvent.LoopCompleted client = (LoopEvent.LoopCompleted) LoopEventJson.read(
                LoopEventJson.write(oneOfEach().get(5), ProviderState.OMIT));
        assertThat(client.conversation()).isEmpty();
        assertThat(client.stopReason()).isEqualTo(StopReason.FINAL_ANSWER);
    }

    @Test
    void sseForClientsDropsSealsAndEndsAFailureWithOneLoopFailedFrame() {
        Flux<LoopEvent> events = Flux.concat(Flux.just(
                        new LoopEvent.StepChatEvent(1, new ReasoningDelta(0, "hmm", false, "thinking")),
                        new LoopEvent.StepChatEvent(1, new Seal(0, Seal.Kind.SIGNATURE, "SIG-secret")),
                        new LoopEvent.ToolStarted(1, CALL)),
                Flux.error(new ToolLoopException(ToolLoopException.Reason.LOOP_TIMEOUT, null,
                        "the tool loop did not finish within PT1S")));

        StepVerifier.create(LoopEventJson.toSseForClient(events))
                .assertNext(f -> assertThat(f).isEqualTo(new SseFrame("reasoning.delta",
                        "{\"type\":\"reasoning.delta\",\"step\":1,\"part\":0,\"text\":\"hmm\",\"source\":\"thinking\"}")))
                .assertNext(f -> assertThat(f.event()).isEqualTo("tool.started"))
                .assertNext(f -> {
                    assertThat(f.event()).isEqualTo("loop.failed");
                    assertThat(f.data()).startsWith("{\"type\":\"loop.failed\",\"error\":{\"type\":\"loop_timeout\","
                            + "\"message\":\"the tool loop did not finish within PT1S\",\"retryable\":");
                })
                .verifyComplete();
        StepVerifier.create(LoopEventJson.toSse(Flux.just(new LoopEvent.StepChatEvent(1,
                        new Seal(0, Seal.Kind.SIGNATURE, "SIG-secret"))), ProviderState.INCLUDE))
                .assertNext(f -> assertThat(f.data()).contains("\"type\":\"seal\",\"step\":1", "SIG-secret"))
                .verifyComplete();
    }

    @Test
    void badInputNamesTheFieldNotTheValue() {
        assertThatThrownBy(() -> LoopEventJson.read("{\"type\":\"tool.started\",\"step\":1,\"id\":\"c\",\"name\":\"n\"}"))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("arguments");
        assertThatThrownBy(() -> LoopEventJson.read("{\"type\":\"loop.completed\",\"step\":1,\"stop_reason\":\"secret-x\","
                + "\"final_message\":{\"role\":\"assistant\",\"content\":\"\"}}"))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("stop_reason").hasMessageNotContaining("secret-x");
        assertThatThrownBy(() -> LoopEventJson.read("{\"type\":\"nope\",\"step\":1}")).isInstanceOf(ProtocolException.class);
    }
}
