package dev.ruminate.providers.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderStreamException;
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
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.ReasoningVerdict;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SseSplitter;
import dev.ruminate.testkit.AnthropicScript;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/** Whole (non-streaming) messages decode into the events a stream gives, with the final thinking. */
class AnthropicResponseDecoderTest {

    private static AnthropicScript script() {
        return AnthropicScript.create().id("msg_w").model("claude-x")
                .thinking("Plan it.", "sig==")
                .redactedThinking("UkVE")
                .text("Here.")
                .toolUse("toolu_1", "f", "{\"a\":1}")
                .serverToolUse("srvtoolu_1", "web_search", "{\"query\":\"q\"}")
                .serverToolResult("web_search_tool_result", "srvtoolu_1", "[]")
                .stopReason("tool_use")
                .usage(5, 6);
    }

    @Test
    void aWholeMessageGivesOneDeltaPerPartAndTheFinalThinking() {
        byte[] body = script().toMessageJson().getBytes(StandardCharsets.UTF_8);

        StepVerifier.create(AnthropicCodec.decodeMessage(body))
                .expectNext(new ResponseStarted("anthropic", "claude-x", "msg_w"))
                .expectNext(new UsageUpdate(new Usage(5L, 6L, null, null)))
                .expectNext(new ReasoningDelta(0, "Plan it.", false, "thinking"))
                .expectNext(new Seal(0, Seal.Kind.SIGNATURE, "sig=="))
                .expectNext(new ReasoningFinal(0, "Plan it."))
                .expectNext(new PartEnded(0))
                .expectNext(new Seal(1, Seal.Kind.REDACTED, "UkVE"), new PartEnded(1))
                .expectNext(new ContentDelta(2, "Here."), new PartEnded(2))
                .expectNext(new ToolCallDelta(3, 0, "toolu_1", "f", "{\"a\":1}"), new PartEnded(3))
                .expectNext(new ServerToolBlock(4, "server_tool_use", "srvtoolu_1", "web_search",
                        "{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{\"query\":\"q\"}}"))
                .expectNext(new PartEnded(4))
                .expectNext(new ServerToolBlock(5, "web_search_tool_result", "srvtoolu_1", null,
                        "{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_1\",\"content\":[]}"))
                .expectNext(new PartEnded(5))
                .expectNext(new ResponseCompleted(FinishReason.TOOL_CALLS, "tool_use"))
                .verifyComplete();
    }

    @Test
    void aWholeMessageReducesLikeItsStreamWithAVerdict() {
        AnthropicScript script = script().tokensOf(2);
        ChatResult whole = AnthropicRecordings.reduce(AnthropicCodec.decodeMessage(
                script.toMessageJson().getBytes(StandardCharsets.UTF_8)));
        ChatResult streamed = AnthropicRecordings.reduce(Flux.fromIterable(SseSplitter.split(script.toSse()))
                .transform(AnthropicCodec.streamDecoder()));

        // the stream's message_start reports one output token; the rest of the message is the same
        assertThat(whole.message().parts()).isEqualTo(streamed.message().parts());
        assertThat(whole.message().finishReason()).isEqualTo(streamed.message().finishReason());
        assertThat(whole.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.MATCHED);
        assertThat(streamed.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.UNAVAILABLE);
    }

    @Test
    void serverBlocksAfterMultiByteTextAreCutAtTheRightBytes() {
        String body = "{\"content\":[{\"type\":\"text\",\"text\":\"é中😀\"},"
                + "{\"type\":\"server_tool_use\",\"id\":\"s1\",\"name\":\"web_search\",\"input\":{\"query\": \"€→🧠\"}},"
                + "{\"type\":\"future_block\",\"data\":{\"nested\":[\"ü\"]},\"text\":7}],"
                + "\"model\":\"m\",\"id\":\"msg\",\"stop_reason\":\"end_turn\"}";

        StepVerifier.create(AnthropicCodec.decodeMessage(body.getBytes(StandardCharsets.UTF_8))
                        .ofType(ServerToolBlock.class).map(ServerToolBlock::json))
                .expectNext("{\"type\":\"server_tool_use\",\"id\":\"s1\",\"name\":\"web_search\",\"input\":{\"query\": \"€→🧠\"}}")
                .expectNext("{\"type\":\"future_block\",\"data\":{\"nested\":[\"ü\"]},\"text\":7}")
                .verifyComplete();
    }

    @Test
    void anErrorBodyIsTheProvidersError() {
        StepVerifier.create(AnthropicCodec.decodeMessage(
                        "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"Internal server error\"}}"
                                .getBytes(StandardCharsets.UTF_8)))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(ProviderStreamException.class);
                    assertThat(((ProviderStreamException) e).error().type()).isEqualTo("api_error");
                    assertThat(((ProviderStreamException) e).error().message()).isEqualTo("Internal server error");
                })
                .verify();
    }

    @Test
    void malformedAndMisshapenBodiesAreProtocolErrors() {
        StepVerifier.create(AnthropicCodec.decodeMessage("{\"content\":[{\"type\":\"text\",\"text\":\"x\"}".getBytes(StandardCharsets.UTF_8)))
                .expectErrorSatisfies(e -> assertThat(((ProtocolException) e).reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON))
                .verify();
        StepVerifier.create(AnthropicCodec.decodeMessage("{\"content\":\"text\"}".getBytes(StandardCharsets.UTF_8)))
                .expectErrorSatisfies(e -> assertThat(((ProtocolException) e).reason()).isEqualTo(ProtocolException.Reason.UNEXPECTED_SHAPE))
                .verify();
        StepVerifier.create(AnthropicCodec.decodeMessage("{\"content\":[{\"text\":\"no type\"}]}".getBytes(StandardCharsets.UTF_8)))
                .expectErrorSatisfies(e -> assertThat(((ProtocolException) e).reason()).isEqualTo(ProtocolException.Reason.UNEXPECTED_SHAPE))
                .verify();
    }

    @Test
    void theBodyIsNotModifiedAndTheFluxIsCold() {
        byte[] body = Recorded.bytes("anthropic/vercel-clear-thinking.json");
        byte[] copy = body.clone();
        Flux<?> events = AnthropicCodec.decodeMessage(body);

        assertThat(events.collectList().block()).isEqualTo(events.collectList().block());
        assertThat(body).isEqualTo(copy);
    }
}
