package dev.ruminate.core.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.StreamTimeoutException;
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
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.testing.Seeds;
import java.time.Duration;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/** The event JSON: the documented shape of each type, round trips, the SSE form, bad input. */
class EventJsonTest {

    static LongStream seeds() {
        return Seeds.of(200);
    }

    private static void assertJson(ChatEvent e, String json) {
        assertThat(EventJson.write(e)).isEqualTo(json);
        assertThat(EventJson.read(json)).isEqualTo(e);
    }

    @Test
    void everyTypeHasItsDocumentedShapeAndReadsBack() {
        assertJson(new ResponseStarted("anthropic", "claude-sonnet-4-5", "msg_1"),
                "{\"type\":\"response.started\",\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-5\",\"response_id\":\"msg_1\"}");
        assertJson(new ResponseStarted("ollama", null, null), "{\"type\":\"response.started\",\"provider\":\"ollama\"}");
        assertJson(new ReasoningDelta(0, "Let me think", false, "thinking"),
                "{\"type\":\"reasoning.delta\",\"part\":0,\"text\":\"Let me think\",\"source\":\"thinking\"}");
        assertJson(new ReasoningDelta(2, "**Plan**", true, "summary_text"),
                "{\"type\":\"reasoning.delta\",\"part\":2,\"text\":\"**Plan**\",\"summary\":true,\"source\":\"summary_text\"}");
        assertJson(new ContentDelta(1, "Hello\n"), "{\"type\":\"content.delta\",\"part\":1,\"text\":\"Hello\\n\"}");
        assertJson(new ToolCallDelta(3, 0, "call_1", "get_weather", "{\"city\""),
                "{\"type\":\"tool_call.delta\",\"part\":3,\"tool_index\":0,\"id\":\"call_1\",\"name\":\"get_weather\","
                        + "\"arguments\":\"{\\\"city\\\"\"}");
        assertJson(new ToolCallDelta(3, 0, null, null, ":\"Paris\"}"),
                "{\"type\":\"tool_call.delta\",\"part\":3,\"tool_index\":0,\"arguments\":\":\\\"Paris\\\"}\"}");
        assertJson(new ServerToolBlock(4, "web_search_call", "ws_1", null, "{\"type\":\"web_search_call\",\"id\":\"ws_1\"}"),
                "{\"type\":\"server_tool\",\"part\":4,\"block_type\":\"web_search_call\",\"id\":\"ws_1\","
                        + "\"block\":{\"type\":\"web_search_call\",\"id\":\"ws_1\"}}");
        assertJson(new Seal(0, Seal.Kind.SIGNATURE, "EqQBCkYI"),
                "{\"type\":\"seal\",\"part\":0,\"kind\":\"signature\",\"value\":\"EqQBCkYI\"}");
        assertJson(new Seal(0, Seal.Kind.ITEM_ID, "rs_1"), "{\"type\":\"seal\",\"part\":0,\"kind\":\"item_id\",\"value\":\"rs_1\"}");
        assertJson(new PartEnded(0), "{\"type\":\"part.ended\",\"part\":0}");
        assertJson(new ReasoningFinal(0, "Let me think"), "{\"type\":\"reasoning.final\",\"part\":0,\"text\":\"Let me think\"}");
        assertJson(new UsageUpdate(new Usage(12L, 340L, 256L, null)),
                "{\"type\":\"usage\",\"input_tokens\":12,\"output_tokens\":340,\"reasoning_tokens\":256}");
        assertJson(new ResponseCompleted(FinishReason.TOOL_CALLS, "tool_use"),
                "{\"type\":\"response.completed\",\"finish_reason\":\"tool_calls\",\"raw_finish_reason\":\"tool_use\"}");
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomEventsRoundTripOnOneLine(long seed) {
        Samples samples = new Samples(seed);
        for (int i = 0; i < 20; i++) {
            ChatEvent e = samples.event();
            String json = EventJson.write(e);
            assertThat(json).doesNotContain("\n").doesNotContain("\r").contains("\"type\":\"" + EventJson.type(e) + "\"");
            assertThat(EventJson.read(json)).as(json).isEqualTo(e);
        }
    }

    @Test
    void aPrettyPrintedProviderBlockIsWrittenOnOneLine() {
        ServerToolBlock block = new ServerToolBlock(0, "executableCode", null, null, "{\n  \"code\": \"print(1)\"\n}");
        String json = EventJson.write(block);
        assertThat(json).isEqualTo("{\"type\":\"server_tool\",\"part\":0,\"block_type\":\"executableCode\","
                + "\"block\":{\"code\":\"print(1)\"}}");
    }

    @Test
    void toSseNamesEachFrameByTypeAndLeavesOutOpaqueStateByDefault() {
        Flux<ChatEvent> events = Flux.just(new ResponseStarted("anthropic", "m", null),
                new ReasoningDelta(0, "hmm", false, "thinking"), new Seal(0, Seal.Kind.SIGNATURE, "SECRET-SIG"),
                new PartEnded(0), new ContentDelta(1, "Hi"), new ResponseCompleted(FinishReason.STOP, "end_turn"));
        StepVerifier.create(EventJson.toSse(events))
                .expectNext(new SseFrame("response.started", "{\"type\":\"response.started\",\"provider\":\"anthropic\",\"model\":\"m\"}"))
                .expectNext(new SseFrame("reasoning.delta", "{\"type\":\"reasoning.delta\",\"part\":0,\"text\":\"hmm\",\"source\":\"thinking\"}"))
                .expectNext(new SseFrame("part.ended", "{\"type\":\"part.ended\",\"part\":0}"))
                .expectNext(new SseFrame("content.delta", "{\"type\":\"content.delta\",\"part\":1,\"text\":\"Hi\"}"))
                .expectNext(new SseFrame("response.completed",
                        "{\"type\":\"response.completed\",\"finish_reason\":\"stop\",\"raw_finish_reason\":\"end_turn\"}"))
                .verifyComplete();
        StepVerifier.create(EventJson.toSse(events, ProviderState.INCLUDE).map(SseFrame::event))
                .expectNext("response.started", "reasoning.delta", "seal", "part.ended", "content.delta", "response.completed")
                .verifyComplete();
    }

    @Test
    void responseStartedCarriesItsOriginInTheServerFormOnly() {
        ResponseStarted started = new ResponseStarted("openai", "gpt-5", "resp_1")
                .withOrigin(new Origin("openai", "responses", "api.openai.com/v1", "0123456789abcdef"));

        String stored = EventJson.write(started);

        assertThat(stored).isEqualTo("{\"type\":\"response.started\",\"provider\":\"openai\",\"model\":\"gpt-5\","
                + "\"response_id\":\"resp_1\",\"origin\":{\"provider\":\"openai\",\"api\":\"responses\","
                + "\"endpoint\":\"api.openai.com/v1\",\"account\":\"0123456789abcdef\"}}");
        assertThat(EventJson.read(stored)).isEqualTo(started);
        StepVerifier.create(EventJson.toSse(Flux.just(started)).map(SseFrame::data))
                .expectNext("{\"type\":\"response.started\",\"provider\":\"openai\",\"model\":\"gpt-5\",\"response_id\":\"resp_1\"}")
                .verifyComplete();
        StepVerifier.create(EventJson.toSse(Flux.just(started), ProviderState.INCLUDE).map(SseFrame::data))
                .expectNext(stored)
                .verifyComplete();
    }

    @Test
    void theClientFormWritesServerToolEventsWithoutTheirBlock() {
        ServerToolBlock block = new ServerToolBlock(2, "web_search_tool_result", "srvtoolu_1", null,
                "{\"type\":\"web_search_tool_result\",\"content\":[{\"encrypted_content\":\"EqgfCioIARgB\"}]}");
        StepVerifier.create(EventJson.toSse(Flux.just(block)))
                .expectNext(new SseFrame("server_tool", "{\"type\":\"server_tool\",\"part\":2,"
                        + "\"block_type\":\"web_search_tool_result\",\"id\":\"srvtoolu_1\"}"))
                .verifyComplete();
        StepVerifier.create(EventJson.toSse(Flux.just(block), ProviderState.INCLUDE).map(SseFrame::data))
                .expectNextMatches(data -> data.contains("EqgfCioIARgB") && EventJson.read(data).equals(block))
                .verifyComplete();
    }

    @Test
    void toSsePassesUpstreamErrorsOn() {
        IllegalStateException boom = new IllegalStateException("boom");
        StepVerifier.create(EventJson.toSse(Flux.concat(Flux.just(new ContentDelta(0, "a")), Flux.error(boom))))
                .expectNextMatches(f -> f.event().equals("content.delta"))
                .verifyErrorSatisfies(e -> assertThat(e).isSameAs(boom));
    }

    @Test
    void sseFrameTextIsTheWireForm() {
        assertThat(new SseFrame("part.ended", "{\"type\":\"part.ended\",\"part\":0}").text())
                .isEqualTo("event: part.ended\ndata: {\"type\":\"part.ended\",\"part\":0}\n\n");
        assertThatThrownBy(() -> new SseFrame("x", "a\nb")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unknownPropertiesAreIgnoredAndUnknownFinishReasonsReadAsOther() {
        assertThat(EventJson.read("{\"type\":\"part.ended\",\"part\":1,\"added_later\":{\"x\":[1]}}")).isEqualTo(new PartEnded(1));
        assertThat(EventJson.read("{\"type\":\"response.completed\",\"finish_reason\":\"yielded\"}"))
                .isEqualTo(new ResponseCompleted(FinishReason.OTHER, null));
        // paused was such a value until FinishReason.PAUSED came (Anthropic's pause_turn)
        assertThat(EventJson.read("{\"type\":\"response.completed\",\"finish_reason\":\"paused\",\"raw_finish_reason\":\"pause_turn\"}"))
                .isEqualTo(new ResponseCompleted(FinishReason.PAUSED, "pause_turn"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "{", "{\"type\":\"part.ended\",\"part\":1", "[1,2]", "\"seal\"", "null",
        "{\"type\":\"part.ended\",\"part\":1} {}", "{\"type\":\"seal\",\"value\":\"sk-SECRET\"} trailing"})
    void malformedOrNonObjectInputIsATypedErrorThatQuotesNothing(String json) {
        assertThatThrownBy(() -> EventJson.read(json))
                .isInstanceOf(ProtocolException.class)
                .satisfies(e -> assertThat(((ProtocolException) e).reason())
                        .isIn(ProtocolException.Reason.MALFORMED_JSON, ProtocolException.Reason.UNEXPECTED_SHAPE))
                .hasMessageNotContaining("SECRET")
                .hasNoCause();
    }

    @Test
    void wrongShapesNameTheFieldButNeverItsValue() {
        assertShape("{\"part\":1}", "type is required");
        assertShape("{\"type\":\"sk-SECRET-TYPE\"}", "unknown event type");
        assertShape("{\"type\":\"part.ended\",\"part\":-1}", "part must be between 0");
        assertShape("{\"type\":\"part.ended\",\"part\":\"sk-SECRET\"}", "part must be an integer, was a string");
        assertShape("{\"type\":\"part.ended\",\"part\":1.5}", "part must be an integer, not integral");
        assertShape("{\"type\":\"part.ended\",\"part\":123456789012345678901234567890}", "part must be an integer, out of range");
        assertShape("{\"type\":\"part.ended\",\"part\":12345678901}", "part must be between 0 and");
        assertShape("{\"type\":\"content.delta\",\"part\":0}", "text is required");
        assertShape("{\"type\":\"seal\",\"part\":0,\"kind\":\"sk-SECRET\",\"value\":\"v\"}", "kind must be one of");
        assertShape("{\"type\":\"seal\",\"part\":0,\"kind\":\"signature\",\"value\":7}", "value must be a string, was a number");
        assertShape("{\"type\":\"server_tool\",\"part\":0,\"block_type\":\"x\",\"block\":\"sk-SECRET\"}",
                "block must be an object, was a string");
        assertShape("{\"type\":\"reasoning.delta\",\"part\":0,\"text\":\"t\",\"summary\":\"yes\"}", "summary must be a boolean");
    }

    /** Found by WireJsonReadersFuzzTest: the event's own refusal escaped as an IllegalArgumentException. */
    @Test
    void aValueTheEventRefusesIsAShapeErrorToo() {
        assertShape("{\"type\":\"warning\",\"code\":\"\",\"message\":\"sk-SECRET\"}", "an event has a value its type does not accept");
    }

    private static void assertShape(String json, String expected) {
        assertThatThrownBy(() -> EventJson.read(json))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining(expected)
                .hasMessageNotContaining("SECRET")
                .satisfies(e -> assertThat(((ProtocolException) e).reason()).isEqualTo(ProtocolException.Reason.UNEXPECTED_SHAPE));
    }

    @Test
    void anUpstreamErrorEndsTheClientStreamWithOneFailedFrame() {
        Flux<ChatEvent> events = Flux.concat(
                Flux.just(new ReasoningDelta(0, "hm", false, "thinking"), new ContentDelta(1, "Hi")),
                Flux.error(new StreamTimeoutException(StreamTimeoutException.Phase.FIRST_EVENT, Duration.ofSeconds(30))));

        StepVerifier.create(EventJson.toSseForClient(events))
                .expectNextMatches(f -> f.event().equals("reasoning.delta"))
                .expectNextMatches(f -> f.event().equals("content.delta"))
                .expectNext(new SseFrame("response.failed",
                        "{\"type\":\"response.failed\",\"error\":{\"type\":\"timeout\",\"message\":\"first event timeout after PT30S\","
                                + "\"retryable\":true}}"))
                .verifyComplete();
    }

    @Test
    void aFailureThatIsNotOursIsWrittenWithoutItsText() {
        SseFrame frame = EventJson.errorFrame(new IllegalStateException("db password SECRET at /internal/path"));

        assertThat(frame.data()).isEqualTo(
                "{\"type\":\"response.failed\",\"error\":{\"type\":\"internal\",\"message\":\"the stream failed\",\"retryable\":false}}");
    }
}
