package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.transport.wire.EventStreamMessage;
import dev.ruminate.transport.wire.EventStreams;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The Bedrock script writes real event-stream frames that the SDK's own decoder accepts, in Bedrock's event order. */
class BedrockScriptTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static List<EventStreamMessage> decode(byte[] body) {
        return EventStreams.decode(Flux.just(Unpooled.wrappedBuffer(body))).collectList().block();
    }

    private static String summary(EventStreamMessage m) {
        JsonNode payload = JSON.readTree(m.payload());
        return m.headerText(":event-type") + (payload.has("delta") ? ":" + payload.get("delta").propertyNames().iterator().next() : "");
    }

    @Test
    void writesBedrocksEventOrderWithCheckedFrames() {
        byte[] body = BedrockScript.create()
                .reasoning("Need weather.", "sig-1")
                .redacted("UmVkYWN0ZWQ=")
                .text("Sunny")
                .toolUse("tooluse_1", "weather", "{\"city\":\"Paris\"}")
                .stopReason("tool_use")
                .usage(5, 6)
                .tokensOf(8)
                .toEventStream();

        List<EventStreamMessage> messages = decode(body);

        assertThat(messages).extracting(BedrockScriptTest::summary).containsExactly(
                "messageStart",
                "contentBlockDelta:reasoningContent", "contentBlockDelta:reasoningContent",
                "contentBlockDelta:reasoningContent", "contentBlockStop",
                "contentBlockDelta:reasoningContent", "contentBlockStop",
                "contentBlockDelta:text", "contentBlockStop",
                "contentBlockStart", "contentBlockDelta:toolUse", "contentBlockDelta:toolUse", "contentBlockStop",
                "messageStop", "metadata");
        assertThat(messages).allSatisfy(m -> {
            assertThat(m.headerText(":message-type")).isEqualTo("event");
            assertThat(m.headerText(":content-type")).isEqualTo("application/json");
            assertThat(JSON.readTree(m.payload()).has("p")).as("Bedrock's padding field").isTrue();
        });
        assertThat(JSON.readTree(messages.get(3).payload()).at("/delta/reasoningContent/signature").asString()).isEqualTo("sig-1");
        assertThat(JSON.readTree(messages.get(9).payload()).at("/start/toolUse/toolUseId").asString()).isEqualTo("tooluse_1");
        assertThat(JSON.readTree(messages.get(13).payload()).get("stopReason").asString()).isEqualTo("tool_use");
        assertThat(JSON.readTree(messages.get(14).payload()).at("/usage/totalTokens").asLong()).isEqualTo(11);
    }

    @Test
    void cutsTextByCodePointsNeverInsideASurrogatePair() {
        List<EventStreamMessage> messages = decode(BedrockScript.create().text("a😀b😀").tokensOf(1).toEventStream());
        assertThat(messages.subList(1, 5)).extracting(m -> JSON.readTree(m.payload()).at("/delta/text").asString())
                .containsExactly("a", "😀", "b", "😀");
    }

    @Test
    void canEndWithAnExceptionOrWithoutStop() {
        List<EventStreamMessage> failed = decode(BedrockScript.create().text("x")
                .exceptionAtEnd("throttlingException", "Slow \"down\"").toEventStream());
        EventStreamMessage last = failed.get(failed.size() - 1);
        assertThat(last.headerText(":message-type")).isEqualTo("exception");
        assertThat(last.headerText(":exception-type")).isEqualTo("throttlingException");
        assertThat(JSON.readTree(last.payload()).get("message").asString()).isEqualTo("Slow \"down\"");

        List<EventStreamMessage> cut = decode(BedrockScript.create().text("x").withoutStop().toEventStream());
        assertThat(cut.get(cut.size() - 1).headerText(":event-type")).isEqualTo("contentBlockStop");
    }

    @Test
    void aCorruptedPayloadFailsTheMessageChecksum() {
        byte[] frame = EventStreamFrames.event("contentBlockDelta", "{\"contentBlockIndex\":0}");
        StepVerifier.create(EventStreams.decode(Flux.just(Unpooled.wrappedBuffer(EventStreamFrames.corruptPayload(frame)))))
                .expectErrorSatisfies(e -> assertThat(((ProtocolException) e).reason())
                        .isEqualTo(ProtocolException.Reason.CHECKSUM_MISMATCH))
                .verify();
    }

    @Test
    void theConverseBodyHoldsTheSameBlocks() {
        JsonNode body = JSON.readTree(BedrockScript.create().reasoning("R", "s").redacted("D").text("T")
                .toolUse("id", "f", "{\"a\":1}").usage(1, 2).toConverseJson());
        JsonNode content = body.at("/output/message/content");
        assertThat(content.toString()).isEqualTo("[{\"reasoningContent\":{\"reasoningText\":{\"text\":\"R\",\"signature\":\"s\"}}},"
                + "{\"reasoningContent\":{\"redactedContent\":\"D\"}},{\"text\":\"T\"},"
                + "{\"toolUse\":{\"toolUseId\":\"id\",\"name\":\"f\",\"input\":{\"a\":1}}}]");
        assertThat(body.get("stopReason").asString()).isEqualTo("end_turn");
        assertThat(body.at("/usage/outputTokens").asLong()).isEqualTo(2);
    }
}
