package dev.ruminate.core.think;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

class ThinkTagsTest {

    private static final ResponseCompleted DONE = new ResponseCompleted(FinishReason.STOP, "stop");

    private static ContentDelta text(int part, String text) {
        return new ContentDelta(part, text);
    }

    private static ReasoningDelta tags(int part, String text) {
        return new ReasoningDelta(part, text, false, "tags");
    }

    private static Flux<ChatEvent> split(ChatEvent... events) {
        return Flux.just(events).transform(ThinkTags.splitter());
    }

    @Test
    void splitsARecordedShapeAndEndsTheReasoningPartBeforeTheAnswer() {
        ResponseStarted started = new ResponseStarted("groq", "deepseek-r1-distill-llama-70b", "chatcmpl-1");
        UsageUpdate usage = new UsageUpdate(new Usage(12L, 34L, null, null));
        StepVerifier.create(split(started, text(0, ""), text(0, "<think>"), text(0, "\n"), text(0, "Okay"),
                        text(0, "</think>"), text(0, "\n\n"), text(0, "Answer"), usage, DONE))
                .expectNext(started)
                .expectNext(tags(0, "\n"), tags(0, "Okay"))
                .expectNext(new PartEnded(0))
                .expectNext(text(1, "\n\n"), text(1, "Answer"))
                .expectNext(usage, DONE)
                .verifyComplete();
    }

    @Test
    void renumbersPartsAroundToolCallsAndSeals() {
        ReasoningDelta field = new ReasoningDelta(0, "field", false, "reasoning_content");
        Seal signature = new Seal(0, Seal.Kind.SIGNATURE, "sig");
        StepVerifier.create(split(
                        field,
                        signature,
                        new PartEnded(0),
                        text(1, "<think>a</think>b"),
                        new ToolCallDelta(2, 0, "call_1", "weather", "{"),
                        text(1, "<think>c"),
                        new ToolCallDelta(2, 0, null, null, "}"),
                        new PartEnded(2),
                        text(1, "</think>d"),
                        new PartEnded(1),
                        DONE))
                .expectNext(field, signature, new PartEnded(0))
                .expectNext(tags(1, "a"), new PartEnded(1), text(2, "b"))
                .expectNext(new ToolCallDelta(3, 0, "call_1", "weather", "{"))
                .expectNext(new PartEnded(2), tags(4, "c"))
                .expectNext(new ToolCallDelta(3, 0, null, null, "}"), new PartEnded(3))
                .expectNext(new PartEnded(4), text(5, "d"))
                .expectNext(new PartEnded(5), DONE)
                .verifyComplete();
    }

    @Test
    void keepsTheMappingOfAPartForEventsAfterItsEnd() {
        StepVerifier.create(split(
                        text(0, "<think>x</think>y"),
                        new ReasoningDelta(1, "summary", true, "reasoning_summary"),
                        new PartEnded(1),
                        new ReasoningFinal(1, "summary"),
                        DONE))
                .expectNext(tags(0, "x"), new PartEnded(0), text(1, "y"))
                .expectNext(new ReasoningDelta(2, "summary", true, "reasoning_summary"), new PartEnded(2))
                .expectNext(new ReasoningFinal(2, "summary"), DONE)
                .verifyComplete();
    }

    @Test
    void putsASealOnTheContentPartItNames() {
        Seal seal = new Seal(0, Seal.Kind.SIGNATURE, "s");
        StepVerifier.create(split(seal, text(0, "hi"), new Seal(0, Seal.Kind.SIGNATURE, "t"), DONE))
                .expectNext(seal, text(0, "hi"), new Seal(0, Seal.Kind.SIGNATURE, "t"), DONE)
                .verifyComplete();
    }

    @Test
    void passesEventsThatNeedNoChangeThroughAsTheSameObjects() {
        ContentDelta answer = text(1, "plain answer");
        ReasoningDelta field = new ReasoningDelta(0, "thinking", false, "reasoning");
        List<ChatEvent> out = split(field, new PartEnded(0), answer, DONE).collectList().block();
        assertThat(out).hasSize(4);
        assertThat(out.get(0)).isSameAs(field);
        assertThat(out.get(2)).isSameAs(answer);
    }

    @Test
    void dropsEmptyContentAndTheEndOfAPartThatProducedNothing() {
        ToolCallDelta call = new ToolCallDelta(1, 0, "call_1", "f", "{}");
        StepVerifier.create(split(text(0, ""), new PartEnded(0), call, DONE))
                .expectNext(new ToolCallDelta(0, 0, "call_1", "f", "{}"), DONE)
                .verifyComplete();
    }

    @Test
    void endsATagReasoningPartThatTheUpstreamEnds() {
        StepVerifier.create(split(text(0, "<think>"), text(0, "x"), new PartEnded(0), DONE))
                .expectNext(tags(0, "x"), new PartEnded(0), DONE)
                .verifyComplete();
    }

    @Test
    void flushesHeldBackTextBeforeResponseCompleted() {
        StepVerifier.create(split(text(0, "x <thi"), DONE))
                .expectNext(text(0, "x "), text(0, "<thi"), DONE)
                .verifyComplete();
    }

    @Test
    void flushesHeldBackTextWhenTheUpstreamCompletesWithoutResponseCompleted() {
        StepVerifier.create(split(text(0, "<think>abc</thi")))
                .expectNext(tags(0, "abc"), tags(0, "</thi"))
                .verifyComplete();
    }

    @Test
    void flushesHeldBackTextBeforeTheUpstreamPartEnds() {
        ToolCallDelta call = new ToolCallDelta(1, 0, "call_1", "f", "{}");
        StepVerifier.create(split(text(0, "a<th"), new PartEnded(0), call))
                .expectNext(text(0, "a"), text(0, "<th"), new PartEnded(0), call)
                .verifyComplete();
    }

    @Test
    void carriesTheModeOverToTheNextContentPartAndFlushesTheFirst() {
        StepVerifier.create(split(text(0, "<think>x</th"), text(3, "ink>y"), new PartEnded(3), DONE))
                .expectNext(tags(0, "x"), tags(0, "</th"))
                .expectNext(tags(1, "ink>y"), new PartEnded(1), DONE)
                .verifyComplete();
    }

    @Test
    void emitsHeldBackTextBeforeAnUpstreamError() {
        IllegalStateException failure = new IllegalStateException("connection reset");
        Flux<ChatEvent> upstream = Flux.concat(Flux.just(text(0, "<think>r</think>ok <th")), Flux.error(failure));
        StepVerifier.create(upstream.transform(ThinkTags.splitter()))
                .expectNext(tags(0, "r"), new PartEnded(0), text(1, "ok "), text(1, "<th"))
                .verifyErrorSatisfies(error -> assertThat(error).isSameAs(failure));
    }

    @Test
    void startsInsideForTemplatesThatOpenTheBlock() {
        StepVerifier.create(Flux.<ChatEvent>just(text(0, "reason"), text(0, "</think>"), text(0, "answer"), DONE)
                        .transform(ThinkTags.splitter(ThinkTagOptions.startingInside())))
                .expectNext(tags(0, "reason"), new PartEnded(0), text(1, "answer"), DONE)
                .verifyComplete();
    }

    @Test
    void handlesTwoThinkBlocksAsFourParts() {
        List<ChatEvent> out = split(text(0, "<think>one</think>first<think>two</think>second"), DONE)
                .collectList().block();
        assertThat(SplitOutput.parts(out)).containsExactly(
                SplitOutput.OutPart.reasoning("one"), SplitOutput.OutPart.text("first"),
                SplitOutput.OutPart.reasoning("two"), SplitOutput.OutPart.text("second"));
        assertThat(out).filteredOn(PartEnded.class::isInstance)
                .containsExactly(new PartEnded(0), new PartEnded(1), new PartEnded(2));
    }

    @Test
    void honoursBackpressureOneEventAtATime() {
        StepVerifier.create(split(text(0, "a<think>b</think>c"), DONE), 0)
                .thenRequest(1)
                .expectNext(text(0, "a"))
                .thenRequest(1)
                .expectNext(new PartEnded(0))
                .thenRequest(1)
                .expectNext(tags(1, "b"))
                .thenRequest(2)
                .expectNext(new PartEnded(1), text(2, "c"))
                .thenRequest(1)
                .expectNext(DONE)
                .verifyComplete();
    }

    @Test
    void deliversNoMoreThanRequested() {
        List<ChatEvent> received = new ArrayList<>();
        BaseSubscriber<ChatEvent> subscriber = new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(org.reactivestreams.Subscription subscription) {
                // request nothing yet
            }

            @Override
            protected void hookOnNext(ChatEvent value) {
                received.add(value);
            }
        };
        split(text(0, "a<think>b</think>c"), text(0, "<think>d"), DONE).subscribe(subscriber);
        assertThat(received).isEmpty();
        for (int expected = 1; expected <= 8; expected++) {
            subscriber.request(1);
            assertThat(received).hasSize(expected);
        }
        assertThat(received).last().isEqualTo(DONE);
    }

    @Test
    void cancelsUpstreamAndStopsEmitting() {
        AtomicBoolean cancelled = new AtomicBoolean();
        Sinks.Many<ChatEvent> upstream = Sinks.many().unicast().onBackpressureBuffer();
        Flux<ChatEvent> flux = upstream.asFlux().doOnCancel(() -> cancelled.set(true)).transform(ThinkTags.splitter());
        StepVerifier.create(flux)
                .then(() -> upstream.tryEmitNext(text(0, "<think>abc</th")))
                .expectNext(tags(0, "abc"))
                .thenCancel()
                .verify();
        assertThat(cancelled).isTrue();
    }

    @Test
    void givesEachSubscriptionItsOwnState() {
        AtomicInteger subscriptions = new AtomicInteger();
        Flux<ChatEvent> flux = Flux.<ChatEvent>just(text(0, "<think>r"), text(0, "</think>a"), DONE)
                .doOnSubscribe(s -> subscriptions.incrementAndGet())
                .transform(ThinkTags.splitter());
        List<ChatEvent> first = flux.collectList().block();
        List<ChatEvent> second = flux.collectList().block();
        assertThat(subscriptions).hasValue(2);
        assertThat(second).isEqualTo(first)
                .containsExactly(tags(0, "r"), new PartEnded(0), text(1, "a"), DONE);
    }

    @Test
    void usesConfiguredTags() {
        Function<Flux<ChatEvent>, Flux<ChatEvent>> splitter =
                ThinkTags.splitter(new ThinkTagOptions("<reasoning>", "</reasoning>", false));
        StepVerifier.create(Flux.<ChatEvent>just(text(0, "<think>no</think><reasoning>yes</reasoning>"))
                        .transform(splitter))
                .expectNext(text(0, "<think>no</think>"), new PartEnded(0), tags(1, "yes"))
                .verifyComplete();
    }

    @Test
    void rejectsNullOptions() {
        assertThatThrownBy(() -> ThinkTags.splitter(null)).isInstanceOf(NullPointerException.class);
    }
}
