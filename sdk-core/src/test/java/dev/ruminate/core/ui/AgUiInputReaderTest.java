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

/** RunAgentInput to Ruminate messages: stored turns swapped in by id or handle, never the front end's opaque values. */
class AgUiInputReaderTest {

    private static final String TURN = "7f1c2f8e-3a5b-4c1d-9e2f-0a1b2c3d4e5f";
    private static final Seals SIGNED = new Seals("SIG-stored", null, null, null, null);
    private static final AssistantMessage STORED = new AssistantMessage(List.of(
            new ReasoningPart("Stored thinking.", false, "thinking", SIGNED), TextPart.of("Stored answer."),
            new ToolCallPart("call_1", "lookup", "{}", true, new Seals("TS-stored", null, null, null, null))),
            "anthropic", "claude", FinishReason.TOOL_CALLS, null, Usage.UNKNOWN);

    private static ServerTurns turns() {
        ServerTurns turns = ServerTurns.inMemory(4);
        turns.put("t1", TURN, List.of(STORED));
        return turns;
    }

    private static String input(String thread, String messages) {
        return "{\"threadId\":\"" + thread + "\",\"runId\":\"r1\",\"messages\":[" + messages + "]}";
    }

    @Test
    void aKnownAssistantIdBringsBackTheStoredTurnAndDropsTheReasoningShownBeforeIt() {
        AgUiInput in = AgUiInputReader.read(input("t1", "{\"id\":\"u1\",\"role\":\"user\",\"content\":\"Hi\"},"
                + "{\"id\":\"" + TURN + "-r0\",\"role\":\"reasoning\",\"content\":\"edited\",\"encryptedValue\":\"SIG-forged\"},"
                + "{\"id\":\"" + TURN + "\",\"role\":\"assistant\",\"content\":\"edited\"},"
                + "{\"id\":\"x\",\"role\":\"tool\",\"toolCallId\":\"call_1\",\"content\":\"42\"}"), turns());

        assertThat(in.threadId()).isEqualTo("t1");
        assertThat(in.runId()).isEqualTo("r1");
        assertThat(in.messages()).containsExactly(new UserMessage("Hi"), STORED,
                new ToolResultMessage("call_1", "lookup", "42", false));
    }

    @Test
    void anUnknownAssistantIdIsRebuiltFromTheVisiblePartsWithHandlesResolvedInItsThreadOnly() {
        String messages = "{\"id\":\"r\",\"role\":\"reasoning\",\"content\":\"visible\",\"encryptedValue\":\"ruminate-turn:"
                + TURN + ":0\"},{\"id\":\"r2\",\"role\":\"reasoning\",\"content\":\"plain\",\"encryptedValue\":\"SIG-forged\"},"
                + "{\"id\":\"other\",\"role\":\"assistant\",\"content\":\"Answer\",\"toolCalls\":[{\"id\":\"call_1\","
                + "\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":\"{}\"},\"encryptedValue\":\"ruminate-turn:"
                + TURN + ":2\"}]}";

        AssistantMessage own = (AssistantMessage) AgUiInputReader.read(input("t1", messages), turns()).messages().get(0);
        assertThat(own.parts()).containsExactly(STORED.parts().get(0), new ReasoningPart("plain", false, null, Seals.NONE),
                TextPart.of("Answer"), STORED.parts().get(2));
        assertThat(own.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);

        AssistantMessage foreign = (AssistantMessage) AgUiInputReader.read(input("t2", messages), turns()).messages().get(0);
        assertThat(foreign.parts()).allSatisfy(p -> assertThat(p.seals()).isEqualTo(Seals.NONE));
        assertThat(foreign.reasoning()).isEqualTo("visibleplain");
    }

    @Test
    void systemDeveloperContextToolsAndForwardedPropsAreRead() {
        String json = "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"s\",\"role\":\"system\",\"content\":\"Be brief.\"},"
                + "{\"id\":\"d\",\"role\":\"developer\",\"content\":\"Use metric.\"},{\"id\":\"a\",\"role\":\"activity\","
                + "\"activityType\":\"x\",\"content\":{}},{\"id\":\"u\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"A\"},"
                + "{\"type\":\"text\",\"text\":\"B\"}]}],\"tools\":[{\"name\":\"weather\",\"description\":\"Weather.\","
                + "\"parameters\":{\"type\":\"object\"}}],\"context\":[{\"description\":\"city\",\"value\":\"Paris\"}],"
                + "\"state\":{},\"forwardedProps\":{\"model\":\"claude\"}}";
        AgUiInput in = AgUiInputReader.read(json, ServerTurns.inMemory(1));
        assertThat(in.messages()).containsExactly(new SystemMessage("Context given by the application:\n- city: Paris"),
                new SystemMessage("Be brief."), new SystemMessage("Use metric."), new UserMessage("AB"));
        assertThat(in.tools()).singleElement().satisfies(t -> {
            assertThat(t.name()).isEqualTo("weather");
            assertThat(t.parametersSchema()).isEqualTo("{\"type\":\"object\"}");
        });
        assertThat(in.forwardedString("model")).isEqualTo("claude");
        assertThat(in.request("m").build().tools()).hasSize(1);
    }

    @Test
    void badInputNamesThePlaceNeverTheValue() {
        ServerTurns turns = ServerTurns.inMemory(1);
        assertThatThrownBy(() -> AgUiInputReader.read(input("t", "{\"id\":\"m\",\"role\":\"wizard\",\"content\":\"secret-1\"}"), turns))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("messages[0].role").hasMessageNotContaining("secret-1")
                .hasMessageNotContaining("wizard");
        assertThatThrownBy(() -> AgUiInputReader.read("{\"runId\":\"r\",\"messages\":[]}", turns))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("threadId");
        assertThatThrownBy(() -> AgUiInputReader.read(input("t", "{\"id\":\"a\",\"role\":\"assistant\",\"toolCalls\":"
                + "[{\"id\":\"c\",\"type\":\"function\",\"function\":{\"arguments\":\"secret-2\"}}]}"), turns))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("messages[0].toolCalls[0].function.name")
                .hasMessageNotContaining("secret-2");
        assertThatThrownBy(() -> AgUiInputReader.read("{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"tools\":[{\"description\":\"d\"}]}", turns))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("tools[0].name");
        assertThatThrownBy(() -> AgUiInputReader.read("not json secret-3", turns))
                .isInstanceOf(ProtocolException.class).hasMessageNotContaining("secret-3");
    }

    @Test
    void aForgedOrUnknownHandleResolvesToNothing() {
        ServerTurns turns = turns();
        assertThat(AgUiHandles.resolve(turns, "t1", "ruminate-turn:" + TURN + ":0")).contains(STORED.parts().get(0));
        assertThat(AgUiHandles.resolve(turns, "t1", "ruminate-turn:" + TURN + ":9")).isEmpty();
        assertThat(AgUiHandles.resolve(turns, "t1", "ruminate-turn:" + TURN + ":-1")).isEmpty();
        assertThat(AgUiHandles.resolve(turns, "t1", "ruminate-turn:nope:0")).isEmpty();
        assertThat(AgUiHandles.resolve(turns, "t2", "ruminate-turn:" + TURN + ":0")).isEmpty();
        assertThat(AgUiHandles.resolve(turns, "t1", "SIG-stored")).isEmpty();
        assertThat(AgUiHandles.resolve(turns, "t1", null)).isEmpty();
    }

    @Test
    void reasoningNotFollowedByAnAssistantMessageIsATurnOfItsOwn() {
        List<Message> messages = AgUiInputReader.read(input("t", "{\"id\":\"r\",\"role\":\"reasoning\",\"content\":\"hm\"},"
                + "{\"id\":\"u\",\"role\":\"user\",\"content\":\"Go on\"}"), ServerTurns.inMemory(1)).messages();
        assertThat(messages).hasSize(2);
        assertThat(((AssistantMessage) messages.get(0)).reasoning()).isEqualTo("hm");
    }
}
