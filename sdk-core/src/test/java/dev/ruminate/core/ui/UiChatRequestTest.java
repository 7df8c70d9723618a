package dev.ruminate.core.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.message.UserMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The useChat request reader: stored turns swapped in by (chat, message id), visible parts otherwise. */
class UiChatRequestTest {

    private static final AssistantMessage SIGNED = new AssistantMessage(List.of(
            new ReasoningPart("Thinking.", false, "thinking", new Seals("SIG", null, null, null, null, null)),
            TextPart.of("Answer.")), "anthropic", "claude", FinishReason.STOP, "end_turn", Usage.UNKNOWN);

    private static String body(String chatId, String assistantId) {
        return "{\"id\":\"" + chatId + "\",\"trigger\":\"submit-message\",\"messageId\":null,\"messages\":["
                + "{\"id\":\"u1\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"Hi\"}]},"
                + "{\"id\":\"" + assistantId + "\",\"role\":\"assistant\",\"parts\":[{\"type\":\"step-start\"},"
                + "{\"type\":\"reasoning\",\"text\":\"Thinking.\",\"state\":\"done\"},"
                + "{\"type\":\"text\",\"text\":\"Answer.\",\"state\":\"done\"}]},"
                + "{\"id\":\"u2\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"And?\"}]}]}";
    }

    @Test
    void aTurnTheServerIssuedIsReplacedByTheStoredOneWithItsSignature() {
        ServerTurns turns = ServerTurns.inMemory(10);
        turns.put("chat-1", "msg-a", List.of(SIGNED));

        UiChatRequest request = UiChatRequest.read(body("chat-1", "msg-a"), turns);

        assertThat(request.chatId()).isEqualTo("chat-1");
        assertThat(request.trigger()).isEqualTo("submit-message");
        assertThat(request.restored()).isEqualTo(1);
        assertThat(request.messages()).containsExactly(new UserMessage("Hi"), SIGNED, new UserMessage("And?"));
    }

    @Test
    void anotherChatCannotNameTheTurnAndGetsTheVisiblePartsWithoutState() {
        ServerTurns turns = ServerTurns.inMemory(10);
        turns.put("chat-1", "msg-a", List.of(SIGNED));

        UiChatRequest request = UiChatRequest.read(body("chat-2", "msg-a"), turns);

        assertThat(request.restored()).isZero();
        AssistantMessage visible = (AssistantMessage) request.messages().get(1);
        assertThat(visible.parts()).containsExactly(new ReasoningPart("Thinking.", false, null, Seals.NONE),
                TextPart.of("Answer."));
        assertThat(visible.toString()).doesNotContain("SIG");
    }

    @Test
    void stepsOfAnUnknownTurnBecomeMessagesWithTheirToolResults() {
        String json = "{\"id\":\"c\",\"messages\":[{\"id\":\"x\",\"role\":\"assistant\",\"parts\":["
                + "{\"type\":\"step-start\"},{\"type\":\"dynamic-tool\",\"toolName\":\"weather\",\"toolCallId\":\"call_1\","
                + "\"state\":\"output-available\",\"input\":{\"location\":\"Paris\"},\"output\":{\"sky\":\"clear\"}},"
                + "{\"type\":\"tool-lookup\",\"toolCallId\":\"call_2\",\"state\":\"output-error\",\"input\":{},"
                + "\"errorText\":\"down\"},"
                + "{\"type\":\"step-start\"},{\"type\":\"text\",\"text\":\"Sunny.\"},{\"type\":\"data-x\",\"data\":1}]},"
                + "{\"id\":\"s\",\"role\":\"system\",\"parts\":[{\"type\":\"text\",\"text\":\"Be brief.\"}]}]}";

        List<Message> messages = UiChatRequest.read(json, ServerTurns.inMemory(1)).messages();

        assertThat(messages).hasSize(5);
        AssistantMessage calls = (AssistantMessage) messages.get(0);
        assertThat(calls.parts()).containsExactly(
                new ToolCallPart("call_1", "weather", "{\"location\":\"Paris\"}", true, Seals.NONE),
                new ToolCallPart("call_2", "lookup", "{}", true, Seals.NONE));
        assertThat(calls.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(messages.get(1)).isEqualTo(new ToolResultMessage("call_1", "weather", "{\"sky\":\"clear\"}", false));
        assertThat(messages.get(2)).isEqualTo(new ToolResultMessage("call_2", "lookup", "down", true));
        assertThat(((AssistantMessage) messages.get(3)).text()).isEqualTo("Sunny.");
        assertThat(messages.get(4)).isEqualTo(new SystemMessage("Be brief."));
    }

    @Test
    void aBadBodyIsAProtocolErrorThatNamesThePlaceNeverTheValue() {
        ServerTurns turns = ServerTurns.inMemory(1);

        assertThatThrownBy(() -> UiChatRequest.read("{not json sk-SECRET", turns))
                .isInstanceOf(ProtocolException.class).hasMessageNotContaining("SECRET");
        assertThatThrownBy(() -> UiChatRequest.read("{\"messages\":[]}", turns))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("id");
        assertThatThrownBy(() -> UiChatRequest.read("{\"id\":\"c\"}", turns))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("messages");
        assertThatThrownBy(() -> UiChatRequest.read("{\"id\":\"c\",\"messages\":[{\"role\":\"robot-SECRET\",\"parts\":[]}]}",
                turns)).isInstanceOf(ProtocolException.class).hasMessageContaining("messages[0].role")
                .hasMessageNotContaining("SECRET");
        assertThatThrownBy(() -> UiChatRequest.read("{\"id\":\"c\",\"messages\":[{\"role\":\"user\",\"parts\":"
                + "[{\"type\":\"text\",\"text\":42}]}]}", turns))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("messages[0].parts[0].text");
        assertThatThrownBy(() -> UiChatRequest.read("{\"id\":\"c\",\"messages\":[{\"role\":\"user\",\"parts\":"
                + "[{\"type\":\"file\",\"url\":\"data:x\",\"mediaType\":\"image/png\"}]}]}", turns))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("messages[0].parts[0]");
    }
}
