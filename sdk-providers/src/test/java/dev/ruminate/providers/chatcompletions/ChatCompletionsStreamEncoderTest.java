package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.ProviderStreamException;
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
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.testkit.EveryEventType;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import reactor.test.publisher.TestPublisher;

/** The exact chunks and bodies the Chat Completions encoder writes, and how it ends a failed stream. */
class ChatCompletionsStreamEncoderTest {

    private static final ChatCompletionsStreamOptions FIXED = ChatCompletionsStreamOptions.fixed("chatcmpl-abc", 1_700_000_000L, null);
    private static final String HEAD = "{\"id\":\"chatcmpl-abc\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
            + "\"model\":\"claude-x\",\"choices\":[{\"index\":0,\"delta\":";
    private static final String SECRET = "sk-live-LEAKED-0123456789abcdef";

    private static String chunk(String delta) {
        return HEAD + delta + ",\"logprobs\":null,\"finish_reason\":null}]}";
    }

    private static String chunkWithUsageNull(String delta) {
        return HEAD + delta + ",\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}";
    }

    private static Flux<ChatEvent> smallStream() {
        return Flux.just(
                new ResponseStarted("anthropic", "claude-x", "msg_1"),
                new ReasoningDelta(0, "Think", false, "thinking"),
                new ReasoningDelta(0, "ing.", false, "thinking"),
                new Seal(0, Seal.Kind.SIGNATURE, "SECRET-SIG"),
                new PartEnded(0),
                new ServerToolBlock(1, "server_tool_use", "srv_1", "web_search", "{\"type\":\"server_tool_use\"}"),
                new PartEnded(1),
                new ContentDelta(2, "Hi"),
                new ContentDelta(2, ""),
                new PartEnded(2),
                new ToolCallDelta(3, 0, "call_1", "f", "{\"a\""),
                new ToolCallDelta(3, 0, null, null, ":1}"),
                new PartEnded(3),
                new UsageUpdate(new Usage(5L, 9L, 4L, null)),
                new ResponseCompleted(FinishReason.TOOL_CALLS, "tool_use"));
    }

    @Test
    void writesTheExactChunksOfASmallStream() {
        StepVerifier.create(ChatCompletionsStreamEncoder.encode(smallStream(), FIXED))
                .expectNext(new SseFrame("message", chunk("{\"role\":\"assistant\",\"content\":\"\"}")))
                .expectNext(new SseFrame("message", chunk("{\"reasoning_content\":\"Think\"}")))
                .expectNext(new SseFrame("message", chunk("{\"reasoning_content\":\"ing.\"}")))
                .expectNext(new SseFrame("message", chunk("{\"content\":\"Hi\"}")))
                .expectNext(new SseFrame("message", chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\"\"}}]}")))
                .expectNext(new SseFrame("message", chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\":1}\"}}]}")))
                .expectNext(new SseFrame("message", HEAD + "{},\"logprobs\":null,\"finish_reason\":\"tool_calls\"}]}"))
                .expectNext(new SseFrame("message", "[DONE]"))
                .verifyComplete();
    }

    @Test
    void withIncludeUsageEveryChunkHasANullUsageAndAUsageChunkComesLast() {
        List<String> data = ChatCompletionsStreamEncoder.encode(smallStream(), FIXED.withIncludeUsage(true))
                .map(SseFrame::data).collectList().block();

        assertThat(data).hasSize(9);
        assertThat(data.get(0)).isEqualTo(chunkWithUsageNull("{\"role\":\"assistant\",\"content\":\"\"}"));
        assertThat(data.subList(0, 7)).allSatisfy(d -> assertThat(d).endsWith(",\"usage\":null}"));
        assertThat(data.get(7)).isEqualTo("{\"id\":\"chatcmpl-abc\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
                + "\"model\":\"claude-x\",\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":9,\"total_tokens\":14,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":0},\"completion_tokens_details\":{\"reasoning_tokens\":4}}}");
        assertThat(data.get(8)).isEqualTo("[DONE]");
    }

    @Test
    void opaqueStateAndServerToolBlocksAreNotWritten() {
        String all = String.join("\n", ChatCompletionsStreamEncoder.encode(smallStream(), FIXED)
                .map(SseFrame::data).collectList().block());

        assertThat(all).doesNotContain("SECRET-SIG").doesNotContain("server_tool_use").doesNotContain("srv_1");
    }

    @Test
    void reasoningGoesInTheChosenField() {
        Flux<ChatEvent> events = Flux.just(new ResponseStarted("p", "claude-x", null), new ReasoningDelta(0, "R", true, "summary"),
                new ResponseCompleted(FinishReason.STOP, null));

        assertThat(ChatCompletionsStreamEncoder.encode(events, FIXED.withReasoningField(ChatCompletionsReasoningField.REASONING))
                .map(SseFrame::data).collectList().block()).contains(chunk("{\"reasoning\":\"R\"}"));
        assertThat(ChatCompletionsStreamEncoder.encode(events, FIXED.withReasoningField(ChatCompletionsReasoningField.BOTH))
                .map(SseFrame::data).collectList().block()).contains(chunk("{\"reasoning_content\":\"R\",\"reasoning\":\"R\"}"));
    }

    @Test
    void aFinalReasoningTextIsWrittenOnlyWhenNoDeltasCameBeforeIt() {
        Flux<ChatEvent> events = Flux.just(new ResponseStarted("p", "claude-x", null),
                new ReasoningDelta(0, "streamed", false, "reasoning_text"), new ReasoningFinal(0, "streamed!"),
                new ReasoningFinal(1, "whole"), new ResponseCompleted(FinishReason.STOP, null));

        assertThat(ChatCompletionsStreamEncoder.encode(events, FIXED).map(SseFrame::data).collectList().block())
                .containsSubsequence(chunk("{\"reasoning_content\":\"streamed\"}"), chunk("{\"reasoning_content\":\"whole\"}"))
                .noneMatch(d -> d.contains("streamed!"));
    }

    @Test
    void aCallIsAnnouncedWithItsNameAndGetsAnIdWhenTheUpstreamGaveNone() {
        Flux<ChatEvent> events = Flux.just(new ResponseStarted("gemini", "claude-x", null),
                new ToolCallDelta(0, 0, null, null, "{\"x\":"),
                new ToolCallDelta(0, 0, null, "late", "1}"),
                new ToolCallDelta(1, 1, null, null, "{}"),
                new PartEnded(1),
                new ResponseCompleted(FinishReason.STOP, "STOP"));

        assertThat(ChatCompletionsStreamEncoder.encode(events, FIXED).map(SseFrame::data).collectList().block())
                .containsExactly(chunk("{\"role\":\"assistant\",\"content\":\"\"}"),
                        chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_abc_0\",\"type\":\"function\",\"function\":"
                                + "{\"name\":\"late\",\"arguments\":\"{\\\"x\\\":1}\"}}]}"),
                        chunk("{\"tool_calls\":[{\"index\":1,\"id\":\"call_abc_1\",\"type\":\"function\",\"function\":"
                                + "{\"name\":\"\",\"arguments\":\"{}\"}}]}"),
                        HEAD + "{},\"logprobs\":null,\"finish_reason\":\"tool_calls\"}]}",
                        "[DONE]");
    }

    @Test
    void finishReasonsMapToOpenAisSet() {
        assertThat(finishOf(FinishReason.STOP)).isEqualTo("stop");
        assertThat(finishOf(FinishReason.OTHER)).isEqualTo("stop");
        assertThat(finishOf(FinishReason.LENGTH)).isEqualTo("length");
        assertThat(finishOf(FinishReason.CONTENT_FILTER)).isEqualTo("content_filter");
        assertThat(finishOf(FinishReason.TOOL_CALLS)).isEqualTo("tool_calls");
    }

    private static String finishOf(FinishReason reason) {
        List<String> data = ChatCompletionsStreamEncoder.encode(Flux.just(new ResponseStarted("p", "claude-x", null),
                new ContentDelta(0, "x"), new ResponseCompleted(reason, null)), FIXED).map(SseFrame::data).collectList().block();
        String last = data.get(data.size() - 2);
        return last.substring(last.indexOf("\"finish_reason\":\"") + 17, last.indexOf("\"}]}"));
    }

    @Test
    void anUpstreamFailureAfterEventsEndsWithOneErrorChunkAndNoDone() {
        ProviderHttpException failure = new ProviderHttpException("deepseek", 500,
                new ProviderError("server_error", null, "db password " + SECRET, null), "req_" + SECRET, null,
                "{\"error\":\"" + SECRET + "\"}");
        Flux<ChatEvent> events = Flux.<ChatEvent>just(new ResponseStarted("deepseek", "claude-x", null),
                new ReasoningDelta(0, "Hmm", false, "reasoning_content")).concatWith(Flux.error(failure));

        StepVerifier.create(ChatCompletionsStreamEncoder.encode(events, FIXED.withIncludeUsage(true)).map(SseFrame::data))
                .expectNext(chunkWithUsageNull("{\"role\":\"assistant\",\"content\":\"\"}"))
                .expectNext(chunkWithUsageNull("{\"reasoning_content\":\"Hmm\"}"))
                .assertNext(d -> assertThat(d).isEqualTo("{\"error\":{\"message\":\"The model provider answered with HTTP status 500.\","
                        + "\"type\":\"server_error\",\"param\":null,\"code\":\"server_error\"}}").doesNotContain(SECRET))
                .verifyComplete();
    }

    @Test
    void anUpstreamFailureBeforeAnyEventIsTheOnlyChunk() {
        StepVerifier.create(ChatCompletionsStreamEncoder.encode(Flux.error(new ProviderStreamException("p",
                        new ProviderError(null, null, SECRET, null))), FIXED).map(SseFrame::data))
                .expectNext("{\"error\":{\"message\":\"The model provider reported an error during the response.\","
                        + "\"type\":\"server_error\",\"param\":null,\"code\":\"server_error\"}}")
                .verifyComplete();
    }

    @Test
    void anUpstreamThatEndsWithoutCompletingOrCompletesWithAnErrorEndsWithAnErrorChunk() {
        List<String> cut = ChatCompletionsStreamEncoder.encode(Flux.just(new ResponseStarted("p", "claude-x", null),
                new ContentDelta(0, "par")), FIXED).map(SseFrame::data).collectList().block();
        List<String> errored = ChatCompletionsStreamEncoder.encode(Flux.just(new ResponseStarted("p", "claude-x", null),
                new ContentDelta(0, "par"), new ResponseCompleted(FinishReason.ERROR, "error")), FIXED)
                .map(SseFrame::data).collectList().block();

        assertThat(cut).hasSize(3).doesNotContain("[DONE]");
        assertThat(cut.get(2)).startsWith("{\"error\":{\"message\":\"The model provider's stream ended before the response was complete.\"");
        assertThat(errored).hasSize(3).doesNotContain("[DONE]");
        assertThat(errored.get(2)).startsWith("{\"error\":{\"message\":\"The model provider reported an error during the response.\"");
    }

    @Test
    void eventsAfterCompletionAreIgnoredAndCancellationReachesTheUpstream() {
        List<String> data = ChatCompletionsStreamEncoder.encode(Flux.just(new ResponseStarted("p", "claude-x", null),
                new ResponseCompleted(FinishReason.STOP, null), new ContentDelta(0, "late")), FIXED)
                .map(SseFrame::data).collectList().block();
        assertThat(data).hasSize(3).noneMatch(d -> d.contains("late"));

        TestPublisher<ChatEvent> upstream = TestPublisher.create();
        StepVerifier.create(ChatCompletionsStreamEncoder.encode(upstream.flux(), FIXED))
                .then(() -> upstream.next(new ResponseStarted("p", "claude-x", null)))
                .expectNextCount(1)
                .thenCancel()
                .verify();
        upstream.assertCancelled();
    }

    @Test
    void eachSubscriptionGetsItsOwnIdAndModelComesFromTheOptionsFirst() {
        ChatCompletionsStreamOptions options = ChatCompletionsStreamOptions.defaults().withModel("my-route");
        Flux<SseFrame> encoded = ChatCompletionsStreamEncoder.encode(Flux.just(new ResponseStarted("p", "upstream-model", null),
                new ResponseCompleted(FinishReason.STOP, null)), options);

        String first = encoded.blockFirst().data();
        String second = encoded.blockFirst().data();
        assertThat(first).startsWith("{\"id\":\"chatcmpl-").contains("\"model\":\"my-route\"");
        assertThat(first.substring(0, 50)).isNotEqualTo(second.substring(0, 50));
    }

    // ---- the non-streaming body

    @Test
    void writesTheExactBody() {
        StepVerifier.create(ChatCompletionsStreamEncoder.encodeBody(smallStream(), FIXED.withModel("route")))
                .expectNext("{\"id\":\"chatcmpl-abc\",\"object\":\"chat.completion\",\"created\":1700000000,\"model\":\"route\","
                        + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hi\","
                        + "\"reasoning_content\":\"Thinking.\",\"refusal\":null,\"tool_calls\":[{\"id\":\"call_1\","
                        + "\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\":1}\"}}]},"
                        + "\"logprobs\":null,\"finish_reason\":\"tool_calls\"}],\"usage\":{\"prompt_tokens\":5,"
                        + "\"completion_tokens\":9,\"total_tokens\":14,\"prompt_tokens_details\":{\"cached_tokens\":0},"
                        + "\"completion_tokens_details\":{\"reasoning_tokens\":4}}}")
                .verifyComplete();
    }

    @Test
    void aBodyOfOnlyToolCallsHasNullContentAndOneWithoutReasoningLeavesItOut() {
        String calls = ChatCompletionsStreamEncoder.encodeBody(Flux.just(new ResponseStarted("p", "m", null),
                new ToolCallDelta(0, 0, "c", "f", "{}"), new ResponseCompleted(FinishReason.TOOL_CALLS, null)),
                FIXED.withReasoningField(ChatCompletionsReasoningField.BOTH)).block();
        String plain = ChatCompletionsStreamEncoder.encodeBody(Flux.just(new ResponseStarted("p", "m", null),
                new ReasoningDelta(0, "R", false, "x"), new ContentDelta(1, "A"), new ResponseCompleted(FinishReason.LENGTH, null)),
                FIXED.withReasoningField(ChatCompletionsReasoningField.REASONING)).block();

        assertThat(calls).contains("\"message\":{\"role\":\"assistant\",\"content\":null,\"refusal\":null,\"tool_calls\":[")
                .doesNotContain("reasoning_content").doesNotContain("\"reasoning\"");
        assertThat(plain).contains("\"content\":\"A\",\"reasoning\":\"R\",\"refusal\":null},\"logprobs\":null,"
                + "\"finish_reason\":\"length\"").doesNotContain("reasoning_content");
    }

    @Test
    void aFailedBodyFailsWithTheUpstreamsOwnException() {
        ProviderHttpException failure = new ProviderHttpException("p", 503, ProviderError.UNKNOWN, null, null, SECRET);

        StepVerifier.create(ChatCompletionsStreamEncoder.encodeBody(Flux.<ChatEvent>just(new ResponseStarted("p", "m", null))
                        .concatWith(Flux.error(failure)), FIXED))
                .verifyErrorSatisfies(e -> assertThat(e).isSameAs(failure));
        StepVerifier.create(ChatCompletionsStreamEncoder.encodeBody(Flux.just(new ResponseStarted("p", "m", null),
                        new ContentDelta(0, "x")), FIXED))
                .verifyError(IncompleteStreamException.class);
        StepVerifier.create(ChatCompletionsStreamEncoder.encodeBody(Flux.just(new ResponseStarted("p", "m", null),
                        new ResponseCompleted(FinishReason.ERROR, null)), FIXED))
                .verifyError(ProviderStreamException.class);
    }

    // ---- every event type

    static List<ChatEvent> events() {
        return EveryEventType.oneOfEach();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void eachEventTypeIsHandledByBothWriters(ChatEvent event) {
        new CompletionChunkWriter(FIXED).onEvent(event);
        new CompletionBodyWriter(FIXED).onEvent(event);
    }
}
