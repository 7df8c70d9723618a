package dev.ruminate.core.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.PromptCaching;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryTest {

    private static final Seals SIGNED = Seals.NONE.with(Seal.Kind.SIGNATURE, "sig-A");

    private static AssistantMessage turn(String provider, Part... parts) {
        return new AssistantMessage(List.of(parts), provider, "m", FinishReason.STOP, null, Usage.UNKNOWN);
    }

    private static ReasoningPart reasoning(String text, Seals seals) {
        return new ReasoningPart(text, false, "thinking", seals);
    }

    @Test
    void theTargetsOwnTurnsPassUnchangedUnderRetentionAll() {
        List<Message> conversation = List.of(Message.user("q"),
                turn("anthropic", reasoning("r", SIGNED), new TextPart("a", Seals.NONE)), Message.user("q2"));
        assertThat(History.prepare(conversation, "anthropic", HistoryPolicy.DEFAULT, Retention.ALL))
                .isEqualTo(conversation);
    }

    @Test
    void anotherProvidersOpaqueStateNeverCrossesAndItsReasoningIsDroppedByDefault() {
        AssistantMessage anthropic = turn("anthropic",
                reasoning("thought", SIGNED),
                reasoning("", Seals.NONE.with(Seal.Kind.REDACTED, "blob")),
                new ServerToolPart("web_search_tool_result", "srvtoolu_1", null, "{}", Seals.NONE),
                new TextPart("answer", SIGNED),
                new ToolCallPart("call_1", "f", "{}", true, SIGNED));
        List<Message> prepared = History.prepare(List.of(Message.user("q"), anthropic), "gemini", HistoryPolicy.DEFAULT,
                Retention.ALL);

        assertThat(((AssistantMessage) prepared.get(1)).parts()).containsExactly(
                new TextPart("answer", Seals.NONE),
                new ToolCallPart("call_1", "f", "{}", true, Seals.NONE));
    }

    @Test
    void anotherProvidersReasoningCanTravelAsTaggedTextInPlace() {
        AssistantMessage deepseek = turn("deepseek", reasoning("step one", Seals.NONE), new TextPart("done", Seals.NONE));
        HistoryPolicy tagged = HistoryPolicy.DEFAULT.withForeignReasoning(ForeignReasoning.AS_TAGGED_TEXT);

        List<Message> prepared = History.prepare(List.of(Message.user("q"), deepseek), "anthropic", tagged, Retention.ALL);

        assertThat(((AssistantMessage) prepared.get(1)).parts()).containsExactly(
                new TextPart("<think>\nstep one\n</think>\n\n", Seals.NONE), new TextPart("done", Seals.NONE));
    }

    @Test
    void toolLoopRetentionKeepsReasoningOnlyAfterTheLastUserMessage() {
        AssistantMessage older = turn("anthropic", reasoning("old", SIGNED), new TextPart("old answer", Seals.NONE));
        AssistantMessage calling = turn("anthropic", reasoning("new", SIGNED), new ToolCallPart("t", "f", "{}", true, Seals.NONE));
        List<Message> conversation = List.of(Message.user("q1"), older, Message.user("q2"), calling,
                new ToolResultMessage("t", "f", "42", false));

        List<Message> prepared = History.prepare(conversation, "anthropic", HistoryPolicy.DEFAULT, Retention.TOOL_LOOP);

        assertThat(((AssistantMessage) prepared.get(1)).parts()).containsExactly(new TextPart("old answer", Seals.NONE));
        assertThat(prepared.get(3)).isSameAs(calling);
        assertThat(History.currentToolLoopStart(conversation)).isEqualTo(3);
    }

    @Test
    void droppingATurnsReasoningAlsoDropsTheSignaturesOnItsCallsButKeepsItemIds() {
        Seals callSeals = Seals.NONE.with(Seal.Kind.SIGNATURE, "gemini-sig").with(Seal.Kind.ITEM_ID, "fc_1");
        AssistantMessage older = turn("gemini", new ToolCallPart("c", "f", "{}", true, callSeals),
                new TextPart("done", Seals.NONE.with(Seal.Kind.SIGNATURE, "text-sig")));
        List<Message> conversation = List.of(Message.user("q1"), older, Message.user("q2"));

        AssistantMessage prepared = (AssistantMessage) History.prepare(conversation, "gemini", HistoryPolicy.DEFAULT,
                Retention.TOOL_LOOP).get(1);

        assertThat(prepared.parts()).containsExactly(
                new ToolCallPart("c", "f", "{}", true, Seals.NONE.with(Seal.Kind.ITEM_ID, "fc_1")),
                new TextPart("done", Seals.NONE));
    }

    @Test
    void noRetentionDropsAllReasoningAndTurnsLeftEmpty() {
        AssistantMessage onlyThinking = turn("bedrock", reasoning("", Seals.NONE.with(Seal.Kind.REDACTED, "x")));
        AssistantMessage mixed = turn("bedrock", reasoning("r", SIGNED), new TextPart("a", Seals.NONE));
        List<Message> conversation = List.of(Message.user("q"), onlyThinking, Message.user("again"), mixed);

        List<Message> prepared = History.prepare(conversation, "bedrock",
                HistoryPolicy.DEFAULT.withRetention(Retention.NONE), Retention.ALL);

        assertThat(prepared).hasSize(3);
        assertThat(((AssistantMessage) prepared.get(2)).parts()).containsExactly(new TextPart("a", Seals.NONE));
    }

    @Test
    void aCacheBreakpointFollowsItsMessageWhenAnEarlierTurnIsDroppedAndGoesWithADroppedOne() {
        AssistantMessage onlyThinking = turn("bedrock", reasoning("", Seals.NONE.with(Seal.Kind.REDACTED, "x")));
        AssistantMessage mixed = turn("bedrock", reasoning("r", SIGNED), new TextPart("a", Seals.NONE));
        List<Message> conversation = List.of(Message.user("q"), onlyThinking, Message.user("again"), mixed);
        // breakpoints on the dropped turn (1), on the user message after it (2) and on the last turn (3)
        ChatRequest request = ChatRequest.builder("m").messages(conversation)
                .caching(PromptCaching.NONE.withMessages(List.of(1, 2, 3))).build();

        ChatRequest prepared = History.prepare(request, "bedrock",
                HistoryPolicy.DEFAULT.withRetention(Retention.NONE), Retention.ALL);

        assertThat(prepared.messages()).hasSize(3);
        assertThat(prepared.messages().get(1)).isEqualTo(Message.user("again"));
        // "again" moved from 2 to 1 and the last turn from 3 to 2; the dropped turn's breakpoint is gone
        assertThat(prepared.caching().messages()).containsExactly(1, 2);
    }

    @Test
    void theProvidersDefaultAppliesWhenThePolicyNamesNoRetention() {
        List<Message> conversation = List.of(Message.user("q1"), turn("x", reasoning("r", SIGNED), new TextPart("a", Seals.NONE)),
                Message.user("q2"));
        assertThat(((AssistantMessage) History.prepare(conversation, "x", HistoryPolicy.DEFAULT, Retention.TOOL_LOOP).get(1))
                .parts()).hasSize(1);
        assertThat(((AssistantMessage) History.prepare(conversation, "x",
                HistoryPolicy.DEFAULT.withRetention(Retention.ALL), Retention.TOOL_LOOP).get(1)).parts()).hasSize(2);
    }

    @Test
    void aTurnWithoutAProviderIsTakenAsTheTargets() {
        AssistantMessage handMade = new AssistantMessage(List.of(reasoning("r", SIGNED)), null, null, FinishReason.STOP, null,
                Usage.UNKNOWN);
        assertThat(History.prepare(List.of(Message.user("q"), handMade), "anthropic", HistoryPolicy.DEFAULT, Retention.ALL))
                .containsExactly(Message.user("q"), handMade);
        assertThat(History.isForeign(handMade, "anthropic")).isFalse();
    }
}
