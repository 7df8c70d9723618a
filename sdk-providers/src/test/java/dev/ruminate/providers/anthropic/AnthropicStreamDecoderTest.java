package dev.ruminate.providers.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ServerToolBlock;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SseSplitter;
import dev.ruminate.testkit.AnthropicScript;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** The stream decoder on scripted streams: event order, stop reasons and every failure it types. */
class AnthropicStreamDecoderTest {

    private static final String SIG1 = "EqQBCkYIBxgCKkB/sig+one==";
    private static final String SIG2 = "ErUBCkYIBxgCKkA/sig+two==";

    private static Flux<ChatEvent> decode(String sse) {
        return Flux.fromIterable(SseSplitter.split(sse)).transform(AnthropicCodec.streamDecoder());
    }

    /** Thinking, a tool call, thinking again after it, another call: one message, as interleaved thinking gives. */
    private static AnthropicScript interleaved() {
        return AnthropicScript.create()
                .id("msg_int").model("claude-sonnet-4-5")
                .thinking("I need the weather.", SIG1)
                .toolUse("toolu_01", "weather", "{\"city\":\"Paris\"}")
                .thinking("Now the time.", SIG2)
                .toolUse("toolu_02", "time", "{\"tz\":\"CET\"}")
                .text("Checking both.")
                .stopReason("tool_use")
                .usage(472, 190)
                .tokensOf(100);
    }

    @Test
    void interleavedThinkingKeepsItsOrderEventByEvent() {
        StepVerifier.create(decode(interleaved().toSse()))
                .expectNext(new ResponseStarted("anthropic", "claude-sonnet-4-5", "msg_int"))
                .expectNext(new UsageUpdate(new Usage(472L, 1L, null, null)))
                .expectNext(new ReasoningDelta(0, "I need the weather.", false, "thinking"))
                .expectNext(new Seal(0, Seal.Kind.SIGNATURE, SIG1))
                .expectNext(new PartEnded(0))
                .expectNext(new ToolCallDelta(1, 0, "toolu_01", "weather", ""))
                .expectNext(new ToolCallDelta(1, 0, null, null, "{\"city\":\"Paris\"}"))
                .expectNext(new PartEnded(1))
                .expectNext(new ReasoningDelta(2, "Now the time.", false, "thinking"))
                .expectNext(new Seal(2, Seal.Kind.SIGNATURE, SIG2))
                .expectNext(new PartEnded(2))
                .expectNext(new ToolCallDelta(3, 1, "toolu_02", "time", ""))
                .expectNext(new ToolCallDelta(3, 1, null, null, "{\"tz\":\"CET\"}"))
                .expectNext(new PartEnded(3))
                .expectNext(new ContentDelta(4, "Checking both."))
                .expectNext(new PartEnded(4))
                .expectNext(new UsageUpdate(new Usage(null, 190L, null, null)))
                .expectNext(new ResponseCompleted(FinishReason.TOOL_CALLS, "tool_use"))
                .verifyComplete();
    }

    @Test
    void interleavedThinkingReducesToPartsInWireOrderWithTheirSignatures() {
        AssistantMessage m = AnthropicRecordings.reduce(decode(interleaved().tokensOf(3).toSse())).message();

        assertThat(m.parts()).hasSize(5);
        assertThat(m.parts().get(0)).isInstanceOfSatisfying(ReasoningPart.class, r -> {
            assertThat(r.text()).isEqualTo("I need the weather.");
            assertThat(r.seals().signature()).isEqualTo(SIG1);
        });
        assertThat(m.parts().get(1)).isInstanceOfSatisfying(ToolCallPart.class, c -> {
            assertThat(c.id()).isEqualTo("toolu_01");
            assertThat(c.arguments()).isEqualTo("{\"city\":\"Paris\"}");
            assertThat(c.argumentsValid()).isTrue();
        });
        assertThat(m.parts().get(2)).isInstanceOfSatisfying(ReasoningPart.class, r -> {
            assertThat(r.text()).isEqualTo("Now the time.");
            assertThat(r.seals().signature()).isEqualTo(SIG2);
        });
        assertThat(m.parts().get(3)).isInstanceOf(ToolCallPart.class);
        assertThat(m.parts().get(4)).isEqualTo(TextPart.of("Checking both."));
        assertThat(m.usage()).isEqualTo(new Usage(472L, 190L, null, null));
    }

    @Test
    void interleavedThinkingAfterAServerToolAndRedactedThinking() {
        String sse = AnthropicScript.create()
                .redactedThinking("UkVEQUNURUQ=")
                .ping()
                .serverToolUse("srvtoolu_1", "web_search", "{\"query\":\"weather\"}")
                .serverToolResult("web_search_tool_result", "srvtoolu_1", "[{\"type\":\"web_search_result\",\"url\":\"https://x/y\"}]")
                .thinking("Found it.", SIG1)
                .text("Sunny.")
                .tokensOf(5)
                .toSse();

        StepVerifier.create(decode(sse).filter(e -> !(e instanceof UsageUpdate)))
                .expectNextMatches(ResponseStarted.class::isInstance)
                .expectNext(new Seal(0, Seal.Kind.REDACTED, "UkVEQUNURUQ="))
                .expectNext(new PartEnded(0))
                .expectNext(new ServerToolBlock(1, "server_tool_use", "srvtoolu_1", "web_search",
                        "{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{\"query\":\"weather\"}}"))
                .expectNext(new PartEnded(1))
                .expectNext(new ServerToolBlock(2, "web_search_tool_result", "srvtoolu_1", null,
                        "{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_1\","
                                + "\"content\":[{\"type\":\"web_search_result\",\"url\":\"https://x/y\"}]}"))
                .expectNext(new PartEnded(2))
                .expectNext(new ReasoningDelta(3, "Found", false, "thinking"))
                .expectNext(new ReasoningDelta(3, " it.", false, "thinking"))
                .expectNext(new Seal(3, Seal.Kind.SIGNATURE, SIG1))
                .expectNext(new PartEnded(3))
                .expectNext(new ContentDelta(4, "Sunny"), new ContentDelta(4, "."), new PartEnded(4))
                .expectNext(new ResponseCompleted(FinishReason.STOP, "end_turn"))
                .verifyComplete();
    }

    @Test
    void mcpToolUseKeepsServerNameAndAssembledInput() {
        String sse = AnthropicScript.create().mcpToolUse("mcptoolu_1", "ask", "wiki", "{\"q\":\"what\"}")
                .serverToolResult("mcp_tool_result", "mcptoolu_1", "[{\"type\":\"text\",\"text\":\"an answer\"}]")
                .tokensOf(2).toSse();

        AssistantMessage m = AnthropicRecordings.reduce(decode(sse)).message();

        assertThat(m.parts()).extracting(p -> ((ServerToolPart) p).json()).containsExactly(
                "{\"type\":\"mcp_tool_use\",\"id\":\"mcptoolu_1\",\"name\":\"ask\",\"input\":{\"q\":\"what\"},\"server_name\":\"wiki\"}",
                "{\"type\":\"mcp_tool_result\",\"tool_use_id\":\"mcptoolu_1\",\"content\":[{\"type\":\"text\",\"text\":\"an answer\"}]}");
    }

    @Test
    void omittedThinkingIsASignedPartWithoutText() {
        Folded f = Recorded.run(decode(AnthropicScript.create().omittedThinking(SIG1).text("Hi").toSse())).folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertThat(f.parts.get(0).text()).isEmpty();
        assertThat(f.parts.get(0).seals).containsEntry(Seal.Kind.SIGNATURE, SIG1);
    }

    @Test
    void aToolWithoutInputGetsAnEmptyObject() {
        Folded f = Recorded.run(decode(AnthropicScript.create().toolUse("toolu_1", "now", "").stopReason("tool_use").toSse()))
                .folded();

        assertThat(f.only(Folded.Kind.TOOL).text()).isEqualTo("{}");
    }

    @Test
    void aToolUseWhoseStartCarriesItsInputSendsItAsArguments() {
        String sse = """
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_1","model":"m","usage":{"input_tokens":1}}}

                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_9","name":"f","input":{"a": [1, {"b": "c"}]}}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":0}

                event: message_stop
                data: {"type":"message_stop"}
                """;

        Folded f = Recorded.run(decode(sse)).folded();

        assertThat(f.only(Folded.Kind.TOOL).text()).isEqualTo("{\"a\": [1, {\"b\": \"c\"}]}");
        assertThat(f.only(Folded.Kind.TOOL).deltas).isEqualTo(1);
        assertThat(f.completed.finishReason()).isEqualTo(FinishReason.OTHER);
        assertThat(f.completed.rawFinishReason()).isNull();
    }

    @ParameterizedTest
    @CsvSource({"end_turn,STOP", "stop_sequence,STOP", "max_tokens,LENGTH", "tool_use,TOOL_CALLS",
            "refusal,CONTENT_FILTER", "pause_turn,PAUSED", "model_context_window_exceeded,LENGTH",
            "something_new,OTHER"})
    void stopReasonsAreNormalizedAndKeptRaw(String raw, FinishReason expected) {
        Folded f = Recorded.run(decode(AnthropicScript.create().text("x").stopReason(raw).toSse())).folded();

        assertThat(f.completed).isEqualTo(new ResponseCompleted(expected, raw));
    }

    @Test
    void citationsDeltasAndUnknownEventsAreIgnored() {
        String sse = """
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_1","model":"m"}}

                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"citations":[],"type":"text","text":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","url":"u"}}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"cited"}}

                event: brand_new_event
                data: {"type":"brand_new_event","what":{"ever":[1,2]}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"brand_new_delta","x":1}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":0}

                event: message_stop
                data: {"type":"message_stop"}

                event: message_delta
                data: {"type":"message_delta","delta":{"stop_reason":"end_turn"}}
                """;

        Folded f = Recorded.run(decode(sse)).folded();

        assertThat(f.kinds()).isEqualTo("text");
        assertThat(f.text()).isEqualTo("cited");
    }

    @Test
    void anErrorEventMidStreamFailsWithTheProvidersErrorAndKeepsThePartial() {
        String sse = AnthropicScript.create().thinking("Let me", SIG1).text("Part").error("overloaded_error", "Overloaded").toSse();

        StepVerifier.create(decode(sse))
                // started, usage, two thinking deltas, seal, end, text delta, end
                .expectNextCount(8)
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(ProviderStreamException.class);
                    ProviderStreamException p = (ProviderStreamException) e;
                    assertThat(p.provider()).isEqualTo("anthropic");
                    assertThat(p.error().type()).isEqualTo("overloaded_error");
                    assertThat(p.error().message()).isEqualTo("Overloaded");
                    assertThat(p.isRetryable()).isTrue();
                })
                .verify();
        RuminateException reduced = reduceFailure(decode(sse));
        assertThat(reduced).isInstanceOf(ProviderStreamException.class);
        assertThat(reduced.partial()).isNotNull();
        assertThat(reduced.partial().reasoning()).isEqualTo("Let me");
        assertThat(reduced.partial().text()).isEqualTo("Part");
    }

    @Test
    void anInvalidRequestErrorEventIsNotRetryable() {
        String sse = AnthropicScript.create().error("invalid_request_error", "bad").toSse();

        RuminateException e = reduceFailure(decode(sse));

        assertThat(e).isInstanceOf(ProviderStreamException.class);
        assertThat(e.isRetryable()).isFalse();
        assertThat(e.getMessage()).contains("invalid_request_error").contains("bad");
    }

    @Test
    void aStreamCutBeforeMessageStopIsIncompleteWithThePartialMessage() {
        String sse = AnthropicScript.create().thinking("Half a thought", SIG1).text("Half an answ").stop(false).toSse();

        RuminateException e = reduceFailure(decode(sse));

        assertThat(e).isInstanceOf(IncompleteStreamException.class).hasMessageContaining("message_stop");
        AssistantMessage partial = e.partial();
        assertThat(partial).isNotNull();
        assertThat(partial.reasoning()).isEqualTo("Half a thought");
        assertThat(((ReasoningPart) partial.parts().get(0)).seals().signature()).isEqualTo(SIG1);
        assertThat(partial.text()).isEqualTo("Half an answ");
    }

    @Test
    void aStreamCutInsideABlockIsIncompleteToo() {
        String whole = AnthropicScript.create().text("abcdefgh").tokensOf(2).toSse();
        String cut = whole.substring(0, whole.indexOf("event: content_block_stop"));

        RuminateException e = reduceFailure(decode(cut));

        assertThat(e).isInstanceOf(IncompleteStreamException.class);
        assertThat(e.partial().text()).isEqualTo("abcdefgh");
    }

    @Test
    void anEmptyBodyIsIncompleteBeforeTheResponseStarted() {
        StepVerifier.create(decode(""))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(IncompleteStreamException.class)
                        .hasMessageContaining("before the response started"))
                .verify();
    }

    @Test
    void malformedJsonFailsWithItsLineAndOffset() {
        String sse = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\"}}\n\n"
                + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_bl\n\n";

        StepVerifier.create(decode(sse))
                .expectNextCount(1)
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(ProtocolException.class);
                    ProtocolException p = (ProtocolException) e;
                    assertThat(p.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
                    assertThat(p.line()).isEqualTo(4);
                    assertThat(p.byteOffset()).isEqualTo(sse.indexOf("event: content_block_start"));
                })
                .verify();
    }

    @Test
    void wrongShapesAreTyped() {
        String head = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\"}}\n\n";
        for (String data : List.of(
                "{\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}",
                "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":\"text\"}",
                "{\"type\":\"content_block_start\",\"index\":\"zero\",\"content_block\":{\"type\":\"text\"}}",
                "[1,2]")) {
            StepVerifier.create(decode(head + "data: " + data + "\n\n"))
                    .expectNextCount(1)
                    .expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(ProtocolException.class,
                            p -> assertThat(p.reason()).as(data).isEqualTo(ProtocolException.Reason.UNEXPECTED_SHAPE)))
                    .verify();
        }
    }

    @Test
    void aThinkingDeltaOnATextBlockIsAWrongShape() {
        String sse = """
                data: {"type":"message_start","message":{"id":"m"}}

                data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

                data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"x"}}
                """;

        StepVerifier.create(decode(sse))
                .expectNextCount(1)
                .expectErrorSatisfies(e -> assertThat(((ProtocolException) e).detail()).contains("thinking_delta for a text block"))
                .verify();
    }

    private static RuminateException reduceFailure(Flux<ChatEvent> events) {
        return ChatReducer.defaults().reduce(events)
                .flatMap(r -> Mono.<RuminateException>error(new AssertionError("the reduction succeeded: " + r)))
                .onErrorResume(RuminateException.class, Mono::just)
                .block(AnthropicEmulated.TIMEOUT);
    }
}
