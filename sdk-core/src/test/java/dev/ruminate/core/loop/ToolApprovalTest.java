package dev.ruminate.core.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.loop.LoopEvent.ApprovalRequested;
import dev.ruminate.core.loop.LoopEvent.ApprovalResolved;
import dev.ruminate.core.loop.LoopEvent.LoopCompleted;
import dev.ruminate.core.loop.LoopEvent.StepChatEvent;
import dev.ruminate.core.loop.LoopEvent.StepCompleted;
import dev.ruminate.core.loop.LoopEvent.ToolFinished;
import dev.ruminate.core.loop.LoopEvent.ToolStarted;
import dev.ruminate.core.loop.ScriptedProvider.Turn;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ToolDefinition;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

/** Tools that require approval: the loop asks, waits, and runs or answers with the denial. */
class ToolApprovalTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private static ToolDefinition def(String name) {
        return new ToolDefinition(name, "the " + name + " tool", "{\"type\":\"object\"}");
    }

    private static ChatRequest ask() {
        return ChatRequest.builder("m").user("go").build();
    }

    /** A tool requiring approval that counts its runs. */
    private static Tool guarded(String name, AtomicInteger runs) {
        return Tool.of(def(name), call -> Mono.fromSupplier(() -> {
            runs.incrementAndGet();
            return name + " done";
        })).requiringApproval();
    }

    private static List<Message> resultsOf(ChatRequest request) {
        return request.messages().stream().filter(m -> m instanceof ToolResultMessage).toList();
    }

    @Test
    void anApprovedCallRunsAfterTheRequestAndTheDecision() {
        AtomicInteger runs = new AtomicInteger();
        ScriptedProvider provider = ScriptedProvider.of(Turn.create().toolCall("c1", "rm", "{\"path\":\"/tmp/x\"}"),
                Turn.create().text("removed"));
        ToolLoop loop = ToolLoop.builder(provider).tool(guarded("rm", runs))
                .approvalHandler(call -> Mono.just(call.arguments().contains("/tmp/") ? Approval.approve() : Approval.deny("no")))
                .build();

        StepVerifier.create(loop.run(ask()))
                .thenConsumeWhile(e -> e instanceof StepChatEvent)
                .assertNext(e -> assertThat(((ApprovalRequested) e).call().id()).isEqualTo("c1"))
                .assertNext(e -> assertThat(((ApprovalResolved) e).approved()).isTrue())
                .assertNext(e -> assertThat(e).isInstanceOf(ToolStarted.class))
                .assertNext(e -> assertThat(((ToolFinished) e).result().content()).isEqualTo("rm done"))
                .assertNext(e -> assertThat(e).isInstanceOf(StepCompleted.class))
                .thenConsumeWhile(e -> !(e instanceof LoopCompleted))
                .assertNext(e -> assertThat(((LoopCompleted) e).finalMessage().text()).isEqualTo("removed"))
                .expectComplete().verify(WAIT);
        assertThat(runs).hasValue(1);
        assertThat(resultsOf(provider.requests.get(1))).containsExactly(new ToolResultMessage("c1", "rm", "rm done", false));
    }

    @Test
    void aDenialGoesBackToTheModelWithItsReasonEvenUnderFailLoop() {
        AtomicInteger runs = new AtomicInteger();
        ScriptedProvider provider = ScriptedProvider.of(Turn.create().toolCall("c1", "rm", "{}"), Turn.create().text("ok, I won't"));
        ToolLoop loop = ToolLoop.builder(provider).tool(guarded("rm", runs))
                .approvalHandler(call -> Mono.just(Approval.deny("deleting files needs a ticket")))
                .options(LoopOptions.builder().errorPolicy(ToolErrorPolicy.FAIL_LOOP).build())
                .build();

        List<LoopEvent> events = loop.run(ask()).collectList().block(WAIT);

        assertThat(runs).hasValue(0);
        assertThat(events).filteredOn(e -> e instanceof ApprovalResolved).singleElement()
                .satisfies(e -> assertThat(((ApprovalResolved) e).approval()).isEqualTo(Approval.deny("deleting files needs a ticket")));
        assertThat(events).filteredOn(e -> e instanceof ToolFinished).singleElement()
                .satisfies(e -> assertThat(((ToolFinished) e).error().kind()).isEqualTo(ToolError.Kind.DENIED));
        List<Message> sent = resultsOf(provider.requests.get(1));
        assertThat(sent).singleElement().satisfies(m -> {
            ToolResultMessage r = (ToolResultMessage) m;
            assertThat(r.toolCallId()).isEqualTo("c1");
            assertThat(r.error()).isTrue();
            assertThat(r.content()).contains("not approved").contains("deleting files needs a ticket");
        });
        assertThat(((LoopCompleted) events.get(events.size() - 1)).finalMessage().text()).isEqualTo("ok, I won't");
    }

    @Test
    void aHandlerThatFailsOrGivesNoDecisionCountsAsADenial() {
        AtomicInteger runs = new AtomicInteger();
        ScriptedProvider provider = ScriptedProvider.of(
                Turn.create().toolCall("c1", "rm", "{}").toolCall("c2", "rm", "{}"), Turn.create().text("ok"));
        ToolLoop loop = ToolLoop.builder(provider).tool(guarded("rm", runs))
                .approvalHandler(call -> call.id().equals("c1") ? Mono.error(new IllegalStateException("queue down")) : Mono.empty())
                .build();

        loop.run(ask()).blockLast(WAIT);

        assertThat(runs).hasValue(0);
        assertThat(resultsOf(provider.requests.get(1))).extracting(m -> ((ToolResultMessage) m).content())
                .satisfiesExactly(c -> assertThat(c).contains("queue down"), c -> assertThat(c).contains("no decision"));
    }

    @Test
    void aCallAwaitingApprovalDoesNotHoldBackTheOtherCallsNorASlot() {
        AtomicInteger runs = new AtomicInteger();
        Sinks.One<Approval> decision = Sinks.one();
        ScriptedProvider provider = ScriptedProvider.of(
                Turn.create().toolCall("c1", "rm", "{}").toolCall("c2", "ls", "{}"), Turn.create().text("ok"));
        // one slot: if the call awaiting the human held it, "ls" could not run before the decision
        ToolLoop loop = ToolLoop.builder(provider).tool(guarded("rm", runs))
                .tool(def("ls"), call -> Mono.just("a b c"))
                .approvalHandler(call -> decision.asMono())
                .options(LoopOptions.builder().maxParallelToolCalls(1).build())
                .build();

        StepVerifier.create(loop.run(ask()))
                .thenConsumeWhile(e -> e instanceof StepChatEvent)
                .assertNext(e -> assertThat(((ApprovalRequested) e).call().id()).isEqualTo("c1"))
                .assertNext(e -> assertThat(((ToolStarted) e).call().id()).isEqualTo("c2"))
                .assertNext(e -> assertThat(((ToolFinished) e).result().content()).isEqualTo("a b c"))
                .then(() -> assertThat(runs).hasValue(0))
                .then(() -> decision.tryEmitValue(Approval.approve()))
                .assertNext(e -> assertThat(((ApprovalResolved) e).call().id()).isEqualTo("c1"))
                .assertNext(e -> assertThat(((ToolStarted) e).call().id()).isEqualTo("c1"))
                .assertNext(e -> assertThat(((ToolFinished) e).result().content()).isEqualTo("rm done"))
                .assertNext(e -> assertThat(((StepCompleted) e).toolResults()).extracting(ToolResultMessage::toolCallId)
                        .containsExactly("c1", "c2"))
                .thenConsumeWhile(e -> !(e instanceof LoopCompleted))
                .expectNextCount(1)
                .expectComplete().verify(WAIT);
    }

    @Test
    void cancellingTheLoopCancelsTheWaitForApproval() {
        AtomicInteger runs = new AtomicInteger();
        AtomicBoolean cancelled = new AtomicBoolean();
        Sinks.One<ToolCall> asked = Sinks.one();
        List<LoopEvent> events = new CopyOnWriteArrayList<>();
        ScriptedProvider provider = ScriptedProvider.of(Turn.create().toolCall("c1", "rm", "{}"));
        ToolLoop loop = ToolLoop.builder(provider).tool(guarded("rm", runs))
                .approvalHandler(call -> Mono.<Approval>never()
                        .doOnSubscribe(s -> asked.tryEmitValue(call))
                        .doOnCancel(() -> cancelled.set(true)))
                .build();

        Disposable subscription = loop.run(ask()).subscribe(events::add);
        assertThat(asked.asMono().block(WAIT)).isNotNull();
        subscription.dispose();

        assertThat(cancelled).isTrue();
        assertThat(runs).hasValue(0);
        assertThat(events.get(events.size() - 1)).isInstanceOf(ApprovalRequested.class);
    }

    @Test
    void theLoopTimeoutNotTheToolTimeoutBoundsTheWaitForApproval() {
        AtomicBoolean cancelled = new AtomicBoolean();
        ScriptedProvider provider = ScriptedProvider.of(Turn.create().toolCall("c1", "rm", "{}"));
        ToolLoop loop = ToolLoop.builder(provider).tool(guarded("rm", new AtomicInteger()))
                .approvalHandler(call -> Mono.<Approval>never().doOnCancel(() -> cancelled.set(true)))
                .options(LoopOptions.builder().toolTimeout(Duration.ofMillis(50)).loopTimeout(Duration.ofMillis(400)).build())
                .build();

        // were the tool timeout applied to the wait, a ToolFinished (TIMED_OUT) would come before the error
        StepVerifier.create(loop.run(ask()))
                .thenConsumeWhile(e -> e instanceof StepChatEvent)
                .assertNext(e -> assertThat(e).isInstanceOf(ApprovalRequested.class))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ToolLoopException.class)
                        .extracting(x -> ((ToolLoopException) x).reason()).isEqualTo(ToolLoopException.Reason.LOOP_TIMEOUT))
                .verify(WAIT);
        assertThat(cancelled).isTrue();
    }

    @Test
    void aToolRequiringApprovalWithoutAHandlerFailsTheBuild() {
        ToolLoop.Builder builder = ToolLoop.builder(ScriptedProvider.of(Turn.create().text("x")))
                .tool(Tool.of(def("ls"), call -> Mono.just("")))
                .tool(guarded("rm", new AtomicInteger()));

        assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("[rm] require approval").hasMessageContaining("approvalHandler");
    }
}
