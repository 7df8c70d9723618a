package dev.ruminate.gateway.provenance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.gateway.route.ReasoningToBackend;
import dev.ruminate.gateway.state.SealedState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Provenance: which turns are the backend's own, what is restored, what is stripped, and how foreign reasoning goes. */
class ProvenanceTest {

    private static final Provenance.Target CLAUDE = new Provenance.Target("claude", "anthropic", ReasoningToBackend.FIELD);
    private static final Instant NOW = Instant.parse("2026-11-25T00:00:00Z");

    private static Seals seals(@Nullable String signature, @Nullable String encrypted, @Nullable String itemId) {
        return new Seals(signature, null, encrypted, itemId, null);
    }

    private static AssistantMessage clientTurn(Part... parts) {
        return new AssistantMessage(List.of(parts), null, null, FinishReason.STOP, null, Usage.UNKNOWN);
    }

    private static AssistantMessage only(List<Message> conversation) {
        return (AssistantMessage) conversation.stream().filter(AssistantMessage.class::isInstance).findFirst().orElseThrow();
    }

    private static boolean anySeal(AssistantMessage a) {
        return a.parts().stream().anyMatch(p -> !p.seals().isEmpty());
    }

    @Test
    void sealedStateForThisBackendRestoresTheOriginalsWithTheirSignature() {
        ReasoningPart original = new ReasoningPart("the model's own thinking", false, "thinking", seals("SIG==", null, null));
        SealedState state = new SealedState("claude", "anthropic", "claude-sonnet-4", NOW, List.of(original));
        AssistantMessage sent = clientTurn(
                new ReasoningPart("the model's own thinking", false, "reasoning_text", seals(null, "gw1.blob", "rs_1")),
                new TextPart("Answer", seals(null, null, "msg_1")));

        AssistantMessage out = only(Provenance.relabel(List.of(Message.user("Q"), sent), CLAUDE, Map.of("gw1.blob", state)));

        assertThat(out.provider()).isEqualTo("anthropic");
        assertThat(out.model()).isEqualTo("claude-sonnet-4");
        assertThat(out.parts()).containsExactly(original, TextPart.of("Answer"));
    }

    @Test
    void everyEntryOfASealedItemIsReplacedOnce() {
        ReasoningPart a = new ReasoningPart("first", true, "summary", seals("S1", null, null));
        ReasoningPart b = new ReasoningPart("second", true, "summary", seals("S2", null, null));
        SealedState state = new SealedState("claude", "anthropic", null, NOW, List.of(a, b));
        AssistantMessage sent = clientTurn(
                new ReasoningPart("first", true, "summary_text", seals(null, "gw1.blob", "rs_1")),
                new ReasoningPart("second", true, "summary_text", seals(null, null, "rs_1")),
                TextPart.of("Answer"));

        AssistantMessage out = only(Provenance.relabel(List.of(sent), CLAUDE, Map.of("gw1.blob", state)));

        assertThat(out.parts()).containsExactly(a, b, TextPart.of("Answer"));
    }

    @Test
    void aStateOnlyItemGivesToolCallsAndTextTheirSignaturesBack() {
        ToolCallPart signedCall = new ToolCallPart(null, "get_country", "{}", true, seals("THOUGHT-SIG", null, null));
        TextPart signedText = new TextPart("Mexico City", seals("TEXT-SIG", null, null));
        SealedState state = new SealedState("gemini-3", "gemini", null, NOW, List.of(signedCall, signedText));
        Provenance.Target gemini = new Provenance.Target("gemini-3", "gemini", ReasoningToBackend.FIELD);
        AssistantMessage sent = clientTurn(
                new ToolCallPart("call_fc_1", "get_country", "{}", true, seals(null, null, "fc_1")),
                TextPart.of("Mexico City"),
                new ReasoningPart("", false, null, seals(null, "gw1.state", "rs_state")));

        AssistantMessage out = only(Provenance.relabel(List.of(sent), gemini, Map.of("gw1.state", state)));

        assertThat(out.provider()).isEqualTo("gemini");
        assertThat(out.parts()).containsExactly(
                new ToolCallPart("call_fc_1", "get_country", "{}", true, seals("THOUGHT-SIG", null, null)), signedText);
    }

    @Test
    void aToolCallIsMatchedByItsCallIdFirst() {
        ToolCallPart original = new ToolCallPart("call_2", "f", "{\"a\":2}", true, seals("SIG2", null, null));
        SealedState state = new SealedState("gemini-3", "gemini", null, NOW, List.of(original));
        Provenance.Target gemini = new Provenance.Target("gemini-3", "gemini", ReasoningToBackend.FIELD);
        AssistantMessage sent = clientTurn(
                new ToolCallPart("call_1", "f", "{\"a\":1}", true, Seals.NONE),
                new ToolCallPart("call_2", "f", "{\"a\":2}", true, Seals.NONE),
                new ReasoningPart("", false, null, seals(null, "gw1.state", "rs_state")));

        AssistantMessage out = only(Provenance.relabel(List.of(sent), gemini, Map.of("gw1.state", state)));

        assertThat(out.toolCalls()).extracting(c -> c.seals().signature()).containsExactly(null, "SIG2");
    }

    private static final Provenance.Target GEMINI = new Provenance.Target("gemini-3", "gemini", ReasoningToBackend.FIELD);

    private static AssistantMessage relabelWithState(Part original, Part... clientParts) {
        SealedState state = new SealedState("gemini-3", "gemini", null, NOW, List.of(original));
        List<Part> parts = new ArrayList<>(List.of(clientParts));
        parts.add(new ReasoningPart("", false, null, seals(null, "gw1.state", "rs_state")));
        return only(Provenance.relabel(List.of(clientTurn(parts.toArray(Part[]::new))), GEMINI, Map.of("gw1.state", state)));
    }

    @Test
    void aCallTheClientChangedKeepsTheClientsArgumentsAndGetsItsSealsByCallId() {
        AssistantMessage out = relabelWithState(new ToolCallPart("call_2", "f", "{\"a\":2}", true, seals("SIG2", null, null)),
                new ToolCallPart("call_2", "f", "{\"a\":3}", true, Seals.NONE));

        assertThat(out.toolCalls()).containsExactly(new ToolCallPart("call_2", "f", "{\"a\":3}", true, seals("SIG2", null, null)));
    }

    @Test
    void aCallWhoseArgumentsWereReSerializedGoesAsTheBackendsOriginal() {
        ToolCallPart original = new ToolCallPart(null, "f", "{\"a\":1,\"b\":[1,2]}", true, seals("SIG", null, null));
        AssistantMessage out = relabelWithState(original,
                new ToolCallPart("call_fc_1", "f", "{ \"b\": [1, 2], \"a\": 1 }", true, Seals.NONE));

        assertThat(out.toolCalls()).containsExactly(
                new ToolCallPart("call_fc_1", "f", "{\"a\":1,\"b\":[1,2]}", true, seals("SIG", null, null)));
    }

    @Test
    void aChangedCallWithoutABackendIdGetsTheSealsOfTheStateItemRightAfterIt() {
        AssistantMessage out = relabelWithState(new ToolCallPart(null, "get_country", "{}", true, seals("SIG", null, null)),
                new ToolCallPart("call_fc_0", "other", "{}", true, Seals.NONE),
                new ToolCallPart("call_fc_1", "get_country", "{\"country\":\"France\"}", true, Seals.NONE));

        assertThat(out.toolCalls()).containsExactly(new ToolCallPart("call_fc_0", "other", "{}", true, Seals.NONE),
                new ToolCallPart("call_fc_1", "get_country", "{\"country\":\"France\"}", true, seals("SIG", null, null)));
    }

    @Test
    void aTextTheClientChangedGetsNoSeals() {
        AssistantMessage out = relabelWithState(new TextPart("Mexico City", seals("TEXT-SIG", null, null)),
                TextPart.of("Paris"));

        assertThat(out.parts()).containsExactly(TextPart.of("Paris"));
    }

    @Test
    void stateSealedForAnotherRouteIsStrippedAndItsReadableReasoningIsForeign() {
        SealedState elsewhere = new SealedState("deepseek-reasoner", "deepseek", null, NOW,
                List.of(new ReasoningPart("R", false, "reasoning_content", Seals.NONE)));
        AssistantMessage sent = clientTurn(new ReasoningPart("R", false, "reasoning_text", seals(null, "gw1.ds", "rs_1")),
                TextPart.of("A"));
        Provenance.Target tags = new Provenance.Target("r1", "openai-compatible", ReasoningToBackend.TAGS);

        AssistantMessage out = only(Provenance.relabel(List.of(sent), tags, Map.of("gw1.ds", elsewhere)));

        assertThat(out.parts()).containsExactly(TextPart.of("<think>\nR\n</think>\n\n"), TextPart.of("A"));
        assertThat(out.provider()).isEqualTo("openai-compatible");
    }

    @Test
    void stateSealedForTheSameRouteButAnotherProviderIsForeign() {
        SealedState other = new SealedState("claude", "bedrock", null, NOW,
                List.of(new ReasoningPart("R", false, "thinking", seals("BEDROCK-SIG", null, null))));
        AssistantMessage sent = clientTurn(new ReasoningPart("R", false, "reasoning_text", seals(null, "gw1.b", "rs_1")),
                TextPart.of("A"));

        AssistantMessage out = only(Provenance.relabel(List.of(sent), CLAUDE, Map.of("gw1.b", other)));

        assertThat(anySeal(out)).isFalse();
        assertThat(out.parts()).containsExactly(new ReasoningPart("R", false, "reasoning_text", Seals.NONE), TextPart.of("A"));
    }

    @Test
    void tagsWrapConsecutiveReasoningInOneBlockBeforeTheAnswer() {
        AssistantMessage sent = clientTurn(new ReasoningPart("first", true, "summary_text", Seals.NONE),
                new ReasoningPart("\nsecond\n", true, "summary_text", Seals.NONE), TextPart.of("Answer"),
                new ReasoningPart("later", false, null, Seals.NONE), TextPart.of("More"));
        Provenance.Target tags = new Provenance.Target("r1", "chutes", ReasoningToBackend.TAGS);

        AssistantMessage out = only(Provenance.relabel(List.of(sent), tags, Map.of()));

        assertThat(out.text()).isEqualTo("<think>\nfirst\n\n\nsecond\n</think>\n\nAnswer<think>\nlater\n</think>\n\nMore");
        assertThat(out.parts()).noneMatch(ReasoningPart.class::isInstance);
    }

    @Test
    void onATagRouteTheBackendsOwnRestoredReasoningGoesBackAsTagsToo() {
        SealedState own = new SealedState("r1", "chutes", null, NOW,
                List.of(new ReasoningPart("\nmine\n", false, "tags", Seals.NONE)));
        AssistantMessage sent = clientTurn(new ReasoningPart("mine", false, "reasoning_text", seals(null, "gw1.own", "rs_1")),
                TextPart.of("Answer"));
        Provenance.Target tags = new Provenance.Target("r1", "chutes", ReasoningToBackend.TAGS);

        AssistantMessage out = only(Provenance.relabel(List.of(sent), tags, Map.of("gw1.own", own)));

        assertThat(out.text()).isEqualTo("<think>\nmine\n</think>\n\nAnswer");
    }

    @Test
    void fieldKeepsForeignReasoningWithoutAnySeal() {
        AssistantMessage sent = clientTurn(new ReasoningPart("R", false, "reasoning_text", seals("client-sig", "gAAAA", "rs_x")),
                new TextPart("A", seals("text-sig", null, "msg_x")),
                new ToolCallPart("call_1", "f", "{}", true, seals("call-sig", null, "fc_x")));
        Provenance.Target deepseek = new Provenance.Target("ds", "deepseek", ReasoningToBackend.FIELD);

        AssistantMessage out = only(Provenance.relabel(List.of(sent), deepseek, Map.of()));

        assertThat(out.provider()).isEqualTo("deepseek");
        assertThat(out.parts()).containsExactly(new ReasoningPart("R", false, "reasoning_text", Seals.NONE),
                TextPart.of("A"), new ToolCallPart("call_1", "f", "{}", true, Seals.NONE));
    }

    @Test
    void dropRemovesForeignReasoning() {
        AssistantMessage sent = clientTurn(new ReasoningPart("R", false, null, Seals.NONE), TextPart.of("A"));
        Provenance.Target drop = new Provenance.Target("m", "p", ReasoningToBackend.DROP);

        assertThat(only(Provenance.relabel(List.of(sent), drop, Map.of())).parts()).containsExactly(TextPart.of("A"));
    }

    @Test
    void unsealedReasoningInAnOwnTurnIsForeign() {
        SealedState state = new SealedState("claude", "anthropic", null, NOW,
                List.of(new ReasoningPart("signed", false, "thinking", seals("SIG", null, null))));
        AssistantMessage sent = clientTurn(new ReasoningPart("signed", false, null, seals(null, "gw1.s", "rs_1")),
                new ReasoningPart("client wrote this", false, null, seals("forged", null, "rs_2")), TextPart.of("A"));

        AssistantMessage out = only(Provenance.relabel(List.of(sent), CLAUDE, Map.of("gw1.s", state)));

        assertThat(out.parts()).containsExactly(new ReasoningPart("signed", false, "thinking", seals("SIG", null, null)),
                new ReasoningPart("client wrote this", false, null, Seals.NONE), TextPart.of("A"));
    }

    @Test
    void aTurnLeftEmptyIsDroppedAndServerToolBlocksGo() {
        AssistantMessage sent = clientTurn(new ReasoningPart("", false, null, seals(null, "not-ours", "rs_1")),
                new ServerToolPart("web_search_call", "ws_1", null, "{}", Seals.NONE));

        List<Message> out = Provenance.relabel(List.of(Message.user("Q"), sent, Message.user("Q2")), CLAUDE, Map.of());

        assertThat(out).containsExactly(Message.user("Q"), Message.user("Q2"));
    }

    @Test
    void turnsThatNameAProviderAndOtherMessagesPassUnchanged() {
        AssistantMessage labelled = new AssistantMessage(List.of(new ReasoningPart("R", false, null, seals("S", null, null))),
                "anthropic", null, FinishReason.STOP, null, Usage.UNKNOWN);
        List<Message> in = List.of(Message.system("sys"), new UserMessage("Q"), labelled, Message.toolResult("c", "r"));

        assertThat(Provenance.relabel(in, CLAUDE, Map.of())).isEqualTo(in);
    }

    /** Property: without a sealed state of its own, no turn keeps any opaque value, whatever the client sent. */
    @ParameterizedTest
    @EnumSource(ReasoningToBackend.class)
    void nothingOpaqueTheClientMadeIsEverForwarded(ReasoningToBackend mode) {
        Provenance.Target target = new Provenance.Target("m", "p", mode);
        for (long seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            List<Part> parts = new ArrayList<>();
            int n = 1 + random.nextInt(6);
            for (int i = 0; i < n; i++) {
                Seals s = seals(random.nextBoolean() ? "sig" + i : null, random.nextBoolean() ? "enc" + i : null,
                        random.nextBoolean() ? "id" + i : null);
                parts.add(switch (random.nextInt(4)) {
                    case 0 -> new ReasoningPart(random.nextBoolean() ? "" : "r" + i, random.nextBoolean(), null, s);
                    case 1 -> new TextPart("t" + i, s);
                    case 2 -> new ToolCallPart("c" + i, "f", "{}", true, s);
                    default -> new ServerToolPart("x", null, null, "{}", s);
                });
            }
            AssistantMessage sent = new AssistantMessage(parts, null, null, FinishReason.STOP, null, Usage.UNKNOWN);
            // an opened state for another backend changes nothing
            Map<String, SealedState> opened = Map.of("enc0", new SealedState("other", "p", null, NOW,
                    List.of(new ReasoningPart("x", false, null, seals("other-sig", null, null)))));

            for (Message m : Provenance.relabel(List.of(sent), target, opened)) {
                AssistantMessage a = (AssistantMessage) m;
                assertThat(anySeal(a)).as("seed %d", seed).isFalse();
                assertThat(a.provider()).isEqualTo("p");
                assertThat(a.parts()).noneMatch(ServerToolPart.class::isInstance);
                if (mode != ReasoningToBackend.FIELD) {
                    assertThat(a.parts()).noneMatch(ReasoningPart.class::isInstance);
                }
            }
        }
    }
}
