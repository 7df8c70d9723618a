package dev.ruminate.core.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.loop.LoopEvent.LoopCompleted;
import dev.ruminate.core.loop.LoopEvent.StepChatEvent;
import dev.ruminate.core.loop.LoopEvent.StepCompleted;
import dev.ruminate.core.loop.LoopEvent.ToolFinished;
import dev.ruminate.core.loop.LoopEvent.ToolStarted;
import dev.ruminate.core.loop.ScriptedProvider.Turn;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ToolDefinition;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

/** The loop's ordering, bounds, stopping and error handling, against a scripted provider. */
class ToolLoopTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String SCHEMA = "{\"type\":\"object\"}";

    private static ToolDefinition def(String name) {
        return new ToolDefinition(name, "the " + name + " tool", SCHEMA);
    }

    private static ChatRequest ask() {
        return ChatRequest.builder("m").user("go").build();
    }

    private static Tool echo(String name) {
        return Tool.of(def(name), call -> Mono.just(name + ":" + call.arguments()));
    }

    private static List<LoopEvent> run(ToolLoop loop, ChatRequest request) {
        List<LoopEvent> events = loop.run(request).collectList().block(WAIT);
        assertThat(events).isNotNull();
        return events;
    }

    private static LoopCompleted last(List<LoopEvent> events) {
        assertThat(events.get(events.size() - 1)).isInstanceOf(LoopCompleted.class);
        return (LoopCompleted) events.get(events.size() - 1);
    }

    private static <T extends LoopEvent> List<T> only(List<LoopEvent> events, Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Test
    void eachStepSendsTheReducedMessageUntouchedThenTheResultsInCallOrder() {
        ScriptedProvider provider = ScriptedProvider.of(
                Turn.create().reasoning("Plan.", "sig-1").toolCall("c1", "a", "{\"x\":1}").reasoning("More.", "sig-2")
                        .toolCall("c2", "b", "{}").usage(10, 5),
                Turn.create().reasoning("Next.", "sig-3").toolCall("c3", "a", "{\"x\":2}").usage(20, 6),
                Turn.create().text("Done.").usage(30, 7));
        ToolLoop loop = ToolLoop.builder(provider).tool(echo("a")).tool(echo("b")).build();

        List<LoopEvent> events = run(loop, ask());

        List<StepCompleted> steps = only(events, StepCompleted.class);
        assertThat(steps).extracting(StepCompleted::step).containsExactly(1, 2, 3);
        AssistantMessage first = steps.get(0).message();
        assertThat(first.parts()).hasSize(4);
        assertThat(first.parts().get(0).seals().signature()).isEqualTo("sig-1");
        assertThat(provider.requests).hasSize(3);
        List<Message> second = provider.requests.get(1).messages();
        assertThat(second).containsExactly(Message.user("go"), first,
                new ToolResultMessage("c1", "a", "a:{\"x\":1}", false), new ToolResultMessage("c2", "b", "b:{}", false));
        assertThat(provider.requests.get(2).messages()).startsWith(second.toArray(Message[]::new))
                .element(4).isSameAs(steps.get(1).message());
        assertThat(provider.requests.get(0).tools()).extracting(ToolDefinition::name).containsExactly("a", "b");

        LoopCompleted done = last(events);
        assertThat(done.stopReason()).isEqualTo(StopReason.FINAL_ANSWER);
        assertThat(done.step()).isEqualTo(3);
        assertThat(done.finalMessage().text()).isEqualTo("Done.");
        assertThat(done.usage()).isEqualTo(new Usage(60L, 18L, null, null));
        assertThat(done.conversation()).hasSize(7).startsWith(provider.requests.get(2).messages().toArray(Message[]::new))
                .last().isEqualTo(done.finalMessage());
        assertThat(only(events, StepChatEvent.class)).filteredOn(e -> e.event() instanceof ResponseStarted)
                .extracting(StepChatEvent::step).containsExactly(1, 2, 3);
        // a step's events come first, then its tools, then its completion
        int firstTool = events.indexOf(only(events, ToolStarted.class).get(0));
        int firstCompletion = events.indexOf(steps.get(0));
        assertThat(events.subList(0, firstTool)).allMatch(e -> e instanceof StepChatEvent s && s.step() == 1);
        assertThat(events.subList(firstTool, firstCompletion)).hasSize(4)
                .allMatch(e -> e instanceof ToolStarted || e instanceof ToolFinished);
    }

    @Test
    void parallelCallsRunConcurrentlyAndTheirResultsGoBackInCallOrder() {
        Sinks.One<String> bDone = Sinks.one();
        // "a" answers only after "b" has answered: the step completes only if both run at once
        Tool a = Tool.of(def("a"), call -> bDone.asMono().map(x -> "A"));
        Tool b = Tool.of(def("b"), call -> Mono.fromSupplier(() -> "B").doFinally(s -> bDone.tryEmitValue("go")));
        ScriptedProvider provider = ScriptedProvider.of(
                Turn.create().toolCall("c1", "a", "{}").toolCall("c2", "b", "{}"), Turn.create().text("ok"));
        ToolLoop loop = ToolLoop.builder(provider).tool(a).tool(b)
                .options(LoopOptions.builder().toolTimeout(Duration.ofSeconds(5)).build()).build();

        List<LoopEvent> events = run(loop, ask());

        assertThat(only(events, ToolFinished.class)).extracting(f -> f.call().id()).containsExactly("c2", "c1");
        assertThat(only(events, ToolFinished.class)).allMatch(f -> f.error() == null);
        assertThat(provider.requests.get(1).messages()).extracting(m -> m instanceof ToolResultMessage r ? r.content() : "")
                .containsExactly("", "", "A", "B");
    }

    @Test
    void noMoreCallsRunAtOnceThanTheBound() throws Exception {
        Sinks.One<String> release = Sinks.one();
        List<String> started = new CopyOnWriteArrayList<>();
        // "a" and "b" hold their slots until released; "c" answers at once, if it is started
        ToolHandler handler = call -> Mono.defer(() -> {
            started.add(call.name());
            return call.name().equals("c") ? Mono.just("C") : release.asMono().map(x -> call.name());
        });
        ScriptedProvider provider = ScriptedProvider.of(
                Turn.create().toolCall("c1", "a", "{}").toolCall("c2", "b", "{}").toolCall("c3", "c", "{}"),
                Turn.create().text("ok"));
        ToolLoop loop = ToolLoop.builder(provider).tool(def("a"), handler).tool(def("b"), handler).tool(def("c"), handler)
                .options(LoopOptions.builder().maxParallelToolCalls(2).build()).build();

        // the scripted provider and the handlers run on the subscribing thread: when subscribe returns,
        // every call that the bound lets start has started
        CompletableFuture<List<LoopEvent>> run = loop.run(ask()).collectList().toFuture();
        assertThat(started).containsExactly("a", "b");
        release.tryEmitValue("go");
        List<LoopEvent> events = run.get(WAIT.toSeconds(), TimeUnit.SECONDS);

        assertThat(started).containsExactly("a", "b", "c");
        assertThat(only(events, StepCompleted.class).get(0).toolResults()).extracting(ToolResultMessage::content)
                .containsExactly("a", "b", "C");
    }

    @Test
    void theStepLimitEndsTheLoopWithTheLastCallsUnanswered() {
        AtomicInteger calls = new AtomicInteger();
        ScriptedProvider provider = ScriptedProvider.of(Turn.create().toolCall("c", "a", "{}"));
        ToolLoop loop = ToolLoop.builder(provider)
                .tool(def("a"), call -> Mono.fromSupplier(() -> "n" + calls.incrementAndGet()))
                .options(LoopOptions.builder().maxSteps(3).build()).build();

        List<LoopEvent> events = run(loop, ask());

        LoopCompleted done = last(events);
        assertThat(done.stopReason()).isEqualTo(StopReason.STEP_LIMIT);
        assertThat(done.step()).isEqualTo(3);
        assertThat(provider.requests).hasSize(3);
        assertThat(calls).hasValue(2);
        assertThat(done.conversation()).hasSize(6).last().isInstanceOf(AssistantMessage.class);
        assertThat(only(events, StepCompleted.class).get(2).toolResults()).isEmpty();
    }

    @Test
    void aStopPredicateEndsTheLoopAfterTheStepsTools() {
        ScriptedProvider provider = ScriptedProvider.of(Turn.create().toolCall("c", "a", "{}"));
        ToolLoop loop = ToolLoop.builder(provider).tool(echo("a"))
                .options(LoopOptions.builder().stopWhen(step -> step.step() == 2).build()).build();

        LoopCompleted done = last(run(loop, ask()));

        assertThat(done.stopReason()).isEqualTo(StopReason.STOP_PREDICATE);
        assertThat(done.step()).isEqualTo(2);
        assertThat(done.conversation()).hasSize(5).last().isInstanceOf(ToolResultMessage.class);
    }

    @Test
    void aStoppingToolEndsTheLoopAfterItRan() {
        ScriptedProvider provider = ScriptedProvider.of(Turn.create().toolCall("c1", "a", "{}").toolCall("c2", "finish", "{}"));
        ToolLoop loop = ToolLoop.builder(provider).tool(echo("a")).tool(echo("finish").endingLoop()).build();

        LoopCompleted done = last(run(loop, ask()));

        assertThat(done.stopReason()).isEqualTo(StopReason.STOPPING_TOOL);
        assertThat(provider.requests).hasSize(1);
        assertThat(done.conversation()).extracting(m -> m instanceof ToolResultMessage r ? r.content() : "")
                .containsExactly("", "", "a:{}", "finish:{}");
    }

    @Test
    void toolErrorsGoBackToTheModelWithTheReason() {
        ScriptedProvider provider = ScriptedProvider.of(
                Turn.create().toolCall("c1", "fails", "{}").toolCall("c3", "nosuch", "{}")
                        .toolCall("c4", "fails", "{\"broken\":").toolCall("c5", "big", "{}").toolCall("c6", "empty", "{}"),
                Turn.create().text("recovered"));
        // No timeout can fire here: the blocking tool waits for a worker thread, which on a loaded machine can take
        // longer than any short timeout. Timeouts have their own test below.
        ToolLoop loop = ToolLoop.builder(provider)
                .tool(def("fails"), call -> Mono.error(new IllegalStateException("disk full")))
                .blockingTool(def("big"), call -> "x".repeat(50))
                .tool(def("empty"), call -> Mono.empty())
                .options(LoopOptions.builder().toolTimeout(Duration.ofMinutes(5)).maxResultChars(20).build()).build();

        List<LoopEvent> events = run(loop, ask());

        assertThat(last(events).finalMessage().text()).isEqualTo("recovered");
        List<ToolResultMessage> results = only(events, StepCompleted.class).get(0).toolResults();
        assertThat(results).extracting(ToolResultMessage::toolCallId).containsExactly("c1", "c3", "c4", "c5", "c6");
        assertThat(results).extracting(ToolResultMessage::error).containsExactly(true, true, true, false, true);
        assertThat(results.get(0).content()).contains("disk full");
        assertThat(results.get(1).content()).contains("no tool named \"nosuch\"").contains("fails, big, empty");
        assertThat(results.get(2).content()).contains("not valid JSON");
        assertThat(results.get(3).content()).startsWith("x".repeat(20) + "\n[truncated").contains("50 characters");
        assertThat(results.get(4).content()).contains("without a result");
        assertThat(only(events, ToolFinished.class)).filteredOn(f -> f.error() != null)
                .extracting(f -> f.error().kind()).containsExactlyInAnyOrder(ToolError.Kind.HANDLER_FAILED,
                        ToolError.Kind.UNKNOWN_TOOL, ToolError.Kind.INVALID_ARGUMENTS, ToolError.Kind.HANDLER_FAILED);
        assertThat(only(events, ToolFinished.class)).filteredOn(ToolFinished::truncated).hasSize(1);
        assertThat(provider.requests.get(1).messages()).containsAll(results);
    }

    @Test
    void aToolThatNeverAnswersTimesOutAndTheModelHearsWhy() {
        ScriptedProvider provider = ScriptedProvider.of(
                Turn.create().toolCall("c1", "silent", "{}"), Turn.create().text("recovered"));
        ToolLoop loop = ToolLoop.builder(provider)
                .tool(def("silent"), call -> Mono.never())
                .options(LoopOptions.builder().toolTimeout(Duration.ofMillis(200)).build()).build();

        List<LoopEvent> events = run(loop, ask());

        assertThat(last(events).finalMessage().text()).isEqualTo("recovered");
        ToolResultMessage result = only(events, StepCompleted.class).get(0).toolResults().get(0);
        assertThat(result.error()).isTrue();
        assertThat(result.content()).contains("did not answer within PT0.2S");
        assertThat(only(events, ToolFinished.class)).singleElement()
                .satisfies(f -> assertThat(f.error().kind()).isEqualTo(ToolError.Kind.TIMED_OUT));
    }

    @Test
    void underFailLoopAToolErrorFailsTheLoopAndCancelsTheOtherCalls() {
        AtomicBoolean cancelled = new AtomicBoolean();
        ScriptedProvider provider = ScriptedProvider.of(
                Turn.create().toolCall("c1", "slow", "{}").toolCall("c2", "nosuch", "{}"), Turn.create().text("never"));
        ToolLoop loop = ToolLoop.builder(provider)
                .tool(def("slow"), call -> Mono.<String>never().doOnCancel(() -> cancelled.set(true)))
                .options(LoopOptions.builder().errorPolicy(ToolErrorPolicy.FAIL_LOOP).build()).build();

        StepVerifier.create(loop.run(ask()))
                .thenConsumeWhile(e -> !(e instanceof ToolFinished))
                .assertNext(e -> assertThat(((ToolFinished) e).error().kind()).isEqualTo(ToolError.Kind.UNKNOWN_TOOL))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ToolLoopException.class)
                        .hasMessageContaining("no tool named \"nosuch\"")
                        .extracting(x -> ((ToolLoopException) x).reason()).isEqualTo(ToolLoopException.Reason.TOOL_FAILED))
                .verify(WAIT);
        assertThat(cancelled).isTrue();
        assertThat(provider.requests).hasSize(1);
    }

    @Test
    void aProviderErrorEndsTheLoopWithThatErrorAndThePartialMessage() {
        ProviderStreamException failure = new ProviderStreamException("scripted", new ProviderError("overloaded_error", null, "Overloaded", null));
        List<ChatEvent> second = List.of(new ResponseStarted("scripted", "m", null), new ContentDelta(0, "half"));
        ScriptedProvider provider = new ScriptedProvider(List.of(
                () -> Flux.fromIterable(Turn.create().toolCall("c1", "a", "{}").events()),
                () -> Flux.fromIterable(second).concatWith(Flux.error(failure))));
        ToolLoop loop = ToolLoop.builder(provider).tool(echo("a")).build();

        StepVerifier.create(loop.run(ask()))
                .thenConsumeWhile(e -> true)
                .expectErrorSatisfies(e -> {
                    assertThat(e).isSameAs(failure);
                    assertThat(failure.partial()).isNotNull();
                    assertThat(failure.partial().text()).isEqualTo("half");
                })
                .verify(WAIT);
    }

    @Test
    void cancellingTheLoopCancelsTheRunningTools() {
        Sinks.One<ToolCall> running = Sinks.one();
        AtomicBoolean cancelled = new AtomicBoolean();
        ScriptedProvider provider = ScriptedProvider.of(Turn.create().toolCall("c1", "slow", "{}"));
        ToolLoop loop = ToolLoop.builder(provider)
                .tool(def("slow"), call -> Mono.<String>never()
                        .doOnSubscribe(s -> running.tryEmitValue(call))
                        .doOnCancel(() -> cancelled.set(true)))
                .build();

        Disposable subscription = loop.run(ask()).subscribe();
        assertThat(running.asMono().block(WAIT)).isNotNull();
        subscription.dispose();

        assertThat(cancelled).isTrue();
    }

    @Test
    void cancellingTheLoopCancelsTheProviderStreamOfTheStepInFlight() {
        Sinks.One<ChatEvent> secondStepStarted = Sinks.one();
        AtomicBoolean cancelled = new AtomicBoolean();
        ScriptedProvider provider = new ScriptedProvider(List.of(
                () -> Flux.fromIterable(Turn.create().toolCall("c1", "a", "{}").events()),
                () -> Flux.<ChatEvent>just(new ResponseStarted("scripted", "m", null)).concatWith(Flux.never())
                        .doOnCancel(() -> cancelled.set(true))));
        ToolLoop loop = ToolLoop.builder(provider).tool(echo("a")).build();

        Disposable subscription = loop.run(ask())
                .subscribe(e -> {
                    if (e instanceof StepChatEvent s && s.step() == 2) {
                        secondStepStarted.tryEmitValue(s.event());
                    }
                });
        assertThat(secondStepStarted.asMono().block(WAIT)).isInstanceOf(ResponseStarted.class);
        subscription.dispose();

        assertThat(cancelled).isTrue();
    }

    @Test
    void theLoopTimeoutFailsTheLoop() {
        ScriptedProvider provider = ScriptedProvider.of(Turn.create().toolCall("c1", "slow", "{}"));
        ToolLoop loop = ToolLoop.builder(provider).tool(def("slow"), call -> Mono.never())
                .options(LoopOptions.builder().loopTimeout(Duration.ofMillis(300)).build()).build();

        StepVerifier.create(loop.run(ask()))
                .thenConsumeWhile(e -> true)
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ToolLoopException.class)
                        .extracting(x -> ((ToolLoopException) x).reason()).isEqualTo(ToolLoopException.Reason.LOOP_TIMEOUT))
                .verify(WAIT);
    }

    @Test
    void aConversationEndingWithUnansweredCallsRunsThemFirstInCallOrder() {
        AssistantMessage pending = new AssistantMessage(List.of(
                new ToolCallPart("c1", "a", "{\"n\":1}", true, Seals.NONE),
                new ToolCallPart("c2", "a", "{\"n\":2}", true, Seals.NONE),
                new ToolCallPart("c3", "a", "{\"n\":3}", true, Seals.NONE)), "scripted", "m", FinishReason.TOOL_CALLS, null, Usage.UNKNOWN);
        ToolResultMessage given = new ToolResultMessage("c2", "a", "given", false);
        ChatRequest request = ChatRequest.builder("m").user("go").message(pending).message(given).build();
        ScriptedProvider provider = ScriptedProvider.of(Turn.create().text("done"));
        ToolLoop loop = ToolLoop.builder(provider).tool(echo("a")).build();

        List<LoopEvent> events = run(loop, request);

        assertThat(only(events, ToolStarted.class)).extracting(s -> s.call().id()).containsExactlyInAnyOrder("c1", "c3");
        assertThat(only(events, ToolStarted.class)).allMatch(s -> s.step() == 0);
        assertThat(only(events, ToolStarted.class)).extracting(s -> s.call().index()).containsExactlyInAnyOrder(0, 2);
        assertThat(provider.requests.get(0).messages()).containsExactly(Message.user("go"), pending,
                new ToolResultMessage("c1", "a", "a:{\"n\":1}", false), given,
                new ToolResultMessage("c3", "a", "a:{\"n\":3}", false));
        assertThat(last(events).finalMessage().text()).isEqualTo("done");
    }

    @Test
    void callsWithoutIdsAreAnsweredOneResultEachWhenALoopRestarts() {
        // Gemini gives no call ids: a result quotes the tool name, so two calls of one tool share it
        AssistantMessage pending = new AssistantMessage(List.of(
                new ToolCallPart(null, "a", "{\"n\":1}", true, Seals.NONE),
                new ToolCallPart(null, "a", "{\"n\":2}", true, Seals.NONE)), "scripted", "m", FinishReason.TOOL_CALLS, null, Usage.UNKNOWN);
        ToolResultMessage given = new ToolResultMessage("a", "a", "first", false);
        ScriptedProvider provider = ScriptedProvider.of(Turn.create().text("done"));
        ToolLoop loop = ToolLoop.builder(provider).tool(echo("a")).build();

        List<LoopEvent> events = run(loop, ChatRequest.builder("m").user("go").message(pending).message(given).build());

        assertThat(only(events, ToolStarted.class)).extracting(s -> s.call().arguments()).containsExactly("{\"n\":2}");
        assertThat(provider.requests.get(0).messages()).containsExactly(Message.user("go"), pending, given,
                new ToolResultMessage("a", "a", "a:{\"n\":2}", false));
    }

    @Test
    void stepsStreamUnlessToldToMakeNonStreamingCalls() {
        ScriptedProvider first = ScriptedProvider.of(Turn.create().toolCall("c1", "a", "{}"), Turn.create().text("done"));
        ScriptedProvider second = ScriptedProvider.of(Turn.create().toolCall("c1", "a", "{}"), Turn.create().text("done"));
        ToolLoop streaming = ToolLoop.builder(first).tool(echo("a")).build();
        ToolLoop whole = ToolLoop.builder(second).tool(echo("a"))
                .options(LoopOptions.builder().streaming(false).build()).build();

        assertThat(last(run(streaming, ask())).finalMessage().text()).isEqualTo("done");
        assertThat(last(run(whole, ask())).finalMessage().text()).isEqualTo("done");

        assertThat(first.streamed).containsExactly(true, true);
        assertThat(second.streamed).containsExactly(false, false);
    }

    @Test
    void optionsRejectBoundsThatAreNotPositive() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LoopOptions.builder().maxSteps(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxSteps");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LoopOptions.builder().toolTimeout(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("toolTimeout");
        assertThat(LoopOptions.DEFAULTS.maxSteps()).isEqualTo(10);
    }
}
