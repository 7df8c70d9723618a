package dev.ruminate.providers.chatcompletions;

import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Recorded.Outcome;
import static dev.ruminate.providers.testing.Folded.Kind.REASONING;
import static dev.ruminate.providers.testing.Folded.Kind.TOOL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.transport.wire.SseEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/** Focused cases for the streamed-chunk decoder, built from hand-written SSE events. */
class ChatCompletionsStreamDecoderTest {

    /** Builds SSE events with realistic line numbers and byte offsets (two lines per event). */
    private static final class Body {
        final List<SseEvent> events = new ArrayList<>();
        long line = 1;
        long offset;

        Body event(String type, String data) {
            byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
            events.add(new SseEvent(type, bytes, null, line, offset));
            int header = type.equals("message") ? 0 : ("event: " + type + "\n").length();
            line += type.equals("message") ? 2 : 3;
            offset += header + "data: ".length() + bytes.length + 2;
            return this;
        }

        Body data(String json) {
            return event("message", json);
        }

        Body delta(String deltaJson) {
            return data("{\"id\":\"c1\",\"model\":\"m1\",\"choices\":[{\"index\":0,\"delta\":" + deltaJson
                    + ",\"finish_reason\":null}]}");
        }

        Body finish(String reason) {
            return data("{\"id\":\"c1\",\"model\":\"m1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\""
                    + reason + "\"}]}");
        }

        Body done() {
            return data("[DONE]");
        }

        Outcome decode(CompatProfile profile) {
            return Fixtures.stream(profile, events);
        }
    }

    private static Body body() {
        return new Body();
    }

    @Test
    void nullsAndEmptyStringsAreNoOps() {
        Folded f = body()
                .data("{\"id\":\"c1\",\"choices\":null,\"usage\":null}")
                .data("{\"id\":\"c1\",\"choices\":[]}")
                .delta("null")
                .delta("{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"\",\"tool_calls\":null}")
                .delta("{\"content\":\"\",\"reasoning_content\":null,\"reasoning\":null}")
                .delta("{\"reasoning_content\":\"think\"}")
                .delta("{\"content\":\"\",\"reasoning_content\":\"ing\"}")
                .delta("{\"content\":\"answer\",\"reasoning_content\":null,\"tool_calls\":[]}")
                .delta("{\"content\":null,\"reasoning_content\":\"\"}")
                .finish("stop").done()
                .decode(Profiles.DEEPSEEK).folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertThat(f.reasoning()).isEqualTo("thinking");
        assertThat(f.text()).isEqualTo("answer");
        assertThat(f.usageUpdates).isZero();
    }

    @Test
    void twoFieldsWithTheSameTextAreTakenOnce() {
        Body stream = body()
                .delta("{\"reasoning_content\":\"The \",\"reasoning\":\"The \"}")
                .delta("{\"reasoning\":\"answer\",\"reasoning_content\":\"answer\"}")
                .delta("{\"content\":\"42\"}")
                .finish("stop").done();

        Folded chutes = stream.decode(Profiles.CHUTES).folded();
        assertThat(chutes.reasoning()).isEqualTo("The answer");
        assertThat(chutes.only(REASONING).sources).containsExactly("reasoning_content");

        Folded vllm = stream.decode(Profiles.VLLM).folded();
        assertThat(vllm.reasoning()).isEqualTo("The answer");
        assertThat(vllm.only(REASONING).sources).containsExactly("reasoning");
    }

    @Test
    void aLowerPriorityFieldIsReadWhenTheFirstIsNullOrEmpty() {
        Folded f = body()
                .delta("{\"reasoning_content\":null,\"reasoning\":\"a\"}")
                .delta("{\"reasoning_content\":\"\",\"reasoning\":\"b\",\"reasoning_text\":\"ignored\"}")
                .delta("{\"reasoning_text\":\"c\"}")
                .finish("stop").done()
                .decode(Profiles.OPENAI_COMPATIBLE).folded();

        assertThat(f.reasoning()).isEqualTo("abc");
        assertThat(f.only(REASONING).sources).containsExactly("reasoning", "reasoning_text");
    }

    @Test
    void partsFollowProductionOrderAndToolPartsEndAtTheFinish() {
        List<ChatEvent> events = body()
                .delta("{\"reasoning_content\":\"r1\"}")
                .delta("{\"content\":\"t1\"}")
                .delta("{\"reasoning_content\":\"r2\"}")
                .delta("{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"fa\",\"arguments\":\"\"}}]}")
                .delta("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}}]}")
                .delta("{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"fb\",\"arguments\":\"{\\\"x\\\":1}\"}}]}")
                .delta("{\"content\":\"t2\"}")
                .data("{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}],"
                        + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":7}}")
                .done()
                .decode(Profiles.DEEPSEEK).folded().events;

        assertThat(events).containsExactly(
                new ResponseStarted("deepseek", "m1", "c1"),
                new ReasoningDelta(0, "r1", false, "reasoning_content"),
                new PartEnded(0),
                new ContentDelta(1, "t1"),
                new PartEnded(1),
                new ReasoningDelta(2, "r2", false, "reasoning_content"),
                new PartEnded(2),
                new ToolCallDelta(3, 0, "call_a", "fa", ""),
                new ToolCallDelta(3, 0, null, null, "{}"),
                new ToolCallDelta(4, 1, "call_b", "fb", "{\"x\":1}"),
                new ContentDelta(5, "t2"),
                new PartEnded(3),
                new PartEnded(4),
                new PartEnded(5),
                new UsageUpdate(new Usage(5L, 7L, null, null)),
                new ResponseCompleted(FinishReason.TOOL_CALLS, "tool_calls"));
    }

    @Test
    void interleavedToolFragmentsAreAssembledPerIndex() {
        Folded f = body()
                .delta("{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"p\\\":\"}}]}")
                .delta("{\"tool_calls\":[{\"index\":1,\"id\":\"b\",\"function\":{\"name\":\"g\",\"arguments\":\"{\\\"q\\\":\"}}]}")
                .delta("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"1}\"}},{\"index\":1,\"function\":{\"arguments\":\"2}\"}}]}")
                .finish("tool_calls").done()
                .decode(Profiles.OPENAI).folded();

        assertThat(f.kinds()).isEqualTo("tool,tool");
        assertThat(f.parts.get(0).text()).isEqualTo("{\"p\":1}");
        assertThat(f.parts.get(1).text()).isEqualTo("{\"q\":2}");
        assertThat(f.parts.get(1).toolId).isEqualTo("b");
    }

    @Test
    void indexlessToolCallsAreToldApartByIdAndPosition() {
        Folded f = body()
                .delta("{\"tool_calls\":[{\"id\":\"a\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"x\\\"\"}}]}")
                .delta("{\"tool_calls\":[{\"function\":{\"arguments\":\":1}\"}}]}")
                .delta("{\"tool_calls\":[{\"id\":\"b\",\"function\":{\"name\":\"g\",\"arguments\":\"{}\"}}]}")
                .delta("{\"tool_calls\":[{\"function\":{\"name\":\"h\",\"arguments\":\"{}\"}},{\"function\":{\"name\":\"i\",\"arguments\":\"[]\"}}]}")
                .finish("tool_calls").done()
                .decode(Profiles.OLLAMA).folded();

        assertThat(f.kinds()).isEqualTo("tool,tool,tool,tool");
        assertThat(f.parts).extracting(p -> p.toolIndex).containsExactly(0, 1, 2, 3);
        assertThat(f.parts).extracting(Folded.PartView::text).containsExactly("{\"x\":1}", "{}", "{}", "[]");
        assertThat(f.parts).extracting(p -> p.toolName).containsExactly("f", "g", "h", "i");
        assertThat(f.parts.get(2).toolId).isNull();
    }

    @Test
    void aNewIdAtAReusedIndexIsANewCall() {
        Folded f = body()
                .delta("{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}")
                .delta("{\"tool_calls\":[{\"index\":0,\"id\":\"b\",\"function\":{\"name\":\"g\",\"arguments\":\"{}\"}}]}")
                .finish("tool_calls").done()
                .decode(Profiles.OPENAI_COMPATIBLE).folded();

        assertThat(f.kinds()).isEqualTo("tool,tool");
        assertThat(f.parts).extracting(p -> p.toolId).containsExactly("a", "b");
    }

    @Test
    void legacyFunctionCallAndObjectArguments() {
        Folded legacy = body()
                .delta("{\"function_call\":{\"name\":\"lookup\",\"arguments\":\"\"}}")
                .delta("{\"function_call\":{\"arguments\":\"{\\\"k\\\":1}\"}}")
                .finish("function_call").done()
                .decode(Profiles.OPENAI).folded();
        assertThat(legacy.only(TOOL).toolName).isEqualTo("lookup");
        assertThat(legacy.only(TOOL).text()).isEqualTo("{\"k\":1}");
        assertThat(legacy.completed.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);

        Folded objectArguments = body()
                .delta("{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":{\"a\":[1,\"x\"]}}}]}")
                .finish("tool_calls").done()
                .decode(Profiles.OLLAMA).folded();
        assertThat(objectArguments.only(TOOL).text()).isEqualTo("{\"a\":[1,\"x\"]}");
    }

    @Test
    void mistralStyleArrayContentCarriesThinkingAndText() {
        Folded f = body()
                .delta("{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":[{\"type\":\"text\",\"text\":\"The user\"}]}]}")
                .delta("{\"content\":[{\"type\":\"thinking\",\"thinking\":[{\"type\":\"text\",\"text\":\" asks\"},{\"type\":\"text\",\"text\":\".\"}]}]}")
                .delta("{\"content\":[{\"type\":\"text\",\"text\":\"2 + 2\"}]}")
                .delta("{\"content\":\" = 4\"}")
                .delta("{\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\"}}]}")
                .finish("stop").done()
                .decode(Profiles.OPENAI_COMPATIBLE).folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertThat(f.reasoning()).isEqualTo("The user asks.");
        assertThat(f.only(REASONING).sources).containsExactly("thinking");
        assertThat(f.text()).isEqualTo("2 + 2 = 4");
    }

    @Test
    void usageAfterTheFinishReasonAndItsFallbacks() {
        Folded deepseekStyle = body()
                .delta("{\"content\":\"x\"}")
                .data("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"stop\"}],\"usage\":"
                        + "{\"prompt_tokens\":339,\"completion_tokens\":83,\"completion_tokens_details\":{\"reasoning_tokens\":39},"
                        + "\"prompt_cache_hit_tokens\":320,\"prompt_cache_miss_tokens\":19}}")
                .decode(Profiles.DEEPSEEK).folded();
        assertThat(deepseekStyle.usage).isEqualTo(new Usage(339L, 83L, 39L, 320L));

        Folded openAiStyle = body()
                .delta("{\"content\":\"x\"}")
                .finish("length")
                .data("{\"choices\":[],\"usage\":{\"prompt_tokens\":15,\"completion_tokens\":78,\"prompt_tokens_details\":"
                        + "{\"cached_tokens\":2,\"audio_tokens\":0},\"completion_tokens_details\":{\"reasoning_tokens\":64},\"total_tokens\":93}}")
                .done()
                .decode(Profiles.OPENAI).folded();
        assertThat(openAiStyle.usage).isEqualTo(new Usage(15L, 78L, 64L, 2L));
        assertThat(openAiStyle.completed.finishReason()).isEqualTo(FinishReason.LENGTH);
        // the usage chunk after the finish comes before the completion
        assertThat(openAiStyle.events.get(openAiStyle.events.size() - 2)).isInstanceOf(UsageUpdate.class);
    }

    @ParameterizedTest
    @CsvSource({"stop,STOP", "length,LENGTH", "tool_calls,TOOL_CALLS", "function_call,TOOL_CALLS",
            "content_filter,CONTENT_FILTER", "error,ERROR", "recitation,OTHER"})
    void finishReasonsAreNormalizedAndKept(String raw, FinishReason expected) {
        Folded f = body().delta("{\"content\":\"x\"}").finish(raw).done().decode(Profiles.OPENAI).folded();

        assertThat(f.completed).isEqualTo(new ResponseCompleted(expected, raw));
    }

    @Test
    void endOfBodyAfterAFinishReasonCompletesWithoutDone() {
        Folded f = body().delta("{\"content\":\"x\"}").finish("stop")
                .data("{\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1}}")
                .decode(Profiles.XAI).folded();

        assertThat(f.completed).isEqualTo(new ResponseCompleted(FinishReason.STOP, "stop"));
        assertThat(f.usage).isEqualTo(new Usage(1L, 1L, null, null));
    }

    @Test
    void endOfBodyWithNeitherDoneNorFinishIsIncomplete() {
        Outcome outcome = body().delta("{\"reasoning_content\":\"half a th\"}").decode(Profiles.DEEPSEEK);

        assertThat(outcome.error()).isInstanceOf(IncompleteStreamException.class)
                .hasMessageContaining("without [DONE] or a finish_reason");
        // what arrived before the end is still delivered
        assertThat(Folded.of(outcome.events()).reasoning()).isEqualTo("half a th");

        Outcome empty = body().decode(Profiles.DEEPSEEK);
        assertThat(empty.error()).isInstanceOf(IncompleteStreamException.class).hasMessageContaining("before the response started");
        assertThat(empty.events()).isEmpty();
    }

    @Test
    void malformedJsonNamesTheEventsLineAndOffset() {
        Outcome outcome = body()
                .delta("{\"content\":\"ok\"}")
                .data("{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"trunc")
                .decode(Profiles.OPENAI);

        assertThat(outcome.error()).isInstanceOf(ProtocolException.class);
        ProtocolException e = (ProtocolException) outcome.error();
        assertThat(e.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
        assertThat(e.line()).isEqualTo(3);
        String first = "{\"id\":\"c1\",\"model\":\"m1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":null}]}";
        assertThat(e.byteOffset()).isEqualTo("data: ".length() + first.length() + 2);
        assertThat(e.getMessage()).contains("line 3", "\"content\":\"trunc");
        assertThat(Folded.of(outcome.events()).text()).isEqualTo("ok");
    }

    @Test
    void nonJsonDataIsMalformed() {
        Outcome outcome = body().data("hello").decode(Profiles.OPENAI);

        assertThat(((ProtocolException) outcome.error()).reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
        assertThat(outcome.error()).hasMessageContaining("hello");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"choices\":\"none\"}",
            "{\"choices\":[{\"index\":0,\"delta\":3}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"content\":5}}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":{\"index\":0}}}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":\"f\"}]}}]}",
            "{\"choices\":[7]}",
            "[{\"choices\":[]}]",
            "\"text\""})
    void wrongShapesAreUnexpectedShape(String json) {
        Outcome outcome = body().data(json).decode(Profiles.OPENAI);

        assertThat(outcome.error()).isInstanceOf(ProtocolException.class);
        ProtocolException e = (ProtocolException) outcome.error();
        assertThat(e.reason()).isEqualTo(ProtocolException.Reason.UNEXPECTED_SHAPE);
        assertThat(e.line()).isEqualTo(1);
        assertThat(e.byteOffset()).isZero();
    }

    private static final String CHUNK_A = "{\"id\":\"c1\",\"model\":\"m1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"A\"}}]}";
    private static final String CHUNK_B = "{\"id\":\"c1\",\"model\":\"m1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"B\"}}]}";
    private static final String FINISH = "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}";

    @Test
    void objectsJoinedIntoOneEventAreEachDecoded() {
        // a server that omits the blank lines between events: its data lines join into one event
        Folded f = body()
                .data(CHUNK_A + "\n" + CHUNK_B + CHUNK_A)
                .data(FINISH + "\n[DONE]")
                .delta("{\"content\":\"after done\"}")
                .decode(Profiles.OPENAI).folded();

        assertThat(f.text()).isEqualTo("ABA");
        assertThat(f.completed).isEqualTo(new ResponseCompleted(FinishReason.STOP, "stop"));
    }

    @ParameterizedTest
    @ValueSource(strings = {" 42", "\n[1]", "\n\"text\"", "\nnull", " xyz", "}", "\n{\"choices\":", "\n[DONE] x"})
    void anythingButAnObjectAfterAJoinedObjectIsMalformed(String trailing) {
        Outcome outcome = body().delta("{\"content\":\"ok\"}").data(CHUNK_A + trailing).decode(Profiles.OPENAI);

        assertThat(outcome.error()).isInstanceOf(ProtocolException.class);
        ProtocolException e = (ProtocolException) outcome.error();
        assertThat(e.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
        assertThat(e.line()).isEqualTo(3);
        String first = "{\"id\":\"c1\",\"model\":\"m1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":null}]}";
        assertThat(e.byteOffset()).isEqualTo("data: ".length() + first.length() + 2);
        // the objects before the fault are delivered first, as if they had been events of their own
        assertThat(Folded.of(outcome.events()).text()).isEqualTo("okA");
    }

    // The decoder keeps one parser for the whole stream: an event's JSON must still end with the event,
    // never be completed by the next one.
    @Test
    void anEventCutInsideAnObjectIsMalformedEvenWhenTheNextEventWouldCompleteIt() {
        Outcome outcome = body()
                .data(CHUNK_A)
                .data("{\"id\":\"c1\",\"choices\":[{\"index\":0,")
                .data("\"delta\":{\"content\":\"B\"}}]}")
                .decode(Profiles.OPENAI);

        assertThat(outcome.error()).isInstanceOf(ProtocolException.class);
        ProtocolException e = (ProtocolException) outcome.error();
        assertThat(e.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
        assertThat(e.line()).isEqualTo(3);
        assertThat(Folded.of(outcome.events()).text()).isEqualTo("A");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\n\"cut", "\n4", "\ntru", "\n{\"id\":\"c1\""})
    void aTopLevelValueCutShortAtTheEndOfAnEventIsMalformed(String trailing) {
        Outcome outcome = body().data(CHUNK_A + trailing).data(CHUNK_B).decode(Profiles.OPENAI);

        assertThat(outcome.error()).isInstanceOf(ProtocolException.class);
        assertThat(((ProtocolException) outcome.error()).reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
        assertThat(Folded.of(outcome.events()).text()).isEqualTo("A");
    }

    @Test
    void manyEventsThroughOneParserKeepTheirOwnErrorObjects() {
        Body stream = body();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            stream.data(i % 2 == 0 ? CHUNK_A : CHUNK_B + "\n");
            expected.append(i % 2 == 0 ? 'A' : 'B');
        }
        Outcome outcome = stream
                .data("{\"error\":{\"message\":\"Overloaded\",\"type\":\"overloaded_error\",\"code\":529}}")
                .decode(Profiles.OPENROUTER);

        assertThat(outcome.error()).isInstanceOf(ProviderStreamException.class);
        assertThat(((ProviderStreamException) outcome.error()).error().message()).isEqualTo("Overloaded");
        assertThat(Folded.of(outcome.events()).text()).isEqualTo(expected.toString());
    }

    @Test
    void anErrorObjectJoinedAfterAChunkFailsAfterTheChunksEvents() {
        Outcome outcome = body()
                .data(CHUNK_A + "\n{\"error\":{\"message\":\"Overloaded\",\"type\":\"overloaded_error\",\"code\":529}}")
                // the failure ends the stream before the next event
                .data(CHUNK_B)
                .decode(Profiles.OPENROUTER);

        assertThat(outcome.error()).isInstanceOf(ProviderStreamException.class);
        assertThat(((ProviderStreamException) outcome.error()).error().type()).isEqualTo("overloaded_error");
        assertThat(Folded.of(outcome.events()).text()).isEqualTo("A");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aStreamedChoiceWithBothDeltaAndMessageReadsOnlyTheDelta(boolean deltaFirst) {
        Body stream = body();
        String[] parts = {"Hel", "lo"};
        StringBuilder sent = new StringBuilder();
        for (String part : parts) {
            sent.append(part);
            String delta = "\"delta\":{\"content\":\"" + part + "\",\"reasoning_content\":\"r\"}";
            // some servers put the cumulative message beside the delta
            String message = "\"message\":{\"content\":\"" + sent + "\",\"reasoning_content\":\"rr\"}";
            stream.data("{\"id\":\"c1\",\"choices\":[{\"index\":0," + (deltaFirst ? delta + "," + message : message + "," + delta)
                    + ",\"finish_reason\":null}]}");
        }
        Folded f = stream.finish("stop").done().decode(Profiles.DEEPSEEK).folded();

        assertThat(f.text()).isEqualTo("Hello");
        assertThat(f.reasoning()).isEqualTo("rr");
    }

    @Test
    void aStreamedChoiceWithoutDeltaReadsTheMessage() {
        Folded f = body()
                .data("{\"id\":\"c1\",\"choices\":[{\"index\":0,\"message\":{\"content\":\"whole\"}}]}")
                .data("{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":null,\"message\":{\"content\":\" too\"}}]}")
                .finish("stop").done()
                .decode(Profiles.OPENAI).folded();

        assertThat(f.text()).isEqualTo("whole too");
    }

    @Test
    void plainReasoningBesideOnlyOpaqueDetailsIsKept() {
        // OpenRouter with an OpenAI upstream: the text sits in `reasoning`, the details hold only encrypted state
        Folded f = body()
                .delta("{\"content\":\"\",\"reasoning\":\"Think\",\"reasoning_details\":[{\"type\":\"reasoning.encrypted\","
                        + "\"data\":\"gAAAAB\",\"id\":\"rs_1\",\"format\":\"openai-responses-v1\",\"index\":0}]}")
                .delta("{\"content\":\"\",\"reasoning\":\"ing\",\"reasoning_details\":[]}")
                .delta("{\"content\":\"\",\"reasoning\":\" done\",\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\" done\",\"index\":0}]}")
                .delta("{\"content\":\"42\"}")
                .finish("stop").done()
                .decode(Profiles.OPENROUTER).folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertThat(reasoning.text()).isEqualTo("Thinking done");
        assertThat(reasoning.seals).containsEntry(Seal.Kind.ENCRYPTED, "gAAAAB").containsEntry(Seal.Kind.ITEM_ID, "rs_1")
                .containsEntry(Seal.Kind.FORMAT, "openai-responses-v1");
        assertThat(f.text()).isEqualTo("42");
    }

    @Test
    void anErrorChunkEndsTheStreamWithTheProvidersError() {
        Outcome outcome = body()
                .delta("{\"content\":\"partial\"}")
                .data("{\"error\":{\"message\":\"Overloaded\",\"type\":\"overloaded_error\",\"code\":529}}")
                .decode(Profiles.OPENROUTER);

        assertThat(outcome.error()).isInstanceOf(ProviderStreamException.class);
        ProviderStreamException e = (ProviderStreamException) outcome.error();
        assertThat(e.error().type()).isEqualTo("overloaded_error");
        assertThat(e.error().code()).isEqualTo("529");
        assertThat(e.isRetryable()).isTrue();
        assertThat(e.getMessage()).contains("openrouter", "Overloaded");
        assertThat(Folded.of(outcome.events()).text()).isEqualTo("partial");
    }

    @Test
    void anErrorEventEndsTheStream() {
        Outcome outcome = body()
                .delta("{\"reasoning\":\"x\"}")
                .event("error", "{\"error\":{\"message\":\"boom\",\"type\":\"invalid_request_error\",\"code\":\"tool_use_failed\"}}")
                .decode(Profiles.GROQ);

        assertThat(((ProviderStreamException) outcome.error()).error().code()).isEqualTo("tool_use_failed");
    }

    @Test
    void nullErrorFieldsUnknownFieldsAndUnknownEventsAreIgnored() {
        Folded f = body()
                .event("ping", "{}")
                .data("{\"id\":\"c1\",\"error\":null,\"provider\":\"X\",\"choices\":[{\"index\":0,\"logprobs\":{\"content\":"
                        + "[{\"token\":\"a\",\"top_logprobs\":[{\"token\":\"b\"}]}]},\"delta\":{\"content\":\"a\",\"annotations\":[{}],"
                        + "\"audio\":{\"id\":\"x\"}},\"content_filter_results\":{\"hate\":{\"filtered\":false}}}],"
                        + "\"system_fingerprint\":null,\"obfuscation\":\"zz\"}")
                .finish("stop")
                .data("  [DONE]  ")
                .delta("{\"content\":\"after done\"}")
                .decode(Profiles.OPENAI).folded();

        assertThat(f.text()).isEqualTo("a");
        assertThat(f.completed).isNotNull();
    }

    @Test
    void onlyTheFirstChoiceIsRead() {
        Folded f = body()
                .data("{\"choices\":[{\"index\":1,\"delta\":{\"content\":\"other\",\"reasoning_content\":\"r\"},\"finish_reason\":\"length\"},"
                        + "{\"index\":0,\"delta\":{\"content\":\"mine\"}}]}")
                .data("{\"choices\":[{\"delta\":{\"content\":\" too\"},\"index\":1},{\"index\":0,\"delta\":{\"content\":\"!\"}}]}")
                // without an index a choice is numbered by its position
                .data("{\"choices\":[{\"delta\":{\"content\":\"?\"}},{\"delta\":{\"content\":\"no\"}}]}")
                .finish("stop").done()
                .decode(Profiles.DEEPSEEK).folded();

        assertThat(f.kinds()).isEqualTo("text");
        assertThat(f.text()).isEqualTo("mine!?");
        assertThat(f.completed.rawFinishReason()).isEqualTo("stop");
    }

    @Test
    void fieldsMayArriveInAnyOrder() {
        Folded f = body()
                .data("{\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\",\"index\":0}],\"model\":\"late-model\",\"id\":\"late-id\"}")
                .done()
                .decode(Profiles.QWEN).folded();

        assertThat(f.started).isEqualTo(new ResponseStarted("qwen", "late-model", "late-id"));
    }

    @Test
    void azuresLeadingFilterChunkDoesNotHideTheModel() {
        Folded f = body()
                .data("{\"choices\":[],\"created\":0,\"id\":\"\",\"model\":\"\",\"object\":\"\",\"prompt_filter_results\":"
                        + "[{\"prompt_index\":0,\"content_filter_results\":{\"hate\":{\"filtered\":false,\"severity\":\"safe\"}}}]}")
                .data("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Capital\"},\"finish_reason\":null,"
                        + "\"content_filter_results\":{}}],\"id\":\"chatcmpl-1\",\"model\":\"gpt-5-nano-2025-08-07\",\"obfuscation\":\"x\"}")
                .finish("stop").done()
                .decode(Profiles.OPENAI).folded();

        assertThat(f.started).isEqualTo(new ResponseStarted("openai", "gpt-5-nano-2025-08-07", "chatcmpl-1"));
        assertThat(f.text()).isEqualTo("Capital");
    }

    @Test
    void reasoningDetailsBlocksSealsAndRepeats() {
        Folded f = body()
                .delta("{\"reasoning\":\"A1\",\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\"A1\",\"format\":\"anthropic-claude-v1\",\"index\":0}]}")
                .delta("{\"reasoning_details\":[{\"type\":\"reasoning.text\",\"signature\":\"sigA\",\"index\":0},"
                        + "{\"type\":\"reasoning.text\",\"text\":\"B1\",\"index\":1}]}")
                .delta("{\"reasoning_details\":[{\"type\":\"reasoning.text\",\"signature\":\"sigB\",\"index\":1}]}")
                .delta("{\"content\":\"answer\"}")
                // the same signature again, after the text moved on: no new seal
                .delta("{\"reasoning_details\":[{\"type\":\"reasoning.text\",\"signature\":\"sigB\",\"index\":1}]}")
                // encrypted state arriving late for block 0 replaces nothing, it is new: a seal on that part
                .delta("{\"reasoning_details\":[{\"type\":\"reasoning.encrypted\",\"data\":\"ENC\",\"id\":\"rs_1\",\"index\":0}]}")
                .finish("stop").done()
                .decode(Profiles.OPENROUTER).folded();

        assertThat(f.kinds()).isEqualTo("reasoning,reasoning,text");
        Folded.PartView a = f.parts.get(0);
        Folded.PartView b = f.parts.get(1);
        assertThat(a.text()).isEqualTo("A1");
        assertThat(a.seals).containsEntry(Seal.Kind.SIGNATURE, "sigA").containsEntry(Seal.Kind.FORMAT, "anthropic-claude-v1")
                .containsEntry(Seal.Kind.ENCRYPTED, "ENC").containsEntry(Seal.Kind.ITEM_ID, "rs_1");
        assertThat(a.sealHistory).containsExactly("FORMAT@open", "SIGNATURE@open", "ENCRYPTED@ended", "ITEM_ID@ended");
        assertThat(b.text()).isEqualTo("B1");
        assertThat(b.seals).containsOnlyKeys(Seal.Kind.SIGNATURE).containsEntry(Seal.Kind.SIGNATURE, "sigB");
        assertThat(f.text()).isEqualTo("answer");
    }

    @Test
    void reasoningDetailsAreIgnoredWhenTheProfileDoesNotReadThem() {
        Folded f = body()
                .delta("{\"reasoning\":\"plain\",\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\"plain\",\"signature\":\"s\"}]}")
                .finish("stop").done()
                .decode(Profiles.VLLM).folded();

        assertThat(f.reasoning()).isEqualTo("plain");
        assertThat(f.only(REASONING).seals).isEmpty();
        assertThat(f.only(REASONING).sources).containsExactly("reasoning");
    }

    @Test
    void summaryDetailsAreSummaries() {
        Folded f = body()
                .delta("{\"reasoning_details\":[{\"type\":\"reasoning.summary\",\"summary\":\"**Plan**\",\"format\":\"openai-responses-v1\",\"index\":0}]}")
                .finish("stop").done()
                .decode(Profiles.OPENROUTER).folded();

        assertThat(f.only(REASONING).summary).isTrue();
        assertThat(f.reasoning()).isEqualTo("**Plan**");
    }

    @Test
    void refusalIsAnswerText() {
        Folded f = body().delta("{\"content\":null,\"refusal\":\"I can't help with that.\"}").finish("stop").done()
                .decode(Profiles.OPENAI).folded();

        assertThat(f.text()).isEqualTo("I can't help with that.");
    }

    @Test
    void theOperatorHonoursBackpressureAndCancellation() {
        Body stream = body();
        for (int i = 0; i < 50; i++) {
            stream.delta("{\"content\":\"" + i + "\"}");
        }
        stream.finish("stop").done();
        AtomicBoolean cancelled = new AtomicBoolean();
        Flux<ChatEvent> events = Flux.fromIterable(stream.events).doOnCancel(() -> cancelled.set(true))
                .transform(ChatCompletionsCodec.streamDecoder(Profiles.OPENAI));

        StepVerifier.create(events, 0)
                .expectSubscription()
                .thenRequest(2)
                .expectNext(new ResponseStarted("openai", "m1", "c1"), new ContentDelta(0, "0"))
                .thenRequest(1)
                .expectNext(new ContentDelta(0, "1"))
                .thenCancel()
                .verify(Duration.ofSeconds(5));
        assertThat(cancelled).isTrue();
    }

    @Test
    void eachSubscriptionDecodesAfresh() {
        Flux<ChatEvent> events = Flux.fromIterable(body().delta("{\"content\":\"x\"}").finish("stop").done().events)
                .transform(ChatCompletionsCodec.streamDecoder(Profiles.OPENAI));

        List<ChatEvent> first = events.collectList().block(Duration.ofSeconds(5));
        List<ChatEvent> second = events.collectList().block(Duration.ofSeconds(5));
        assertThat(second).isEqualTo(first).hasSize(4);
    }
}
