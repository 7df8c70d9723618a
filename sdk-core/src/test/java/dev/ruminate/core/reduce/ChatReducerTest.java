package dev.ruminate.core.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ReasoningMismatchException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.ToolArgumentsException;
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
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import reactor.test.publisher.TestPublisher;

class ChatReducerTest {

    private static final ResponseStarted START = new ResponseStarted("test", "m-1", "resp-1");
    private static final ResponseCompleted DONE = new ResponseCompleted(FinishReason.STOP, "stop");

    private static ChatResult reduce(ChatReducer reducer, ChatEvent... events) {
        return reducer.reduce(Flux.fromArray(events)).block();
    }

    @Test
    void interleavedPartsKeepProviderOrder() {
        ChatResult result = reduce(ChatReducer.defaults(),
                START,
                new ReasoningDelta(0, "Need the ", false, "thinking"),
                new ReasoningDelta(0, "weather.", false, "thinking"),
                new Seal(0, Seal.Kind.SIGNATURE, "sig-A"),
                new PartEnded(0),
                new ToolCallDelta(1, 0, "call_1", "weather", "{\"city\":"),
                new ToolCallDelta(1, 0, null, null, "\"Paris\"}"),
                new PartEnded(1),
                new ReasoningDelta(2, "Now answer.", false, "thinking"),
                new ContentDelta(3, "It is "),
                new ContentDelta(3, "sunny."),
                new UsageUpdate(new Usage(10L, 20L, 5L, null)),
                new ResponseCompleted(FinishReason.TOOL_CALLS, "tool_use"));

        AssistantMessage m = result.message();
        assertThat(m.parts()).hasSize(4);
        assertThat(m.parts().get(0)).isInstanceOfSatisfying(ReasoningPart.class, r -> {
            assertThat(r.text()).isEqualTo("Need the weather.");
            assertThat(r.source()).isEqualTo("thinking");
            assertThat(r.seals().signature()).isEqualTo("sig-A");
        });
        assertThat(m.parts().get(1)).isInstanceOfSatisfying(ToolCallPart.class, t -> {
            assertThat(t.id()).isEqualTo("call_1");
            assertThat(t.name()).isEqualTo("weather");
            assertThat(t.arguments()).isEqualTo("{\"city\":\"Paris\"}");
            assertThat(t.argumentsValid()).isTrue();
        });
        assertThat(m.parts().get(2)).isInstanceOfSatisfying(ReasoningPart.class,
                r -> assertThat(r.text()).isEqualTo("Now answer."));
        assertThat(m.parts().get(3)).isEqualTo(TextPart.of("It is sunny."));
        assertThat(m.text()).isEqualTo("It is sunny.");
        assertThat(m.reasoning()).isEqualTo("Need the weather.Now answer.");
        assertThat(m.provider()).isEqualTo("test");
        assertThat(m.model()).isEqualTo("m-1");
        assertThat(m.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(m.rawFinishReason()).isEqualTo("tool_use");
        assertThat(m.usage()).isEqualTo(new Usage(10L, 20L, 5L, null));
        assertThat(result.reasoningCheck()).isEqualTo(ReasoningCheck.UNAVAILABLE);
    }

    @Test
    void serverToolBlocksBecomeTheirOwnPartsInPlaceWithTheirSeals() {
        String call = "{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{\"query\":\"x\"}}";
        String result = "{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_1\",\"content\":[]}";
        ChatResult reduced = reduce(ChatReducer.defaults(), START,
                new ReasoningDelta(0, "Search first.", false, "thinking"),
                new PartEnded(0),
                new ServerToolBlock(1, "server_tool_use", "srvtoolu_1", "web_search", call),
                new PartEnded(1),
                new ServerToolBlock(2, "web_search_tool_result", "srvtoolu_1", null, result),
                new Seal(2, Seal.Kind.SIGNATURE, "sig"),
                new PartEnded(2),
                new ContentDelta(3, "Sunny."),
                DONE);
        List<Part> parts = reduced.message().parts();
        assertThat(parts).hasSize(4);
        assertThat(parts.get(1)).isEqualTo(new ServerToolPart("server_tool_use", "srvtoolu_1", "web_search", call, Seals.NONE));
        assertThat(parts.get(2)).isEqualTo(new ServerToolPart("web_search_tool_result", "srvtoolu_1", null, result,
                Seals.NONE.with(Seal.Kind.SIGNATURE, "sig")));
        assertThat(reduced.message().text()).isEqualTo("Sunny.");
        assertThat(reduced.message().toolCalls()).isEmpty();
    }

    @Test
    void aDeltaForAServerToolPartIsAProtocolError() {
        ChatReducer reducer = ChatReducer.defaults();
        assertThatThrownBy(() -> reduce(reducer, START,
                new ServerToolBlock(0, "web_search_call", "ws_1", null, "{}"),
                new ContentDelta(0, "x"), DONE))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("server-tool");
    }

    @Test
    void toolCallFragmentsOfParallelCallsAreAssembledPerPart() {
        ChatResult result = reduce(ChatReducer.defaults(), START,
                new ToolCallDelta(0, 0, "a", "f", "{\"x\""),
                new ToolCallDelta(1, 1, "b", "g", "[1,"),
                new ToolCallDelta(0, 0, null, null, ":1}"),
                new ToolCallDelta(1, 1, null, null, "2]"),
                DONE);
        assertThat(result.message().toolCalls()).extracting(ToolCallPart::arguments)
                .containsExactly("{\"x\":1}", "[1,2]");
    }

    @Test
    void invalidArgumentsAreFlaggedByDefault() {
        ChatResult result = reduce(ChatReducer.defaults(), START,
                new ToolCallDelta(0, 0, "a", "f", "{\"x\": 1"), DONE);
        ToolCallPart call = result.message().toolCalls().get(0);
        assertThat(call.argumentsValid()).isFalse();
        assertThat(call.arguments()).isEqualTo("{\"x\": 1");
    }

    @Test
    void trailingGarbageAfterArgumentsIsInvalid() {
        ChatResult result = reduce(ChatReducer.defaults(), START,
                new ToolCallDelta(0, 0, "a", "f", "{}{}"), DONE);
        assertThat(result.message().toolCalls().get(0).argumentsValid()).isFalse();
    }

    @Test
    void emptyArgumentsAreValid() {
        ChatResult result = reduce(ChatReducer.defaults(), START, new ToolCallDelta(0, 0, "a", "f", ""), DONE);
        assertThat(result.message().toolCalls().get(0).argumentsValid()).isTrue();
    }

    @Test
    void invalidArgumentsFailUnderFailPolicyWithPartial() {
        ChatReducer strict = ChatReducer.builder().toolArgumentsPolicy(ToolArgumentsPolicy.FAIL).build();
        StepVerifier.create(strict.reduce(Flux.just(START, new ReasoningDelta(0, "r", false, "x"),
                        new ToolCallDelta(1, 0, "a", "f", "{\"x\":"), DONE)))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(ToolArgumentsException.class).hasMessageContaining("f (a)");
                    assertThat(((RuminateException) e).partial()).isNotNull();
                    assertThat(((RuminateException) e).partial().reasoning()).isEqualTo("r");
                })
                .verify();
    }

    @Test
    void matchingFinalGivesMatched() {
        ChatResult result = reduce(ChatReducer.defaults(), START,
                new ReasoningDelta(0, "ab", true, "summary"), new ReasoningDelta(0, "c", true, "summary"),
                new ReasoningFinal(0, "abc"), new ReasoningFinal(0, "abc"), DONE);
        assertThat(result.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.MATCHED);
        // Two reports of one part's final text: one checked part.
        assertThat(result.reasoningCheck().checkedParts()).isEqualTo(1);
        assertThat(((ReasoningPart) result.message().parts().get(0)).summary()).isTrue();
    }

    @Test
    void mismatchPrefersProviderTextByDefaultAndSaysWhere() {
        ChatResult result = reduce(ChatReducer.defaults(), START,
                new ReasoningDelta(0, "hello wrld", false, "r"), new ReasoningFinal(0, "hello world"), DONE);
        ReasoningCheck check = result.reasoningCheck();
        assertThat(check.verdict()).isEqualTo(ReasoningVerdict.MISMATCHED);
        assertThat(check.part()).isZero();
        assertThat(check.offset()).isEqualTo(7);
        assertThat(check.whitespaceOnly()).isFalse();
        assertThat(check.detail()).contains("wrld").contains("world");
        assertThat(result.message().reasoning()).isEqualTo("hello world");
    }

    @Test
    void mismatchCanPreferStreamedText() {
        ChatReducer reducer = ChatReducer.builder().mismatchPolicy(MismatchPolicy.PREFER_STREAMED).build();
        ChatResult result = reduce(reducer, START,
                new ReasoningDelta(0, "abc", false, "r"), new ReasoningFinal(0, "abd"), DONE);
        assertThat(result.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.MISMATCHED);
        assertThat(result.message().reasoning()).isEqualTo("abc");
    }

    @Test
    void mismatchCanFailWithPartial() {
        ChatReducer reducer = ChatReducer.builder().mismatchPolicy(MismatchPolicy.FAIL).build();
        StepVerifier.create(reducer.reduce(Flux.just(START, new ReasoningDelta(0, "abc", false, "r"),
                        new ReasoningFinal(0, "abX"), DONE)))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(ReasoningMismatchException.class);
                    assertThat(((ReasoningMismatchException) e).offset()).isEqualTo(2);
                    assertThat(((RuminateException) e).partial().reasoning()).isEqualTo("abc");
                })
                .verify();
    }

    @Test
    void whitespaceOnlyDifferenceIsReportedOrForgivenByChoice() {
        ChatEvent[] events = {START, new ReasoningDelta(0, "a b\n", false, "r"), new ReasoningFinal(0, "a b"), DONE};
        ReasoningCheck strict = reduce(ChatReducer.defaults(), events).reasoningCheck();
        assertThat(strict.verdict()).isEqualTo(ReasoningVerdict.MISMATCHED);
        assertThat(strict.whitespaceOnly()).isTrue();
        assertThat(strict.offset()).isEqualTo(3);

        ChatReducer lenient = ChatReducer.builder().whitespaceOnlyMismatchIsMatch(true).build();
        assertThat(reduce(lenient, events).reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.MATCHED);
    }

    @Test
    void finalWithoutDeltasBecomesThePartText() {
        ChatResult result = reduce(ChatReducer.defaults(), START, new ReasoningFinal(0, "only done"), DONE);
        assertThat(result.message().reasoning()).isEqualTo("only done");
        assertThat(result.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.MATCHED);
    }

    @Test
    void repeatedFinalsWithoutDeltasAreCheckedAgainstEachOther() {
        ChatResult agreeing = reduce(ChatReducer.defaults(), START,
                new ReasoningFinal(0, "full text"), new ReasoningFinal(0, "full text"), DONE);
        assertThat(agreeing.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.MATCHED);
        assertThat(agreeing.message().reasoning()).isEqualTo("full text");

        ChatResult differing = reduce(ChatReducer.defaults(), START,
                new ReasoningFinal(0, "full text"), new ReasoningFinal(0, "full test"), DONE);
        assertThat(differing.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.MISMATCHED);
        assertThat(differing.reasoningCheck().offset()).isEqualTo(7);
        assertThat(differing.reasoningCheck().detail()).startsWith("earlier final");
        assertThat(differing.message().reasoning()).isEqualTo("full test");
    }

    @Test
    void blankArgumentsAreInvalidWhenTheOutputWasCutOff() {
        ChatResult cut = reduce(ChatReducer.defaults(), START, new ToolCallDelta(0, 0, "a", "f", ""),
                new ResponseCompleted(FinishReason.LENGTH, "length"));
        assertThat(cut.message().toolCalls().get(0).argumentsValid()).isFalse();
    }

    @Test
    void sealsOpenReasoningPartsAndLaterValuesReplaceEarlierOnes() {
        ChatResult result = reduce(ChatReducer.defaults(), START,
                new Seal(0, Seal.Kind.REDACTED, "blob"),
                new Seal(1, Seal.Kind.ENCRYPTED, "enc-added"),
                new Seal(1, Seal.Kind.ITEM_ID, "rs_1"),
                new Seal(1, Seal.Kind.ENCRYPTED, "enc-done"),
                new ContentDelta(2, "hi"),
                new Seal(2, Seal.Kind.SIGNATURE, "text-sig"),
                DONE);
        List<?> parts = result.message().parts();
        assertThat(parts.get(0)).isInstanceOfSatisfying(ReasoningPart.class, r -> {
            assertThat(r.text()).isEmpty();
            assertThat(r.seals().redacted()).isEqualTo("blob");
        });
        assertThat(parts.get(1)).isInstanceOfSatisfying(ReasoningPart.class, r -> {
            assertThat(r.seals().encrypted()).isEqualTo("enc-done");
            assertThat(r.seals().itemId()).isEqualTo("rs_1");
        });
        assertThat(parts.get(2)).isInstanceOfSatisfying(TextPart.class,
                t -> assertThat(t.seals().signature()).isEqualTo("text-sig"));
        assertThat(result.message().toString()).doesNotContain("enc-done").doesNotContain("blob");
    }

    @Test
    void usageUpdatesMergeKeepingKnownCounts() {
        ChatResult result = reduce(ChatReducer.defaults(), START,
                new UsageUpdate(new Usage(100L, null, null, 40L)),
                new UsageUpdate(new Usage(null, 50L, 30L, null)), DONE);
        assertThat(result.message().usage()).isEqualTo(new Usage(100L, 50L, 30L, 40L));
    }

    @Test
    void aDeltaOfAnotherKindForAnExistingPartIsAProtocolError() {
        StepVerifier.create(ChatReducer.defaults().reduce(Flux.just(START, new ContentDelta(0, "a"),
                        new ReasoningDelta(0, "b", false, "r"))))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ProtocolException.class)
                        .hasMessageContaining("part 0 is text but received reasoning"))
                .verify();
    }

    @Test
    void typedErrorAfterEventsCarriesThePartialMessage() {
        Flux<ChatEvent> events = Flux.<ChatEvent>just(START, new ReasoningDelta(0, "thinking", false, "r"),
                        new ContentDelta(1, "half an ans"))
                .concatWith(Flux.error(new ProviderStreamException("test", new ProviderError("overloaded_error", null, "Overloaded", null))));
        StepVerifier.create(ChatReducer.defaults().reduce(events))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(ProviderStreamException.class);
                    AssistantMessage partial = ((RuminateException) e).partial();
                    assertThat(partial).isNotNull();
                    assertThat(partial.reasoning()).isEqualTo("thinking");
                    assertThat(partial.text()).isEqualTo("half an ans");
                    assertThat(partial.finishReason()).isEqualTo(FinishReason.OTHER);
                })
                .verify();
    }

    @Test
    void foreignErrorIsWrappedAsIncompleteStreamWithPartial() {
        Flux<ChatEvent> events = Flux.<ChatEvent>just(START, new ContentDelta(0, "abc"))
                .concatWith(Flux.error(new IllegalStateException("boom")));
        StepVerifier.create(ChatReducer.defaults().reduce(events))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(IncompleteStreamException.class).hasCauseInstanceOf(IllegalStateException.class);
                    assertThat(((RuminateException) e).partial().text()).isEqualTo("abc");
                })
                .verify();
    }

    @Test
    void errorBeforeAnyEventCarriesNoPartial() {
        StepVerifier.create(ChatReducer.defaults().reduce(Flux.error(new IncompleteStreamException("x", null))))
                .expectErrorSatisfies(e -> assertThat(((RuminateException) e).partial()).isNull())
                .verify();
    }

    @Test
    void completionWithoutResponseCompletedIsIncomplete() {
        StepVerifier.create(ChatReducer.defaults().reduce(Flux.just(START, new ContentDelta(0, "abc"))))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(IncompleteStreamException.class);
                    assertThat(((RuminateException) e).partial().text()).isEqualTo("abc");
                })
                .verify();
    }

    @Test
    void cancellingTheReductionCancelsTheSource() {
        TestPublisher<ChatEvent> source = TestPublisher.create();
        StepVerifier.create(ChatReducer.defaults().reduce(source))
                .then(() -> source.next(START, new ContentDelta(0, "a")))
                .thenCancel()
                .verify();
        source.assertCancelled();
    }

    @Test
    void snapshotsShowTheMessageAsOfEachEvent() {
        List<ChatSnapshot> snapshots = new ArrayList<>();
        StepVerifier.create(ChatReducer.defaults().snapshots(Flux.just(START,
                        new ReasoningDelta(0, "th", false, "r"), new ReasoningDelta(0, "ink", false, "r"),
                        new ContentDelta(1, "A"), new ContentDelta(1, "B"), DONE)))
                .recordWith(() -> snapshots)
                .expectNextCount(6)
                .verifyComplete();
        // Read after the flux completed: each still shows its own moment.
        assertThat(snapshots.get(1).message().reasoning()).isEqualTo("th");
        assertThat(snapshots.get(2).message().reasoning()).isEqualTo("think");
        assertThat(snapshots.get(2).message().text()).isEmpty();
        assertThat(snapshots.get(3).message().text()).isEqualTo("A");
        assertThat(snapshots.get(4).event()).isEqualTo(new ContentDelta(1, "B"));
        assertThat(snapshots.get(5).message().text()).isEqualTo("AB");
        assertThat(snapshots.get(5).message().finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(snapshots.get(3).message().finishReason()).isEqualTo(FinishReason.OTHER);
        // The completion's snapshot carries the same result a terminal reduction gives; no other does.
        assertThat(snapshots.get(5).result()).isEqualTo(ChatReducer.defaults().reduce(Flux.just(START,
                new ReasoningDelta(0, "th", false, "r"), new ReasoningDelta(0, "ink", false, "r"),
                new ContentDelta(1, "A"), new ContentDelta(1, "B"), DONE)).block());
        assertThat(snapshots.subList(0, 5)).allSatisfy(snapshot -> assertThat(snapshot.result()).isNull());
    }

    @Test
    void snapshotsOfAStreamWithoutCompletionFailAsIncomplete() {
        StepVerifier.create(ChatReducer.defaults().snapshots(Flux.just(START, new ContentDelta(0, "abc"))))
                .expectNextCount(2)
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(IncompleteStreamException.class);
                    assertThat(((RuminateException) e).partial().text()).isEqualTo("abc");
                })
                .verify();
    }

    @Test
    void snapshotsFailWithThePartialMessage() {
        Flux<ChatEvent> events = Flux.<ChatEvent>just(START, new ContentDelta(0, "abc"))
                .concatWith(Flux.error(new IncompleteStreamException("cut", null)));
        StepVerifier.create(ChatReducer.defaults().snapshots(events))
                .expectNextCount(2)
                .expectErrorSatisfies(e -> assertThat(((RuminateException) e).partial().text()).isEqualTo("abc"))
                .verify();
    }

    @Test
    void synchronousReductionGivesTheSameResultAsTheMono() {
        ChatEvent[] events = {START, new ReasoningDelta(0, "r", false, "x"), new ContentDelta(1, "t"), DONE};
        Reduction reduction = ChatReducer.defaults().start();
        for (ChatEvent e : events) {
            reduction.accept(e);
        }
        assertThat(reduction.finish()).isEqualTo(reduce(ChatReducer.defaults(), events));
    }
}
