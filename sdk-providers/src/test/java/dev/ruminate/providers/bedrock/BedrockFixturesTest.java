package dev.ruminate.providers.bedrock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.ReasoningVerdict;
import dev.ruminate.transport.wire.EventStreams;
import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Recorded;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every Bedrock Converse recording decodes and reduces to what the recording holds, checked by
 * reading it: the expectations below were taken from the files, and the signatures and redacted
 * blobs are compared with the recording's own bytes, read independently.
 */
class BedrockFixturesTest {

    static final String MODEL = "us.anthropic.claude-sonnet-4-20250514-v1:0";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    static List<ChatEvent> decodeStream(byte[] body) {
        return EventStreams.decode(Flux.just(Unpooled.wrappedBuffer(body)))
                .transform(BedrockCodec.streamDecoder("bedrock", MODEL))
                .collectList().block();
    }

    static ChatResult reduce(List<ChatEvent> events) {
        return ChatReducer.defaults().reduce(Flux.fromIterable(events)).block();
    }

    @Test
    void theRecordedRedactedStreamReducesToTwoRedactedBlocksAndTheAnswer() {
        String path = "bedrock/pydantic-bedrock-claude-redacted-reasoning-stream";
        List<ChatEvent> events = decodeStream(Recorded.bytes(path + ".eventstream"));
        Folded folded = Folded.of(events);
        assertThat(folded.kinds()).isEqualTo("reasoning,reasoning,text");

        ChatResult result = reduce(events);
        AssistantMessage m = result.message();
        List<String> redacted = new ArrayList<>();
        for (String line : Recorded.text(path + ".jsonl").strip().split("\n")) {
            JsonNode delta = JSON.readTree(line).path("contentBlockDelta").path("delta").path("reasoningContent");
            if (delta.has("redactedContent")) {
                redacted.add(delta.get("redactedContent").asString());
            }
        }
        assertThat(redacted).hasSize(2);
        ReasoningPart first = (ReasoningPart) m.parts().get(0);
        ReasoningPart second = (ReasoningPart) m.parts().get(1);
        assertThat(first.text()).isEmpty();
        assertThat(first.seals().redacted()).isEqualTo(redacted.get(0)).hasSize(1080).startsWith("RXRrRUNrZ0");
        assertThat(second.seals().redacted()).isEqualTo(redacted.get(1)).hasSize(752).endsWith("lBUT09");
        assertThat(m.text()).hasSize(359).startsWith("I notice you've sent what appears to be ")
                .endsWith(" you like to talk about today?");
        assertThat(m.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(m.rawFinishReason()).isEqualTo("end_turn");
        assertThat(m.usage()).isEqualTo(new Usage(92L, 253L, null, null));
        assertThat(m.model()).isEqualTo(MODEL);
        assertThat(result.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.UNAVAILABLE);
    }

    /** One non-streaming recording and what it holds. */
    record Body(String file, String kinds, String stop, long input, long output, int reasoningChars, String reasoningStart,
                int signatureChars, int textChars, String textEnd) {
    }

    static Stream<Arguments> bodies() {
        return Stream.of(
                new Body("pydantic-bedrock-claude-adaptive-effort.turn1.json", "reasoning,text", "end_turn", 14, 280,
                        84, "The user is asking a simple, everyday question abo", 376, 988, " crossing without a crosswalk?"),
                new Body("pydantic-bedrock-claude-reasoning-multiturn.turn1.json", "reasoning,text", "end_turn", 42, 313,
                        195, "This is a straightforward question about crossing ", 496, 1151, "ollow traffic rules perfectly."),
                new Body("pydantic-bedrock-claude-reasoning-multiturn.turn2.json", "reasoning,text", "end_turn", 334, 432,
                        382, "The human is asking about crossing a river, using ", 744, 1443, "or wait for better conditions!"),
                new Body("pydantic-bedrock-claude-reasoning-tool-use.turn1.json", "reasoning,text,tool", "tool_use", 397, 130,
                        306, "The user is asking for the largest city in their c", 252, 68, " from to answer that question."),
                new Body("pydantic-bedrock-claude-reasoning-tool-use.turn2.json", "text", "end_turn", 539, 106,
                        0, "", 0, 457, " it was known as Tenochtitlán."),
                new Body("pydantic-bedrock-claude-redacted-reasoning-multiturn.turn1.json", "reasoning,text", "end_turn", 92, 176,
                        0, "", 0, 388, "th tasks within my guidelines."),
                new Body("pydantic-bedrock-claude-redacted-reasoning-multiturn.turn2.json", "reasoning,text", "end_turn", 182, 258,
                        0, "", 0, 669, " tasks within my capabilities."),
                new Body("pydantic-bedrock-qwen-reasoning.turn1.json", "reasoning", "end_turn", 15, 55,
                        227, "\nOkay, the user wants me to reply with the single ", 0, 0, ""),
                new Body("pydantic-bedrock-qwen-reasoning.turn2.json", "reasoning,text", "end_turn", 39, 166,
                        734, "\nOkay, the user is asking me to reply with the sin", 0, 4, "\n\nok"),
                new Body("vercel-bedrock-converse-reasoning-signature.json", "reasoning,text", "end_turn", 51, 78,
                        76, "Let me count the r's in \"strawberry\":\n\ns-t-r-a-w-b", 336, 63, "awbe**r****r**y")
        ).map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bodies")
    void eachRecordedBodyReducesToWhatItHolds(Body b) {
        byte[] body = Recorded.bytes("bedrock/" + b.file());
        List<ChatEvent> events = BedrockCodec.decodeResponse("bedrock", MODEL, body).collectList().block();
        assertThat(Folded.of(events).kinds()).isEqualTo(b.kinds());
        ChatResult result = reduce(events);
        AssistantMessage m = result.message();
        JsonNode content = JSON.readTree(body).path("output").path("message").path("content");

        assertThat(m.rawFinishReason()).isEqualTo(b.stop());
        assertThat(m.usage().inputTokens()).isEqualTo(b.input());
        assertThat(m.usage().outputTokens()).isEqualTo(b.output());
        assertThat(m.usage().reasoningTokens()).isNull();
        assertThat(m.text()).hasSize(b.textChars()).endsWith(b.textEnd());
        for (int i = 0; i < m.parts().size(); i++) {
            Part part = m.parts().get(i);
            JsonNode wire = content.get(i);
            if (part instanceof ReasoningPart r) {
                JsonNode rc = wire.path("reasoningContent");
                if (rc.has("redactedContent")) {
                    assertThat(r.seals().redacted()).isEqualTo(rc.get("redactedContent").asString());
                    assertThat(r.text()).isEmpty();
                } else {
                    assertThat(r.text()).isEqualTo(rc.path("reasoningText").path("text").asString())
                            .hasSize(b.reasoningChars()).startsWith(b.reasoningStart());
                    assertThat(r.source()).isEqualTo("reasoningContent");
                    JsonNode signature = rc.path("reasoningText").path("signature");
                    assertThat(r.seals().signature()).isEqualTo(signature.isMissingNode() ? null : signature.asString());
                    assertThat(signature.isMissingNode() ? 0 : signature.asString().length()).isEqualTo(b.signatureChars());
                }
            } else if (part instanceof TextPart t) {
                assertThat(t.text()).isEqualTo(wire.get("text").asString());
            } else if (part instanceof ToolCallPart c) {
                assertThat(c.id()).isEqualTo(wire.path("toolUse").path("toolUseId").asString());
                assertThat(c.name()).isEqualTo(wire.path("toolUse").path("name").asString());
                assertThat(JSON.readTree(c.arguments())).isEqualTo(wire.path("toolUse").path("input"));
                assertThat(c.argumentsValid()).isTrue();
            }
        }
        boolean hasReasoningText = m.parts().stream().anyMatch(p -> p instanceof ReasoningPart r && !r.text().isEmpty());
        assertThat(result.reasoningCheck().verdict())
                .isEqualTo(hasReasoningText ? ReasoningVerdict.MATCHED : ReasoningVerdict.UNAVAILABLE);
    }

    @Test
    void theToolUseRecordingFinishesForTools() {
        byte[] body = Recorded.bytes("bedrock/pydantic-bedrock-claude-reasoning-tool-use.turn1.json");
        AssistantMessage m = reduce(BedrockCodec.decodeResponse("bedrock", MODEL, body).collectList().block()).message();
        assertThat(m.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(m.toolCalls()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("get_user_country");
            assertThat(c.arguments()).isEqualTo("{}");
        });
    }

    @Test
    void everyBedrockRecordingIsCovered() {
        assertThat(Recorded.under("bedrock", ".json")).extracting(p -> p.substring("bedrock/".length()))
                .containsExactlyInAnyOrderElementsOf(bodies().map(a -> ((Body) a.get()[0]).file()).toList());
        assertThat(Recorded.under("bedrock", ".eventstream")).hasSize(1);
    }
}
