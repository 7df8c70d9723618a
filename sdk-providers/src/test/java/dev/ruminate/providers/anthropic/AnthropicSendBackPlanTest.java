package dev.ruminate.providers.anthropic;

import static dev.ruminate.core.history.PlanAction.DROP;
import static dev.ruminate.core.history.PlanAction.KEEP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ruminate.core.history.PlanEntry;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.testing.PlanCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Anthropic encoder's send-back plan: the rule and action for every reasoning part and opaque
 * value of real recorded turns, and its agreement with the body the encoder writes.
 */
class AnthropicSendBackPlanTest {

    private static final AnthropicCodec CODEC = AnthropicCodec.of(AnthropicCodec.DEFAULT_MAX_TOKENS);

    private static AssistantMessage decoded(String recording) {
        return AnthropicRecordings.reduce(AnthropicRecordings.decode(recording)).message();
    }

    private static SendBackPlan check(AssistantMessage turn) {
        return PlanCheck.check(CODEC, AnthropicCodec.PROVIDER, PlanCheck.nextTurn("claude-sonnet-4-5", turn));
    }

    @Test
    void aSignedThinkingBlockIsKeptWithItsSignatureUnderA1() {
        SendBackPlan plan = check(decoded("anthropic/pydantic-thinking-tool-use.turn1.json"));

        assertThat(plan.entries()).extracting(PlanEntry::turn, PlanEntry::part, PlanEntry::value, PlanEntry::action,
                PlanEntry::rule).containsExactly(tuple(1, 0, "reasoning", KEEP, "A1"), tuple(1, 0, "signature", KEEP, "A1"));
    }

    @Test
    void redactedThinkingIsKeptUnderA3() {
        SendBackPlan plan = check(decoded("anthropic/pydantic-redacted-thinking-multiturn.turn1.json"));

        assertThat(plan.entries()).filteredOn(e -> e.value().equals("redacted")).isNotEmpty()
                .allSatisfy(e -> assertThat(e).extracting(PlanEntry::action, PlanEntry::rule).containsExactly(KEEP, "A3"));
    }

    @Test
    void omittedThinkingIsKeptUnderA2AndServerToolBlocksVerbatimUnderA5() {
        SendBackPlan plan = check(decoded("anthropic/pydantic-sonnet5-advisor-omitted-thinking-replay.turn1.json"));

        assertThat(plan.entries()).extracting(PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .containsExactly(tuple(0, "reasoning", KEEP, "A2"), tuple(0, "signature", KEEP, "A2"),
                        tuple(2, "server tool", KEEP, "A5"), tuple(3, "server tool", KEEP, "A5"));
    }

    @Test
    void aCompactionBlockIsKeptUnderA6() {
        SendBackPlan plan = check(decoded("anthropic/pydantic-compaction-multiturn.turn1.json"));

        assertThat(plan.entries()).extracting(PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .contains(tuple(0, "server tool", KEEP, "A6"));
    }

    @Test
    void unsignedReasoningIsDroppedUnderA4AndItsStrayStateWithIt() {
        AssistantMessage turn = new AssistantMessage(List.of(
                new ReasoningPart("I thought about it without a signature at all.", false, null,
                        new Seals(null, null, null, "rs_1", null)),
                TextPart.of("Answer.")), null, "claude-sonnet-4-5", FinishReason.STOP, null, Usage.UNKNOWN);

        SendBackPlan plan = check(turn);

        assertThat(plan.entries()).extracting(PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .containsExactly(tuple(0, "reasoning", DROP, "A4"), tuple(0, "item id", DROP, "A4"));
    }

    /** The check catches a plan that says otherwise than the body: it is not true by construction. */
    @Test
    void aPlanThatDisagreesWithTheBodyIsCaught() {
        ChatRequest request = PlanCheck.prepare(AnthropicCodec.PROVIDER,
                PlanCheck.nextTurn("claude-sonnet-4-5", decoded("anthropic/pydantic-thinking-tool-use.turn1.json")));
        String body = new String(CODEC.encode(request, false), java.nio.charset.StandardCharsets.UTF_8);
        SendBackPlan wrong = PlanCheck.identity(request.messages())
                .add(1, 0, "reasoning", DROP, "A4", "wrongly said dropped")
                .add(1, 0, "signature", DROP, "A4", "wrongly said dropped").build();

        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> PlanCheck.assertAgrees(request, wrong, body)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("does not hold");
    }

    static Stream<String> recordings() {
        List<String> all = new ArrayList<>(AnthropicRecordings.streams());
        all.addAll(AnthropicRecordings.bodies());
        return all.stream();
    }

    /** Every recorded turn: the plan names every reasoning part and value once and agrees with the body. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void everyRecordedTurnsPlanAgreesWithItsRequest(String recording) {
        ChatResult result;
        try {
            result = AnthropicRecordings.reduce(AnthropicRecordings.decode(recording));
        } catch (RuntimeException e) {
            return; // a recording of a failure: no turn to send back
        }
        PlanCheck.check(CODEC, AnthropicCodec.PROVIDER, PlanCheck.nextTurn("claude-sonnet-4-5", result.message()));
    }
}
