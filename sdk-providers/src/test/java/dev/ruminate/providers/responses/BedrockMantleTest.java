package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.testing.Recorded;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bedrock's OpenAI-compatible endpoint ("Mantle"): its streams carry no {@code event:} lines and put
 * {@code type} after the payload, and nobody tuned the decoder for them. The three recorded turns
 * of one tool loop reduce to what they hold, and turn 3's request, rebuilt from turns 1 and 2, sends
 * turn 2's encrypted reasoning item back before its call, as the accepted request did.
 */
class BedrockMantleTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PREFIX = "bedrock/pydantic-bedrock-mantle-reused-tool-call-ids-stream.";

    private static AssistantMessage turn(int n) {
        ChatResult result = Responses.reduce(Responses.stream(ResponsesProfiles.BEDROCK,
                Recorded.sse(PREFIX + "turn" + n + ".sse")).folded().events);
        return result.message();
    }

    /** The encrypted content the turn's {@code output_item.done} line carries for its reasoning item. */
    private static String encryptedInDone(int n) {
        for (String line : Recorded.text(PREFIX + "turn" + n + ".sse").split("\n")) {
            if (line.startsWith("data: ") && line.contains("\"response.output_item.done\"")) {
                JsonNode item = JSON.readTree(line.substring(6)).get("item");
                if ("reasoning".equals(item.get("type").asString())) {
                    return item.get("encrypted_content").asString();
                }
            }
        }
        throw new AssertionError("no reasoning item in turn " + n);
    }

    @Test
    void eachTurnReducesToWhatTheRecordingHolds() {
        AssistantMessage first = turn(1);
        assertThat(first.model()).isEqualTo("openai.gpt-5.6-luna");
        assertThat(first.parts()).singleElement().isInstanceOf(ToolCallPart.class);
        assertThat(first.toolCalls().get(0).name()).isEqualTo("first_tool");
        assertThat(first.toolCalls().get(0).id()).isEqualTo("call_0");
        assertThat(first.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(first.usage()).isEqualTo(new Usage(88L, 14L, 0L, 0L));

        AssistantMessage second = turn(2);
        ReasoningPart reasoning = (ReasoningPart) second.parts().get(0);
        assertThat(reasoning.text()).isEmpty();
        assertThat(reasoning.seals().encrypted()).isEqualTo(encryptedInDone(2)).startsWith("rsn_");
        assertThat(reasoning.seals().itemId()).isEqualTo("rs_4a4c74f82a535c8f8bda7d43b75d75f7");
        assertThat(second.toolCalls()).singleElement().satisfies(c -> assertThat(c.name()).isEqualTo("second_tool"));
        assertThat(second.usage()).isEqualTo(new Usage(115L, 30L, 14L, 0L));

        AssistantMessage third = turn(3);
        assertThat(((ReasoningPart) third.parts().get(0)).seals().encrypted()).isEqualTo(encryptedInDone(3));
        assertThat(third.text()).isEqualTo("First tool result: `first result`\n\nSecond tool result: `second result`");
        assertThat(third.finishReason()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void turnThreeSendsTurnTwosReasoningItemBackBeforeItsCallAsAccepted() {
        JsonNode accepted = JSON.readTree(Recorded.bytes("sendback/bedrock/" + PREFIX.substring("bedrock/".length())
                + "turn3.request.json"));
        AssistantMessage first = turn(1);
        AssistantMessage second = turn(2);
        List<Message> conversation = new ArrayList<>();
        conversation.add(Message.user("Follow the tool instructions."));
        conversation.add(first);
        conversation.add(Message.toolResult(first.toolCalls().get(0).id(), "first result"));
        conversation.add(second);
        conversation.add(Message.toolResult(second.toolCalls().get(0).id(), "second result"));
        ChatRequest request = ChatRequest.builder("openai.gpt-5.6-luna").messages(conversation).build();

        JsonNode sent = JSON.readTree(new String(ResponsesCodec.encodeRequest(ResponsesProfiles.BEDROCK, request, true),
                StandardCharsets.UTF_8));

        List<String> sentTypes = new ArrayList<>();
        sent.get("input").forEach(item -> sentTypes.add(item.path("type").asString("message")));
        List<String> acceptedTypes = new ArrayList<>();
        accepted.get("input").forEach(item -> acceptedTypes.add(item.path("type").asString("message")));
        assertThat(sentTypes).isEqualTo(acceptedTypes);
        JsonNode sentReasoning = sent.get("input").get(3);
        JsonNode acceptedReasoning = accepted.get("input").get(3);
        assertThat(sentReasoning.get("id")).isEqualTo(acceptedReasoning.get("id"));
        assertThat(sentReasoning.get("encrypted_content")).isEqualTo(acceptedReasoning.get("encrypted_content"));
        assertThat(sentReasoning.get("summary")).isEqualTo(acceptedReasoning.get("summary"));
        assertThat(sent.get("input").get(4).get("id")).isEqualTo(accepted.get("input").get(4).get("id"));
        assertThat(sent.get("include")).isEqualTo(accepted.get("include"));
    }
}
