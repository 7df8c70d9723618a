package dev.ruminate.providers.chatcompletions;

import static dev.ruminate.core.history.PlanAction.DROP;
import static dev.ruminate.core.history.PlanAction.KEEP;
import static dev.ruminate.core.history.PlanAction.TO_FIELD;
import static dev.ruminate.core.history.PlanAction.TO_TAGS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ruminate.core.history.PlanEntry;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.testing.PlanCheck;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;

/**
 * The Chat Completions encoder's send-back plan, per profile mode (field, think tags, drop,
 * {@code reasoning_details}, Mistral thinking chunks, DeepSeek's model-family tool-turn rule), on real
 * recorded turns, and its agreement with the body the encoder writes.
 */
class ChatCompletionsSendBackPlanTest {

    /** A profile of the think-tag mode (C7), as a user would configure one. */
    private static final CompatProfile TAGS = Profiles.OPENAI_COMPATIBLE.toBuilder().name("tags")
            .sendBack(ReasoningSendBack.thinkTags()).build();

    private static @Nullable AssistantMessage decoded(String path) {
        CompatProfile profile = Recordings.profile(path);
        var outcome = path.endsWith(".sse") ? Fixtures.stream(profile, path) : Fixtures.completion(profile, path);
        if (outcome.error() != null) {
            return null; // a recording of a failure: no turn to send back
        }
        ChatResult result = ChatReducer.defaults().reduce(Flux.fromIterable(outcome.events())).block(Duration.ofSeconds(10));
        return result == null ? null : result.message();
    }

    private static AssistantMessage turn(String path) {
        AssistantMessage m = decoded(path);
        assertThat(m).as(path).isNotNull();
        return m;
    }

    private static SendBackPlan check(CompatProfile profile, String model, AssistantMessage turn) {
        return PlanCheck.check(ChatCompletionsCodec.of(profile), profile.name(), PlanCheck.nextTurn(model, turn));
    }

    private static List<?> decisions(SendBackPlan plan) {
        return plan.entries().stream().map(e -> tuple(e.turn(), e.part(), e.value(), e.action(), e.rule())).toList();
    }

    @Test
    void deepSeekThinkingModeSendsReasoningContentInTheToolTurnAndR1NothingAtAll() {
        AssistantMessage turn = turn("deepseek/vercel-deepseek-reasoning-tool-call-stream.sse");
        int reasoning = indexOfReasoning(turn);

        assertThat(check(Profiles.DEEPSEEK, "deepseek-v4-flash", turn).entries())
                .extracting(PlanEntry::turn, PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .containsExactly(tuple(1, reasoning, "reasoning", TO_FIELD, "C1"));
        assertThat(check(Profiles.DEEPSEEK, "deepseek-r1", turn).entries())
                .extracting(PlanEntry::action, PlanEntry::rule).containsExactly(tuple(DROP, "C2"));
    }

    @Test
    void deepSeekOutsideAToolTurnLeavesTheReasoningHomeUnderC1() {
        AssistantMessage turn = turn("deepseek/pydantic-deepseek-reasoner.json");
        assertThat(turn.toolCalls()).isEmpty();

        assertThat(check(Profiles.DEEPSEEK, "deepseek-reasoner", turn).entries())
                .extracting(PlanEntry::value, PlanEntry::action, PlanEntry::rule).containsExactly(tuple("reasoning", DROP, "C1"));
    }

    @Test
    void openRouterKeepsEachDetailWithItsSignatureAndFormatUnderC3() {
        SendBackPlan plan = check(Profiles.OPENROUTER, "anthropic/claude-sonnet-4",
                turn("openrouter/rubyllm-openrouter-claude-reasoning-details-roundtrip.turn1.json"));

        assertThat(plan.entries()).isNotEmpty().allSatisfy(e -> assertThat(e.rule()).isEqualTo("C3"));
        assertThat(plan.entries()).extracting(PlanEntry::value, PlanEntry::action)
                .contains(tuple("reasoning", KEEP), tuple("signature", KEEP), tuple("format", KEEP));
    }

    @Test
    void glmTakesReasoningContentUnderC4AndVllmReasoningUnderC5() {
        AssistantMessage turn = turn("openai-compatible/pydantic-zai-glm-preserved-thinking-multiturn.turn1.json");

        assertThat(check(Profiles.GLM, "glm-4.7", turn).entries()).extracting(PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .containsExactly(tuple("reasoning", TO_FIELD, "C4"));
        assertThat(check(Profiles.VLLM, "qwen3", own(turn)).entries()).extracting(PlanEntry::action, PlanEntry::rule)
                .containsExactly(tuple(TO_FIELD, "C5"));
    }

    @Test
    void mistralKeepsThinkingChunksUnderC6ThinkTagsUnderC7AndGroqDropsUnderC8() {
        AssistantMessage turn = turn("mistral/pydantic-magistral-thinking.json");

        assertThat(check(Profiles.MISTRAL, "magistral-medium-latest", turn).entries())
                .extracting(PlanEntry::value, PlanEntry::action, PlanEntry::rule).containsExactly(tuple("reasoning", KEEP, "C6"));
        assertThat(check(TAGS, "m", own(turn)).entries()).extracting(PlanEntry::action, PlanEntry::rule)
                .containsExactly(tuple(TO_TAGS, "C7"));
        assertThat(check(Profiles.GROQ, "openai/gpt-oss-20b", own(turn)).entries()).extracting(PlanEntry::action, PlanEntry::rule)
                .containsExactly(tuple(DROP, "C8"));
    }

    @Test
    void miniMaxSendsThinkTagsUnderC12GeminiOpenAiDropsThoughtTextUnderC11AndAzureUnderC8() {
        AssistantMessage turn = own(turn("mistral/pydantic-magistral-thinking.json"));

        assertThat(check(Profiles.MINIMAX, "MiniMax-M2", turn).entries()).extracting(PlanEntry::action, PlanEntry::rule)
                .containsExactly(tuple(TO_TAGS, "C12"));
        assertThat(check(Profiles.GEMINI_OPENAI, "gemini-3-pro-preview", turn).entries())
                .extracting(PlanEntry::action, PlanEntry::rule).containsExactly(tuple(DROP, "C11"));
        assertThat(check(Profiles.AZURE, "gpt-5", turn).entries()).extracting(PlanEntry::action, PlanEntry::rule)
                .containsExactly(tuple(DROP, "C8"));
        assertThat(check(Profiles.MOONSHOT, "kimi-k2.5", turn).entries()).extracting(PlanEntry::action, PlanEntry::rule)
                .containsExactly(tuple(TO_FIELD, "C5"));
    }

    @Test
    void anotherProvidersReasoningReachingTheEncoderIsDroppedUnderC9() {
        AssistantMessage turn = turn("mistral/pydantic-magistral-thinking.json");
        ChatRequest unprepared = PlanCheck.nextTurn("deepseek-v4-flash", turn);

        assertThat(PlanCheck.explain(ChatCompletionsCodec.of(Profiles.VLLM), unprepared).entries())
                .extracting(PlanEntry::value, PlanEntry::action, PlanEntry::rule).containsExactly(tuple("reasoning", DROP, "C9"));
    }

    private static int indexOfReasoning(AssistantMessage turn) {
        for (int i = 0; i < turn.parts().size(); i++) {
            if (turn.parts().get(i) instanceof dev.ruminate.core.message.ReasoningPart) {
                return i;
            }
        }
        throw new AssertionError("no reasoning");
    }

    /** The turn as a hand-built one (no provider), so any profile takes it as its own. */
    private static AssistantMessage own(AssistantMessage m) {
        return new AssistantMessage(m.parts(), null, m.model(), m.finishReason(), m.rawFinishReason(), m.usage());
    }

    /** Every mode: one profile of each, DeepSeek with a thinking-mode and an R1 model. */
    private static final List<Object[]> TARGETS = List.of(
            new Object[] {Profiles.DEEPSEEK, "deepseek-v4-flash"}, new Object[] {Profiles.DEEPSEEK, "deepseek-r1"},
            new Object[] {Profiles.GLM, "glm-4.7"}, new Object[] {Profiles.VLLM, "m"},
            new Object[] {Profiles.OPENROUTER, "m"}, new Object[] {Profiles.SNOWFLAKE, "m"},
            new Object[] {Profiles.MISTRAL, "magistral-medium-latest"}, new Object[] {Profiles.GROQ, "m"},
            new Object[] {TAGS, "m"}, new Object[] {Profiles.GEMINI_OPENAI, "gemini-3-pro-preview"},
            new Object[] {Profiles.VERCEL_GATEWAY, "m"}, new Object[] {Profiles.MOONSHOT, "kimi-k2.5"},
            new Object[] {Profiles.MINIMAX, "MiniMax-M2"}, new Object[] {Profiles.AZURE, "gpt-5"},
            new Object[] {Profiles.OPENAI_COMPATIBLE, "m"});

    static Stream<Arguments> turnsAndTargets() {
        return Recordings.all().stream().flatMap(path -> TARGETS.stream()
                .map(t -> Arguments.of(path, t[0], t[1])));
    }

    /**
     * Every recorded turn, taken as its own by every mode's profile: the plan names every reasoning
     * part and value once and agrees with the body.
     */
    @ParameterizedTest(name = "{0} to {1} {2}")
    @MethodSource("turnsAndTargets")
    void everyRecordedTurnsPlanAgreesWithItsRequestInEveryMode(String path, CompatProfile profile, String model) {
        AssistantMessage turn = decoded(path);
        if (turn == null) {
            return;
        }
        check(profile, model, own(turn));
    }
}
