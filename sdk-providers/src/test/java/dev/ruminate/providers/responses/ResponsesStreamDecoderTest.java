package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RuminateException;
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
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ReasoningVerdict;
import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SseSplitter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/** The stream decoder on hand-written event sequences: order, final views, seals, and every way a stream can end. */
class ResponsesStreamDecoderTest {

    private static final String RS = "rs_1";
    private static final String CREATED = ev("response.created",
            "\"response\":{\"id\":\"resp_1\",\"model\":\"o4-mini\",\"status\":\"in_progress\",\"output\":[]}");
    private static final String COMPLETED = ev("response.completed", "\"response\":{\"id\":\"resp_1\",\"status\":\"completed\","
            + "\"usage\":{\"input_tokens\":10,\"input_tokens_details\":{\"cached_tokens\":4},\"output_tokens\":20,"
            + "\"output_tokens_details\":{\"reasoning_tokens\":12},\"total_tokens\":30}}");

    /** One SSE event as OpenAI writes it: the type as the event name and inside the data. */
    static String ev(String type, String fields) {
        return "event: " + type + "\ndata: {\"type\":\"" + type + "\"" + (fields.isEmpty() ? "" : "," + fields) + "}\n\n";
    }

    private static Flux<ChatEvent> decode(String sse) {
        return Flux.fromIterable(SseSplitter.split(sse)).transform(ResponsesCodec.streamDecoder(ResponsesProfiles.OPENAI));
    }

    private static RuminateException reduceFailing(String sse) {
        Throwable error = ChatReducer.defaults().reduce(decode(sse)).map(r -> (Throwable) new AssertionError(r))
                .onErrorResume(e -> reactor.core.publisher.Mono.just(e)).block(Duration.ofSeconds(10));
        assertThat(error).isInstanceOf(RuminateException.class);
        return (RuminateException) error;
    }

    private static String reasoningItem(int index, String id, String encrypted) {
        return ev("response.output_item.added", "\"output_index\":" + index + ",\"item\":{\"id\":\"" + id
                + "\",\"type\":\"reasoning\",\"encrypted_content\":\"" + encrypted + "\",\"summary\":[]}");
    }

    private static String summaryDelta(int index, int summary, String delta) {
        return ev("response.reasoning_summary_text.delta", "\"item_id\":\"x\",\"output_index\":" + index
                + ",\"summary_index\":" + summary + ",\"delta\":\"" + delta + "\"");
    }

    private static String summaryDone(int index, int summary, String text) {
        return ev("response.reasoning_summary_text.done", "\"output_index\":" + index + ",\"summary_index\":" + summary
                + ",\"text\":\"" + text + "\"");
    }

    private static String reasoningDone(int index, String id, String encrypted, String... summaries) {
        StringBuilder s = new StringBuilder();
        for (String text : summaries) {
            s.append(s.isEmpty() ? "" : ",").append("{\"type\":\"summary_text\",\"text\":\"").append(text).append("\"}");
        }
        return ev("response.output_item.done", "\"output_index\":" + index + ",\"item\":{\"id\":\"" + id
                + "\",\"type\":\"reasoning\",\"encrypted_content\":\"" + encrypted + "\",\"summary\":[" + s + "]}");
    }

    @Test
    void summaryPartsTextAndCallComeInOrderWithFinalsAndSeals() {
        String sse = CREATED
                + reasoningItem(0, RS, "ENC-ADDED")
                + summaryDelta(0, 0, "Think") + summaryDelta(0, 0, "ing") + summaryDone(0, 0, "Thinking")
                + ev("response.reasoning_summary_part.done", "\"output_index\":0,\"summary_index\":0,"
                        + "\"part\":{\"type\":\"summary_text\",\"text\":\"Thinking\"}")
                + summaryDelta(0, 1, "More") + summaryDone(0, 1, "More")
                + reasoningDone(0, RS, "ENC-DONE", "Thinking", "More")
                + ev("response.output_item.added", "\"output_index\":1,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"content\":[]}")
                + ev("response.output_text.delta", "\"output_index\":1,\"content_index\":0,\"delta\":\"Hi\"")
                + ev("response.output_text.done", "\"output_index\":1,\"content_index\":0,\"text\":\"Hi\"")
                + ev("response.output_item.done", "\"output_index\":1,\"item\":{\"id\":\"msg_1\",\"type\":\"message\","
                        + "\"content\":[{\"type\":\"output_text\",\"text\":\"Hi\"}]}")
                + ev("response.output_item.added", "\"output_index\":2,\"item\":{\"id\":\"fc_1\",\"type\":\"function_call\","
                        + "\"call_id\":\"call_1\",\"name\":\"f\",\"arguments\":\"\"}")
                + ev("response.function_call_arguments.delta", "\"output_index\":2,\"delta\":\"{\\\"a\\\"\"")
                + ev("response.function_call_arguments.delta", "\"output_index\":2,\"delta\":\":1}\"")
                + ev("response.function_call_arguments.done", "\"output_index\":2,\"arguments\":\"{\\\"a\\\":1}\"")
                + ev("response.output_item.done", "\"output_index\":2,\"item\":{\"id\":\"fc_1\",\"type\":\"function_call\","
                        + "\"call_id\":\"call_1\",\"name\":\"f\",\"arguments\":\"{\\\"a\\\":1}\"}")
                + COMPLETED;

        StepVerifier.create(decode(sse))
                .expectNext(new ResponseStarted("openai-responses", "o4-mini", "resp_1"))
                .expectNext(new ReasoningDelta(0, "Think", true, "summary_text"))
                .expectNext(new ReasoningDelta(0, "ing", true, "summary_text"))
                .expectNext(new ReasoningFinal(0, "Thinking"))
                .expectNext(new PartEnded(0))
                .expectNext(new ReasoningDelta(1, "More", true, "summary_text"))
                .expectNext(new ReasoningFinal(1, "More"))
                .expectNext(new PartEnded(1))
                .expectNext(new Seal(0, Seal.Kind.ITEM_ID, RS), new Seal(1, Seal.Kind.ITEM_ID, RS))
                .expectNext(new Seal(0, Seal.Kind.ENCRYPTED, "ENC-DONE"))
                .expectNext(new ContentDelta(2, "Hi"), new PartEnded(2))
                .expectNext(new ToolCallDelta(3, 2, "call_1", "f", ""))
                .expectNext(new ToolCallDelta(3, 2, null, null, "{\"a\""), new ToolCallDelta(3, 2, null, null, ":1}"))
                .expectNext(new PartEnded(3), new Seal(3, Seal.Kind.ITEM_ID, "fc_1"))
                .expectNext(new UsageUpdate(new Usage(10L, 20L, 12L, 4L)))
                .expectNext(new ResponseCompleted(FinishReason.TOOL_CALLS, "completed"))
                .verifyComplete();
    }

    @Test
    void itemsClosingOutOfOrderWithRotatingIdsReduceByOutputIndex() {
        // item 1 (a call) starts and finishes while item 0 (reasoning) is still streaming; ids change at done
        String sse = CREATED
                + reasoningItem(0, "rs_a", "E0")
                + summaryDelta(0, 0, "Plan ")
                + ev("response.output_item.added", "\"output_index\":1,\"item\":{\"id\":\"fc_a\",\"type\":\"function_call\","
                        + "\"call_id\":\"call_9\",\"name\":\"g\",\"arguments\":\"\"}")
                + ev("response.function_call_arguments.delta", "\"item_id\":\"fc_rotated\",\"output_index\":1,\"delta\":\"{}\"")
                + summaryDelta(0, 0, "more")
                + ev("response.output_item.done", "\"output_index\":1,\"item\":{\"id\":\"fc_b\",\"type\":\"function_call\","
                        + "\"call_id\":\"call_9\",\"name\":\"g\",\"arguments\":\"{}\"}")
                + summaryDone(0, 0, "Plan more")
                + reasoningDone(0, "rs_b", "E1", "Plan more")
                + COMPLETED;

        Folded f = Recorded.run(decode(sse)).folded();

        assertThat(f.kinds()).isEqualTo("reasoning,tool");
        assertThat(f.parts.get(0).text()).isEqualTo("Plan more");
        assertThat(f.parts.get(0).finalText).isEqualTo("Plan more");
        assertThat(f.parts.get(0).seals).containsEntry(Seal.Kind.ITEM_ID, "rs_b").containsEntry(Seal.Kind.ENCRYPTED, "E1");
        assertThat(f.parts.get(1).text()).isEqualTo("{}");
        assertThat(f.parts.get(1).seals).containsEntry(Seal.Kind.ITEM_ID, "fc_b");
        AssistantMessage m = Responses.reduce(f.events).message();
        assertThat(m.toolCalls()).singleElement().satisfies(c -> assertThat(c.id()).isEqualTo("call_9"));
    }

    @Test
    void encryptedContentIsTheOneOfItemDoneNotOfAddedOrCompleted() {
        String sse = CREATED + reasoningItem(0, RS, "AAA") + reasoningDone(0, RS, "BBB")
                + ev("response.completed", "\"response\":{\"status\":\"completed\",\"output\":[{\"id\":\"rs_1\","
                        + "\"type\":\"reasoning\",\"encrypted_content\":\"CCC\",\"summary\":[]}]}");

        Folded f = Recorded.run(decode(sse)).folded();

        assertThat(f.kinds()).isEqualTo("reasoning");
        assertThat(f.parts.get(0).seals).containsEntry(Seal.Kind.ENCRYPTED, "BBB");
        assertThat(f.parts.get(0).sealHistory).containsExactly("ITEM_ID@open", "ENCRYPTED@open");
    }

    @Test
    void anItemNeverClosedTakesItsFinalViewFromResponseCompleted() {
        String sse = CREATED + reasoningItem(0, RS, "AAA") + summaryDelta(0, 0, "Partial")
                + ev("response.completed", "\"response\":{\"status\":\"completed\",\"output\":[{\"id\":\"rs_1\","
                        + "\"type\":\"reasoning\",\"encrypted_content\":\"CCC\",\"summary\":[{\"type\":\"summary_text\","
                        + "\"text\":\"Partial view\"}]}]}");

        Folded f = Recorded.run(decode(sse)).folded();

        assertThat(f.parts.get(0).text()).isEqualTo("Partial");
        assertThat(f.parts.get(0).finalText).isEqualTo("Partial view");
        assertThat(f.parts.get(0).seals).containsEntry(Seal.Kind.ENCRYPTED, "CCC");
        assertThat(Responses.reduce(f.events).reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.MISMATCHED);
    }

    @Test
    void deltasThatDisagreeWithTheDoneTextAreAMismatch() {
        String sse = CREATED + reasoningItem(0, RS, "E") + summaryDelta(0, 0, "abc") + summaryDone(0, 0, "abd")
                + reasoningDone(0, RS, "E", "abd") + COMPLETED;

        assertThat(Responses.reduce(Recorded.run(decode(sse)).folded().events).reasoningCheck().verdict())
                .isEqualTo(ReasoningVerdict.MISMATCHED);
    }

    @Test
    void rawReasoningAndArgumentsThatComeOnlyInDoneEventsAreUsed() {
        String sse = CREATED
                + ev("response.output_item.added", "\"output_index\":0,\"item\":{\"id\":\"rs_r\",\"type\":\"reasoning\",\"summary\":[],\"content\":[]}")
                + ev("response.reasoning_text.done", "\"output_index\":0,\"content_index\":0,\"text\":\"We think.\"")
                + ev("response.content_part.done", "\"output_index\":0,\"content_index\":0,\"part\":{\"type\":\"reasoning_text\",\"text\":\"We think.\"}")
                + ev("response.output_item.added", "\"output_index\":1,\"item\":{\"id\":\"fc_r\",\"type\":\"function_call\",\"call_id\":\"c\",\"name\":\"n\",\"arguments\":\"\"}")
                + ev("response.function_call_arguments.done", "\"output_index\":1,\"arguments\":\"{\\\"x\\\":2}\"")
                + ev("response.output_item.done", "\"output_index\":1,\"item\":{\"id\":\"fc_r\",\"type\":\"function_call\",\"call_id\":\"c\",\"name\":\"n\",\"arguments\":\"{\\\"x\\\":2}\"}")
                + COMPLETED;

        Folded f = Recorded.run(decode(sse)).folded();

        assertThat(f.kinds()).isEqualTo("reasoning,tool");
        assertThat(f.parts.get(0).text()).isEqualTo("We think.");
        assertThat(f.parts.get(0).summary).isFalse();
        assertThat(f.parts.get(0).sources).containsExactly("reasoning_text");
        assertThat(f.parts.get(0).finalText).isEqualTo("We think.");
        assertThat(f.parts.get(1).text()).isEqualTo("{\"x\":2}");
    }

    @Test
    void streamWithoutATerminalEventIsIncompleteAndKeepsThePartialMessage() {
        String sse = CREATED + reasoningItem(0, RS, "E") + summaryDelta(0, 0, "Half a tho");

        RuminateException error = reduceFailing(sse);

        assertThat(error).isInstanceOf(IncompleteStreamException.class);
        assertThat(error.getMessage()).contains("without response.completed");
        assertThat(error.partial()).isNotNull();
        assertThat(error.partial().parts()).singleElement().isInstanceOfSatisfying(ReasoningPart.class,
                r -> assertThat(r.text()).isEqualTo("Half a tho"));
    }

    @Test
    void anEmptyBodyIsIncompleteBeforeTheResponseStarted() {
        StepVerifier.create(decode(""))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(IncompleteStreamException.class)
                        .hasMessageContaining("before the response started"))
                .verify();
    }

    @Test
    void doneSentinelBeforeCompletionIsStillIncomplete() {
        StepVerifier.create(decode(CREATED + "data: [DONE]\n\n"))
                .expectNextCount(1)
                .expectError(IncompleteStreamException.class)
                .verify();
    }

    @Test
    void openRouterTrailingDoneAndAnythingAfterCompletionAreIgnored() {
        String sse = CREATED + ev("response.output_text.delta", "\"output_index\":0,\"content_index\":0,\"delta\":\"A\"")
                + COMPLETED + "data: [DONE]\n\n" + ev("response.output_text.delta", "\"output_index\":0,\"delta\":\"B\"");

        Folded f = Recorded.run(decode(sse)).folded();

        assertThat(f.text()).isEqualTo("A");
        assertThat(f.completed.finishReason()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void errorEventMidStreamFailsWithTheProviderErrorAndKeepsThePartial() {
        String sse = CREATED + ev("response.output_text.delta", "\"output_index\":0,\"content_index\":0,\"delta\":\"Par\"")
                + ev("error", "\"code\":\"server_error\",\"message\":\"The model crashed\",\"param\":null,\"sequence_number\":5");

        RuminateException error = reduceFailing(sse);

        assertThat(error).isInstanceOf(ProviderStreamException.class);
        assertThat(((ProviderStreamException) error).error())
                .isEqualTo(new ProviderError(null, "server_error", "The model crashed", null));
        assertThat(error.partial()).isNotNull();
        assertThat(error.partial().text()).isEqualTo("Par");
    }

    @Test
    void nestedErrorObjectInAnErrorEventIsRead() {
        String sse = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
                + "\"code\":\"context_length_exceeded\",\"message\":\"Too long\",\"param\":\"input\"}}\n\n";

        StepVerifier.create(decode(sse))
                .expectErrorSatisfies(e -> assertThat(((ProviderStreamException) e).error()).isEqualTo(
                        new ProviderError("invalid_request_error", "context_length_exceeded", "Too long", "input")))
                .verify();
    }

    @Test
    void responseFailedFailsWithItsError() {
        String sse = CREATED + ev("response.failed", "\"response\":{\"id\":\"resp_1\",\"status\":\"failed\","
                + "\"error\":{\"code\":\"rate_limit_exceeded\",\"message\":\"Slow down\"}}");

        StepVerifier.create(decode(sse))
                .expectNextCount(1)
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(ProviderStreamException.class);
                    assertThat(((ProviderStreamException) e).error().code()).isEqualTo("rate_limit_exceeded");
                    assertThat(((ProviderStreamException) e).error().message()).isEqualTo("Slow down");
                    assertThat(((ProviderStreamException) e).isRetryable()).isFalse();
                })
                .verify();
    }

    @Test
    void responseIncompleteCompletesWithLengthOrContentFilter() {
        String partial = CREATED + ev("response.output_text.delta", "\"output_index\":0,\"content_index\":0,\"delta\":\"Cut\"");
        Folded length = Recorded.run(decode(partial + ev("response.incomplete", "\"response\":{\"status\":\"incomplete\","
                + "\"incomplete_details\":{\"reason\":\"max_output_tokens\"},\"usage\":{\"input_tokens\":3,\"output_tokens\":16}}"))).folded();
        assertThat(length.text()).isEqualTo("Cut");
        assertThat(length.completed).isEqualTo(new ResponseCompleted(FinishReason.LENGTH, "max_output_tokens"));
        assertThat(length.usage).isEqualTo(new Usage(3L, 16L, null, null));

        Folded filtered = Recorded.run(decode(partial + ev("response.incomplete", "\"response\":{\"status\":\"incomplete\","
                + "\"incomplete_details\":{\"reason\":\"content_filter\"}}"))).folded();
        assertThat(filtered.completed).isEqualTo(new ResponseCompleted(FinishReason.CONTENT_FILTER, "content_filter"));
    }

    @Test
    void malformedJsonNamesTheLineAndByteOffset() {
        String sse = CREATED + "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"x\n\n";

        StepVerifier.create(decode(sse))
                .expectNextCount(1)
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(ProtocolException.class);
                    ProtocolException p = (ProtocolException) e;
                    assertThat(p.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
                    assertThat(p.line()).isEqualTo(4);
                    assertThat(p.byteOffset()).isEqualTo(CREATED.length());
                })
                .verify();
    }

    @Test
    void wrongShapesAreUnexpectedShape() {
        StepVerifier.create(decode(CREATED + "data: [1,2]\n\n"))
                .expectNextCount(1)
                .expectErrorSatisfies(e -> assertThat(((ProtocolException) e).reason())
                        .isEqualTo(ProtocolException.Reason.UNEXPECTED_SHAPE))
                .verify();
        StepVerifier.create(decode(CREATED + ev("response.output_text.delta", "\"output_index\":\"zero\",\"delta\":\"x\"")))
                .expectNextCount(1)
                .expectErrorSatisfies(e -> assertThat(((ProtocolException) e).reason())
                        .isEqualTo(ProtocolException.Reason.UNEXPECTED_SHAPE))
                .verify();
    }

    @Test
    void customToolCallsAndRefusalsAreReadLikeFunctionCallsAndText() {
        String sse = CREATED
                + ev("response.output_item.added", "\"output_index\":0,\"item\":{\"id\":\"msg_r\",\"type\":\"message\",\"content\":[]}")
                + ev("response.refusal.delta", "\"output_index\":0,\"content_index\":0,\"delta\":\"I can't\"")
                + ev("response.refusal.done", "\"output_index\":0,\"content_index\":0,\"refusal\":\"I can't\"")
                + ev("response.output_item.added", "\"output_index\":1,\"item\":{\"id\":\"ctc_1\",\"type\":\"custom_tool_call\","
                        + "\"call_id\":\"call_c\",\"name\":\"grammar\",\"input\":\"\"}")
                + ev("response.custom_tool_call_input.delta", "\"output_index\":1,\"delta\":\"SELECT \"")
                + ev("response.custom_tool_call_input.delta", "\"output_index\":1,\"delta\":\"1\"")
                + ev("response.custom_tool_call_input.done", "\"output_index\":1,\"input\":\"SELECT 1\"")
                + ev("response.output_item.done", "\"output_index\":1,\"item\":{\"id\":\"ctc_1\",\"type\":\"custom_tool_call\","
                        + "\"call_id\":\"call_c\",\"name\":\"grammar\",\"input\":\"SELECT 1\"}")
                + COMPLETED;

        Folded f = Recorded.run(decode(sse)).folded();

        assertThat(f.kinds()).isEqualTo("text,tool");
        assertThat(f.text()).isEqualTo("I can't");
        Folded.PartView call = f.parts.get(1);
        assertThat(call.toolId).isEqualTo("call_c");
        assertThat(call.toolName).isEqualTo("grammar");
        assertThat(call.text()).isEqualTo("SELECT 1");
        assertThat(call.seals).containsEntry(Seal.Kind.ITEM_ID, "ctc_1");
        assertThat(f.completed.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
    }

    @Test
    void unknownEventTypesAndFieldsAreIgnored() {
        String sse = CREATED
                + ev("response.brand_new_event", "\"output_index\":0,\"payload\":{\"deep\":[1,{\"x\":null}]}")
                + ": keep-alive comment\n\n"
                + ev("response.output_text.delta", "\"output_index\":0,\"content_index\":0,\"delta\":\"ok\",\"obfuscation\":\"zz\",\"logprobs\":[]")
                + ev("response.output_text.annotation.added", "\"output_index\":0,\"annotation\":{\"type\":\"url_citation\"}")
                + COMPLETED;

        Folded f = Recorded.run(decode(sse)).folded();

        assertThat(f.kinds()).isEqualTo("text");
        assertThat(f.text()).isEqualTo("ok");
    }
}
