package dev.ruminate.providers.bedrock;

import static dev.ruminate.core.history.PlanAction.KEEP;
import static dev.ruminate.core.history.PlanAction.TO_TEXT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ruminate.core.history.PlanEntry;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.providers.testing.PlanCheck;
import dev.ruminate.providers.testing.Recorded;
import java.util.Objects;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Bedrock Converse encoder's send-back plan on real recorded turns (signed and redacted reasoning
 * kept, unsigned R1/Qwen reasoning as {@code <think>} text), and its agreement with the body it writes.
 */
class BedrockSendBackPlanTest {

    private static final BedrockCodec CODEC = BedrockCodec.of("bedrock");

    private static @Nullable AssistantMessage decoded(String path) {
        try {
            var events = path.endsWith(".eventstream") ? BedrockFixturesTest.decodeStream(Recorded.bytes(path))
                    : BedrockCodec.decodeResponse("bedrock", BedrockFixturesTest.MODEL, Recorded.bytes(path)).collectList().block();
            return BedrockFixturesTest.reduce(Objects.requireNonNull(events)).message();
        } catch (RuntimeException e) {
            return null; // a recording of a failure: no turn to send back
        }
    }

    private static SendBackPlan check(String path) {
        AssistantMessage turn = Objects.requireNonNull(decoded(path), path);
        return PlanCheck.check(CODEC, "bedrock", PlanCheck.nextTurn(BedrockFixturesTest.MODEL, turn));
    }

    @Test
    void signedReasoningIsKeptWithItsSignatureUnderB1() {
        assertThat(check("bedrock/pydantic-bedrock-claude-reasoning-tool-use.turn1.json").entries())
                .extracting(PlanEntry::turn, PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .containsExactly(tuple(1, 0, "reasoning", KEEP, "B1"), tuple(1, 0, "signature", KEEP, "B1"));
    }

    @Test
    void redactedReasoningIsKeptUnderB2() {
        SendBackPlan plan = check("bedrock/pydantic-bedrock-claude-redacted-reasoning-multiturn.turn1.json");

        assertThat(plan.entries()).filteredOn(e -> e.value().equals("redacted")).isNotEmpty()
                .allSatisfy(e -> assertThat(e).extracting(PlanEntry::action, PlanEntry::rule).containsExactly(KEEP, "B2"));
    }

    @Test
    void unsignedQwenReasoningGoesAsThinkTaggedTextUnderB3() {
        AssistantMessage turn = Objects.requireNonNull(decoded("bedrock/pydantic-bedrock-qwen-reasoning.turn2.json"));
        assertThat(turn.parts().get(0)).isInstanceOfSatisfying(ReasoningPart.class, r -> assertThat(r.seals().isEmpty()).isTrue());

        assertThat(PlanCheck.check(CODEC, "bedrock", PlanCheck.nextTurn("qwen.qwen3-32b-v1:0", turn)).entries())
                .extracting(PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .containsExactly(tuple(0, "reasoning", TO_TEXT, "B3"));
    }

    static Stream<String> recordings() {
        return Recorded.under("bedrock", ".json", ".eventstream").stream();
    }

    /** Every recorded turn: the plan names every reasoning part and value once and agrees with the body. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void everyRecordedTurnsPlanAgreesWithItsRequest(String path) {
        AssistantMessage turn = decoded(path);
        if (turn == null) {
            return;
        }
        PlanCheck.check(CODEC, "bedrock", PlanCheck.nextTurn(BedrockFixturesTest.MODEL, turn));
    }

    /** The recordings this test goes through, so that a renamed folder cannot make it vacuous. */
    @Test
    void thereAreRecordingsToGoThrough() {
        assertThat(recordings().map(BedrockSendBackPlanTest::decoded).filter(Objects::nonNull).toList()).hasSizeGreaterThan(8);
    }
}
