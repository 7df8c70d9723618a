package dev.ruminate.core.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.error.OpaqueStateException;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.Provenance;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * History's plan with hand-built provenance: endpoint and model boundaries, integrity checks under
 * STRIP and FAIL, and the decisions it records.
 */
class HistoryPlanTest {

    private static final Origin HOME = new Origin("anthropic", "anthropic-messages", "api.anthropic.com/v1", "acct-1");
    private static final String SIG_A = "EqQBCkYIBxgCKkA+/w==";
    private static final String SIG_B = "ErcBCkYIBxgCKkB0aGlz";
    private static final String REDACTED = "EmwKAhgBEgy3va3pzix/LafPsn4a";

    /** Test rules: signatures and redacted data are standard base64; the model binding is chosen. */
    private record Rules(boolean bindsToModel) implements OpaqueRules {
        @Override
        public @Nullable String problem(Part part, Seal.Kind kind, String value) {
            return kind == Seal.Kind.SIGNATURE || kind == Seal.Kind.REDACTED ? OpaqueFormats.standardBase64(value) : null;
        }
    }

    private static SendTarget target(Origin origin, @Nullable String model) {
        return new SendTarget(origin, model, new Rules(true));
    }

    private static Seals sealed(String signature, Origin origin, @Nullable String model, int block, boolean finished) {
        return Seals.NONE.with(Seal.Kind.SIGNATURE, signature).withProvenance(new Provenance(origin, model, block, finished));
    }

    private static ReasoningPart thinking(String text, Seals seals) {
        return new ReasoningPart(text, false, "thinking", seals);
    }

    private static AssistantMessage turn(Part... parts) {
        return new AssistantMessage(List.of(parts), "anthropic", "claude-sonnet-4-5-20250929", FinishReason.TOOL_CALLS, null,
                Usage.UNKNOWN);
    }

    /** A two-block signed turn made at HOME by claude-sonnet-4-5, then a text answer. */
    private static AssistantMessage homeTurn() {
        return turn(thinking("first thought", sealed(SIG_A, HOME, "claude-sonnet-4-5-20250929", 0, true)),
                thinking("", Seals.NONE.with(Seal.Kind.REDACTED, REDACTED)
                        .withProvenance(new Provenance(HOME, "claude-sonnet-4-5-20250929", 1, true))),
                thinking("second thought", sealed(SIG_B, HOME, "claude-sonnet-4-5-20250929", 2, true)),
                TextPart.of("answer"));
    }

    private static ChatRequest request(AssistantMessage turn) {
        return ChatRequest.builder("claude-sonnet-4-5").messages(List.of(Message.user("q"), turn, Message.user("next"))).build();
    }

    private static AssistantMessage preparedTurn(PreparedHistory prepared) {
        return (AssistantMessage) prepared.request().messages().get(1);
    }

    @Test
    void stateMadeAtTheSameEndpointAccountAndModelFamilyIsKeptAndTheKeepIsExplained() {
        ChatRequest request = request(homeTurn());

        PreparedHistory prepared = History.plan(request, target(HOME, "claude-sonnet-4-5"), HistoryPolicy.DEFAULT, Retention.ALL);

        assertThat(prepared.request()).isSameAs(request);
        assertThat(prepared.entries()).containsExactly(
                new PlanEntry(1, 0, "signature", PlanAction.KEEP, "boundary",
                        "same provider, API, endpoint and account; same model family"),
                new PlanEntry(1, 1, "redacted", PlanAction.KEEP, "boundary",
                        "same provider, API, endpoint and account; same model family"),
                new PlanEntry(1, 2, "signature", PlanAction.KEEP, "boundary",
                        "same provider, API, endpoint and account; same model family"));
    }

    @Test
    void valuesWithoutProvenanceAreJudgedByProviderNameOnly() {
        AssistantMessage legacy = turn(thinking("thought", Seals.NONE.with(Seal.Kind.SIGNATURE, SIG_A)), TextPart.of("a"));
        Origin elsewhere = new Origin("anthropic", "anthropic-messages", "proxy.example.com/v1", "acct-9");

        PreparedHistory prepared = History.plan(request(legacy), target(elsewhere, "claude-opus-4-5"), HistoryPolicy.DEFAULT,
                Retention.ALL);

        assertThat(preparedTurn(prepared)).isSameAs(legacy);
        assertThat(prepared.entries()).containsExactly(new PlanEntry(1, 0, "signature", PlanAction.KEEP, "boundary",
                "no provenance recorded: judged by provider name only"));
    }

    @Test
    void aTurnReplayedToAnotherEndpointLosesItsOpaqueStateAndItsReasoningIsDroppedByDefault() {
        Origin other = new Origin("anthropic", "anthropic-messages", "gateway.example.com/anthropic", "acct-1");
        AssistantMessage withServerTool = turn(thinking("first thought", sealed(SIG_A, HOME, "claude-sonnet-4-5", 0, true)),
                new ServerToolPart("web_search_tool_result", "srvtoolu_1", null, "{}", Seals.NONE),
                TextPart.of("answer"));

        PreparedHistory prepared = History.plan(request(withServerTool), target(other, "claude-sonnet-4-5"), HistoryPolicy.DEFAULT,
                Retention.ALL);

        assertThat(preparedTurn(prepared).parts()).containsExactly(TextPart.of("answer"));
        assertThat(prepared.entries()).extracting(PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(0, "signature", PlanAction.STRIP, "boundary"),
                        org.assertj.core.groups.Tuple.tuple(0, "reasoning", PlanAction.DROP, "boundary"),
                        org.assertj.core.groups.Tuple.tuple(1, "block", PlanAction.DROP, "boundary"));
        assertThat(prepared.entries().get(0).reason()).contains("api.anthropic.com/v1", "gateway.example.com/anthropic");
        assertThat(prepared.originalPart(1, 0)).isEqualTo(2);
    }

    @Test
    void aTurnReplayedToAnotherEndpointKeepsItsReasoningAsTaggedTextWhenAsked() {
        Origin other = new Origin("anthropic", "anthropic-messages", "gateway.example.com/anthropic", "acct-1");
        HistoryPolicy tagged = HistoryPolicy.DEFAULT.withForeignReasoning(ForeignReasoning.AS_TAGGED_TEXT);

        PreparedHistory prepared = History.plan(request(homeTurn()), target(other, "claude-sonnet-4-5"), tagged, Retention.ALL);

        assertThat(preparedTurn(prepared).parts()).containsExactly(
                TextPart.of("<think>\nfirst thought\n</think>\n\n"),
                TextPart.of("<think>\nsecond thought\n</think>\n\n"),
                TextPart.of("answer"));
        assertThat(prepared.entries()).filteredOn(e -> e.value().equals("reasoning")).extracting(PlanEntry::action)
                .containsExactly(PlanAction.TO_TEXT, PlanAction.DROP, PlanAction.TO_TEXT);
    }

    @Test
    void anotherAccountLosesTheStateUnlessTheAccountCheckIsOff() {
        Origin otherKey = new Origin("anthropic", "anthropic-messages", "api.anthropic.com/v1", "acct-2");

        PreparedHistory checked = History.plan(request(homeTurn()), target(otherKey, "claude-sonnet-4-5"), HistoryPolicy.DEFAULT,
                Retention.ALL);
        PreparedHistory unchecked = History.plan(request(homeTurn()), target(otherKey, "claude-sonnet-4-5"),
                HistoryPolicy.DEFAULT.withAccountCheck(false), Retention.ALL);

        assertThat(preparedTurn(checked).parts()).containsExactly(TextPart.of("answer"));
        assertThat(checked.entries().get(0).reason()).contains("another account");
        assertThat(preparedTurn(unchecked)).isEqualTo(homeTurn());
        assertThat(unchecked.entries().get(0).reason()).contains("account not checked");
    }

    @Test
    void declaredEquivalentEndpointsKeepTheStateButAccountsMustStillMatch() {
        Origin east = new Origin("azure", "responses", "east.openai.azure.com/openai/v1", "res-1");
        Origin west = new Origin("azure", "responses", "west.openai.azure.com/openai/v1", "res-1");
        Seals encrypted = Seals.NONE.with(Seal.Kind.ITEM_ID, "rs_1").with(Seal.Kind.ENCRYPTED, "gAAAA_blob")
                .withProvenance(new Provenance(east, "gpt-5", 0, true));
        AssistantMessage made = new AssistantMessage(List.of(new ReasoningPart("", true, null, encrypted), TextPart.of("a")),
                "azure", "gpt-5", FinishReason.STOP, null, Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("gpt-5").messages(List.of(Message.user("q"), made)).build();
        HistoryPolicy equivalent = HistoryPolicy.DEFAULT.withEquivalentEndpoints("east.openai.azure.com/openai/v1",
                "west.openai.azure.com/openai/v1");

        PreparedHistory byDefault = History.plan(request, new SendTarget(west, "gpt-5", OpaqueRules.LENIENT),
                HistoryPolicy.DEFAULT, Retention.ALL);
        PreparedHistory declared = History.plan(request, new SendTarget(west, "gpt-5", OpaqueRules.LENIENT), equivalent,
                Retention.ALL);
        PreparedHistory otherAccount = History.plan(request, new SendTarget(
                new Origin("azure", "responses", "west.openai.azure.com/openai/v1", "res-2"), "gpt-5", OpaqueRules.LENIENT),
                equivalent, Retention.ALL);

        assertThat(((AssistantMessage) byDefault.request().messages().get(1)).parts()).containsExactly(TextPart.of("a"));
        assertThat(declared.request()).isSameAs(request);
        assertThat(declared.entries()).extracting(PlanEntry::reason)
                .containsOnly("same provider, API, declared-equivalent endpoint and account");
        assertThat(((AssistantMessage) otherAccount.request().messages().get(1)).parts()).containsExactly(TextPart.of("a"));
    }

    @Test
    void anotherApiOfTheSameProviderLosesTheState() {
        Origin chat = new Origin("anthropic", "chat-completions", "api.anthropic.com/v1", "acct-1");

        PreparedHistory prepared = History.plan(request(homeTurn()), target(chat, "claude-sonnet-4-5"), HistoryPolicy.DEFAULT,
                Retention.ALL);

        assertThat(preparedTurn(prepared).parts()).containsExactly(TextPart.of("answer"));
        assertThat(prepared.entries().get(0).reason()).contains("anthropic-messages API");
    }

    @Test
    void aModelBoundStateGoesBackOnlyToItsModelFamilyAndAnUnknownModelIsNotCompared() {
        PreparedHistory otherFamily = History.plan(request(homeTurn()), target(HOME, "claude-opus-4-5"), HistoryPolicy.DEFAULT,
                Retention.ALL);
        PreparedHistory sameFamily = History.plan(request(homeTurn()), target(HOME, "us.anthropic.claude-sonnet-4-5-v1:0"),
                HistoryPolicy.DEFAULT, Retention.ALL);
        PreparedHistory unknownTarget = History.plan(request(homeTurn()), target(HOME, null), HistoryPolicy.DEFAULT, Retention.ALL);
        PreparedHistory alias = History.plan(request(homeTurn()), target(HOME, "claude-sonnet-latest"), HistoryPolicy.DEFAULT,
                Retention.ALL);
        PreparedHistory unbound = History.plan(request(homeTurn()), new SendTarget(HOME, "claude-opus-4-5", new Rules(false)),
                HistoryPolicy.DEFAULT, Retention.ALL);

        assertThat(preparedTurn(otherFamily).parts()).containsExactly(TextPart.of("answer"));
        assertThat(otherFamily.entries().get(0).reason()).contains("claude-sonnet-4-5", "claude-opus-4-5", "binds");
        assertThat(preparedTurn(sameFamily)).isEqualTo(homeTurn());
        assertThat(preparedTurn(unknownTarget)).isEqualTo(homeTurn());
        assertThat(unknownTarget.entries().get(0).reason()).contains("model unknown");
        assertThat(preparedTurn(alias)).isEqualTo(homeTurn());
        assertThat(preparedTurn(unbound)).isEqualTo(homeTurn());
    }

    @Test
    void aModelBoundaryKeepsTheServerToolBlocksOfTheTurn() {
        AssistantMessage made = turn(thinking("t", sealed(SIG_A, HOME, "claude-sonnet-4-5", 0, true)),
                new ServerToolPart("server_tool_use", "srvtoolu_1", "web_search", "{}", Seals.NONE), TextPart.of("a"));

        PreparedHistory prepared = History.plan(request(made), target(HOME, "claude-opus-4-5"), HistoryPolicy.DEFAULT,
                Retention.ALL);

        assertThat(preparedTurn(prepared).parts()).containsExactly(made.parts().get(1), made.parts().get(2));
    }

    @Test
    void aCorruptSignatureIsStrippedAloneItsTextStaysAsUnsignedReasoningAndTheOthersAreUntouched() {
        AssistantMessage corrupt = turn(thinking("first thought", sealed(SIG_A.replace('Q', '!'), HOME, "claude-sonnet-4-5", 0,
                        true)), homeTurn().parts().get(1), homeTurn().parts().get(2), TextPart.of("answer"));

        PreparedHistory prepared = History.plan(request(corrupt), target(HOME, "claude-sonnet-4-5"), HistoryPolicy.DEFAULT,
                Retention.ALL);

        assertThat(preparedTurn(prepared).parts()).containsExactly(
                new ReasoningPart("first thought", false, "thinking", Seals.NONE),
                homeTurn().parts().get(1), homeTurn().parts().get(2), TextPart.of("answer"));
        PlanEntry strip = prepared.entries().get(0);
        assertThat(strip).extracting(PlanEntry::turn, PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .containsExactly(1, 0, "signature", PlanAction.STRIP, "integrity");
        assertThat(strip.reason()).contains("position 2").doesNotContain(SIG_A.substring(3));
        assertThat(prepared.entries()).filteredOn(e -> e.action() == PlanAction.KEEP).hasSize(2);
    }

    @Test
    void aTruncatedOrEmptyValueIsStrippedAndARedactedBlockLeftWithNothingIsDropped() {
        AssistantMessage bad = turn(thinking("first thought", sealed(SIG_A.substring(0, 13), HOME, null, 0, true)),
                thinking("", Seals.NONE.with(Seal.Kind.REDACTED, "").withProvenance(new Provenance(HOME, null, 1, true))),
                TextPart.of("answer"));

        PreparedHistory prepared = History.plan(request(bad), target(HOME, "claude-sonnet-4-5"), HistoryPolicy.DEFAULT,
                Retention.ALL);

        assertThat(preparedTurn(prepared).parts()).containsExactly(
                new ReasoningPart("first thought", false, "thinking", Seals.NONE), TextPart.of("answer"));
        assertThat(prepared.entries()).extracting(PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::reason)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(0, "signature", PlanAction.STRIP,
                                "not padded base64: length 13 is not a multiple of 4 (truncated or cut)"),
                        org.assertj.core.groups.Tuple.tuple(1, "redacted", PlanAction.STRIP, "empty"),
                        org.assertj.core.groups.Tuple.tuple(1, "reasoning", PlanAction.DROP,
                                "no readable text and no sound opaque state left to send"));
    }

    @Test
    void anUnfinishedBlocksSignatureNeverGoesBack() {
        AssistantMessage aborted = turn(thinking("first thought", sealed(SIG_A, HOME, "claude-sonnet-4-5", 0, true)),
                thinking("cut sho", sealed(SIG_B, HOME, "claude-sonnet-4-5", 1, false)));

        PreparedHistory prepared = History.plan(request(aborted), target(HOME, "claude-sonnet-4-5"), HistoryPolicy.DEFAULT,
                Retention.ALL);

        assertThat(preparedTurn(prepared).parts()).containsExactly(aborted.parts().get(0),
                new ReasoningPart("cut sho", false, "thinking", Seals.NONE));
        assertThat(prepared.entries().get(1)).extracting(PlanEntry::part, PlanEntry::action, PlanEntry::rule)
                .containsExactly(1, PlanAction.STRIP, "integrity");
        assertThat(prepared.entries().get(1).reason()).contains("never finished");
        assertThatThrownBy(() -> History.plan(request(aborted), target(HOME, "claude-sonnet-4-5"),
                HistoryPolicy.DEFAULT.withIntegrity(IntegrityPolicy.FAIL), Retention.ALL))
                .isInstanceOf(OpaqueStateException.class).hasMessageContaining("turn 1 part 1");
    }

    @Test
    void swappedBlocksAreStrippedBothAndDuplicatedBlocksToo() {
        AssistantMessage home = homeTurn();
        AssistantMessage swapped = turn(home.parts().get(2), home.parts().get(1), home.parts().get(0), TextPart.of("answer"));
        AssistantMessage duplicated = turn(home.parts().get(0), home.parts().get(0), TextPart.of("answer"));

        PreparedHistory s = History.plan(request(swapped), target(HOME, "claude-sonnet-4-5"), HistoryPolicy.DEFAULT, Retention.ALL);
        PreparedHistory d = History.plan(request(duplicated), target(HOME, "claude-sonnet-4-5"), HistoryPolicy.DEFAULT,
                Retention.ALL);

        // every sealed block is out of place: block 1 sits after block 2 and before block 0
        assertThat(s.entries()).filteredOn(e -> e.rule().equals("integrity") && e.action() == PlanAction.STRIP)
                .extracting(PlanEntry::part).containsExactly(0, 1, 2);
        assertThat(preparedTurn(s).parts()).containsExactly(
                new ReasoningPart("second thought", false, "thinking", Seals.NONE),
                new ReasoningPart("first thought", false, "thinking", Seals.NONE), TextPart.of("answer"));
        assertThat(d.entries()).filteredOn(e -> e.action() == PlanAction.STRIP).extracting(PlanEntry::reason)
                .containsOnly("block 0 appears twice in the turn (duplicated state)");
    }

    @Test
    void underFailABadValueThrowsATypedErrorNamingTurnPartKindAndProblemButNeverTheValue() {
        String corrupt = SIG_B.substring(0, 10) + "#" + SIG_B.substring(11);
        AssistantMessage bad = turn(homeTurn().parts().get(0), homeTurn().parts().get(1),
                thinking("second thought", sealed(corrupt, HOME, "claude-sonnet-4-5", 2, true)));
        HistoryPolicy fail = HistoryPolicy.DEFAULT.withIntegrity(IntegrityPolicy.FAIL);

        assertThatThrownBy(() -> History.plan(request(bad), target(HOME, "claude-sonnet-4-5"), fail, Retention.ALL))
                .isInstanceOfSatisfying(OpaqueStateException.class, e -> {
                    assertThat(e).isInstanceOf(InvalidRequestException.class);
                    assertThat(e.turn()).isEqualTo(1);
                    assertThat(e.part()).isEqualTo(2);
                    assertThat(e.kind()).isEqualTo(Seal.Kind.SIGNATURE);
                    assertThat(e.problem()).contains("position 10");
                    assertThat(e.type()).isEqualTo("opaque_state");
                    assertThat(e.getMessage()).isEqualTo("cannot encode the request for anthropic: turn 1 part 2: the signature"
                            + " is bad: not base64: an invalid character at position 10 of 20")
                            .doesNotContain(corrupt.substring(0, 8));
                });
    }

    @Test
    void aBadValueThatRetentionRemovesAnywayIsNotAFailure() {
        AssistantMessage bad = turn(thinking("old", sealed("not base64!", HOME, "claude-sonnet-4-5", 0, true)), TextPart.of("a"));
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-5").messages(List.of(Message.user("q"), bad,
                Message.user("next"), AssistantMessage.ofText("b"), Message.user("last"))).build();

        PreparedHistory prepared = History.plan(request, target(HOME, "claude-sonnet-4-5"),
                HistoryPolicy.DEFAULT.withIntegrity(IntegrityPolicy.FAIL), Retention.TOOL_LOOP);

        assertThat(preparedTurn(prepared).parts()).containsExactly(TextPart.of("a"));
        assertThat(prepared.entries()).extracting(PlanEntry::value, PlanEntry::action, PlanEntry::rule).containsExactly(
                org.assertj.core.groups.Tuple.tuple("signature", PlanAction.STRIP, "H4"),
                org.assertj.core.groups.Tuple.tuple("reasoning", PlanAction.DROP, "H4"));
    }

    @Test
    void aForeignTurnsDecisionsNameRuleH1() {
        AssistantMessage gemini = new AssistantMessage(List.of(new ReasoningPart("g", true, null, Seals.NONE),
                new ToolCallPart("c", "f", "{}", true, Seals.NONE.with(Seal.Kind.SIGNATURE, "sig"))), "gemini", "gemini-3-pro",
                FinishReason.TOOL_CALLS, null, Usage.UNKNOWN);

        PreparedHistory prepared = History.plan(request(gemini), target(HOME, "claude-sonnet-4-5"), HistoryPolicy.DEFAULT,
                Retention.ALL);

        assertThat(prepared.entries()).extracting(PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, "reasoning", PlanAction.DROP, "H1"),
                        org.assertj.core.groups.Tuple.tuple(1, "signature", PlanAction.STRIP, "H1"));
        assertThat(prepared.entries().get(0).reason()).isEqualTo("made by gemini, the request goes to anthropic; ForeignReasoning.DROP");
    }

    @Test
    void theEncoderStageAddsOnPreparedIndicesMappedBackToTheConversationAsGiven() {
        Origin other = new Origin("anthropic", "anthropic-messages", "elsewhere/v1", "acct-1");
        PreparedHistory prepared = History.plan(request(homeTurn()), target(other, "claude-sonnet-4-5"), HistoryPolicy.DEFAULT,
                Retention.ALL);

        // the reasoning parts were dropped: the prepared turn holds the answer alone, part 3 as given
        SendBackPlan plan = prepared.planBuilder().add(1, 0, "reasoning", PlanAction.KEEP, "A1", "text part").build();

        assertThat(plan.forTurn(1)).last().isEqualTo(new PlanEntry(1, 3, "reasoning", PlanAction.KEEP, "A1", "text part"));
        assertThat(plan.entries()).hasSize(prepared.entries().size() + 1);
        assertThat(prepared.plan().entries()).isEqualTo(prepared.entries());
    }

    @Test
    void prepareByNameStillAppliesNoBoundaryOrIntegrity() {
        AssistantMessage bad = turn(thinking("t", sealed("not base64!", new Origin("anthropic", "x", "y", null), "m", 3, false)));

        List<Message> prepared = History.prepare(List.of(Message.user("q"), bad), "anthropic", HistoryPolicy.DEFAULT, Retention.ALL);

        assertThat(prepared.get(1)).isSameAs(bad);
    }
}
