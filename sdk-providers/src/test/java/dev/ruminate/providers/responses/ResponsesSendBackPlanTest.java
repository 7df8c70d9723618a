package dev.ruminate.providers.responses;

import static dev.ruminate.core.history.PlanAction.DROP;
import static dev.ruminate.core.history.PlanAction.KEEP;
import static dev.ruminate.core.history.PlanAction.STRIP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ruminate.core.history.PlanEntry;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.testing.PlanCheck;
import dev.ruminate.providers.testing.Recorded;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Responses encoder's send-back plan on real recorded turns (reasoning items regrouped, a
 * stateless server's unresolvable items left out and the ids after them stripped, compaction items
 * verbatim, {@code previous_response_id}), and its agreement with the body it writes.
 */
class ResponsesSendBackPlanTest {

    private static @Nullable AssistantMessage decoded(String path) {
        Recorded.Outcome outcome = path.endsWith(".sse") ? Responses.stream(path) : Responses.body(path);
        if (outcome.error() != null) {
            return null; // a recording of a failure: no turn to send back
        }
        try {
            return Responses.reduce(outcome.events()).message();
        } catch (RuntimeException | AssertionError e) {
            return null; // several responses in one capture: not one turn
        }
    }

    private static AssistantMessage turn(String path) {
        return Objects.requireNonNull(decoded(path), path);
    }

    private static SendBackPlan check(ResponsesProfile profile, ChatRequest request) {
        return PlanCheck.check(ResponsesCodec.of(profile), profile.name(), request);
    }

    @Test
    void encryptedReasoningIsKeptAsItsItemUnderR1() {
        AssistantMessage turn = turn("openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn1.json");

        SendBackPlan plan = check(ResponsesProfiles.OPENAI, PlanCheck.nextTurn("gpt-5.5", turn));

        assertThat(plan.entries()).extracting(PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .contains(tuple(0, "reasoning", KEEP, "R1"), tuple(0, "encrypted", KEEP, "R1"), tuple(0, "item id", KEEP, "R1"));
    }

    @Test
    void aStatelessServerGetsNoItemWithoutItsBlobAndTheCallsAfterItLoseTheirIdsUnderR3() {
        AssistantMessage recorded = turn("openai-responses/pydantic-gpt5-reasoning-tool-calls.turn1.json");
        // the same turn with its blobs lost: a stateless server cannot resolve its reasoning items
        List<dev.ruminate.core.message.Part> parts = new ArrayList<>();
        for (var p : recorded.parts()) {
            parts.add(p instanceof ReasoningPart r ? new ReasoningPart(r.text(), r.summary(), r.source(),
                    r.seals().without(dev.ruminate.core.event.Seal.Kind.ENCRYPTED)) : p);
        }
        AssistantMessage lost = new AssistantMessage(parts, recorded.provider(), recorded.model(), recorded.finishReason(),
                recorded.rawFinishReason(), recorded.usage());
        int call = lost.parts().indexOf(lost.toolCalls().get(0));

        SendBackPlan plan = check(ResponsesProfiles.OPENAI, PlanCheck.nextTurn("gpt-5", lost));

        assertThat(plan.entries()).filteredOn(e -> e.value().equals("reasoning")).isNotEmpty()
                .allSatisfy(e -> assertThat(e).extracting(PlanEntry::action, PlanEntry::rule).containsExactly(DROP, "R3"));
        assertThat(plan.entries()).extracting(PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .contains(tuple(call, "item id", STRIP, "R3"));
    }

    @Test
    void withPreviousResponseIdTheServerHoldsTheEarlierTurnUnderR6() {
        AssistantMessage turn = turn("openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn1.json");
        ChatRequest request = PlanCheck.nextTurn("gpt-5.5", turn).toBuilder().extra("previous_response_id", "resp_1").build();

        SendBackPlan plan = check(ResponsesProfiles.OPENAI, request);

        assertThat(plan.entries()).isNotEmpty()
                .allSatisfy(e -> assertThat(e).extracting(PlanEntry::action, PlanEntry::rule).containsExactly(DROP, "R6"));
    }

    @Test
    void deepSeekReasoningItemsAreKeptUnderR7() {
        AssistantMessage turn = turn("deepseek/pydantic-deepseek-responses-api-reasoning-replay.turn1.json");

        SendBackPlan plan = check(ResponsesProfiles.DEEPSEEK, PlanCheck.nextTurn("deepseek-v4-flash", turn));

        assertThat(plan.entries()).isNotEmpty().allSatisfy(e -> assertThat(e.rule()).isEqualTo("R7"));
        assertThat(plan.entries()).extracting(PlanEntry::value, PlanEntry::action).contains(tuple("reasoning", KEEP));
    }

    @Test
    void aCompactionItemIsKeptVerbatimUnderR5() {
        AssistantMessage turn = turn("openai-responses/pydantic-gpt41-context-compaction-stream.turn3.sse");

        SendBackPlan plan = check(ResponsesProfiles.OPENAI, PlanCheck.nextTurn("gpt-4.1", turn));

        assertThat(plan.entries()).extracting(PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .contains(tuple("server tool", KEEP, "R5"));
    }

    @Test
    void anotherProvidersReasoningReachingTheEncoderIsDroppedAndItsCallIdsStrippedUnderR4() {
        AssistantMessage turn = turn("openai-responses/pydantic-gpt5-reasoning-tool-calls.turn1.json");
        ChatRequest unprepared = PlanCheck.nextTurn("gpt-5", turn);

        SendBackPlan plan = PlanCheck.explain(ResponsesCodec.of(ResponsesProfiles.AZURE), unprepared);

        assertThat(plan.entries()).isNotEmpty().allSatisfy(e -> assertThat(e.rule()).isEqualTo("R4"));
        assertThat(plan.entries()).filteredOn(e -> turn.parts().get(e.part()) instanceof ToolCallPart)
                .extracting(PlanEntry::action).containsOnly(STRIP);
    }

    static Stream<String> recordings() {
        List<String> all = new ArrayList<>(Responses.STREAMS);
        all.addAll(Responses.BODIES);
        all.addAll(Recorded.under("bedrock", ".sse"));
        return all.stream();
    }

    /** Every recorded turn: the plan names every reasoning part and value once and agrees with the body. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void everyRecordedTurnsPlanAgreesWithItsRequest(String path) {
        ResponsesProfile profile = path.startsWith("bedrock/") ? ResponsesProfiles.BEDROCK : Responses.profileOf(path);
        Recorded.Outcome outcome = path.endsWith(".sse")
                ? Responses.stream(profile, Recorded.sse(path)) : Responses.body(path);
        if (outcome.error() != null) {
            return;
        }
        AssistantMessage turn;
        try {
            turn = Responses.reduce(outcome.events()).message();
        } catch (RuntimeException | AssertionError e) {
            return;
        }
        check(profile, PlanCheck.nextTurn("m", turn));
        // the same turn with server state: nothing of it is sent
        check(profile, PlanCheck.nextTurn("m", turn).toBuilder().extra("previous_response_id", "resp_1").build());
    }

    /** The recordings this test goes through, so that a renamed folder cannot make it vacuous. */
    @Test
    void thereAreRecordingsToGoThrough() {
        assertThat(recordings().map(ResponsesSendBackPlanTest::decoded).filter(Objects::nonNull).toList())
                .hasSizeGreaterThan(15);
    }
}
