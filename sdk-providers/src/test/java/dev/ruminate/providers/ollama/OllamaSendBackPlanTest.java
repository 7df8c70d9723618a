package dev.ruminate.providers.ollama;

import static dev.ruminate.core.history.PlanAction.DROP;
import static dev.ruminate.core.history.PlanAction.STRIP;
import static dev.ruminate.core.history.PlanAction.TO_FIELD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ruminate.core.history.PlanEntry;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.providers.anthropic.AnthropicCodec;
import dev.ruminate.providers.testing.PlanCheck;
import dev.ruminate.providers.testing.Recorded;
import java.time.Duration;
import java.util.Objects;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Ollama {@code /api/chat} encoder's send-back plan: its own reasoning as {@code thinking}, opaque
 * state stripped, another provider's reasoning dropped; on Ollama's recorded reasoning and on the
 * signed Anthropic turns, and its agreement with the body it writes.
 */
class OllamaSendBackPlanTest {

    private static final OllamaCodec CODEC = OllamaCodec.chat(OllamaProvider.NAME);

    private static AssistantMessage ollamaTurn() {
        return Objects.requireNonNull(Ollama.reduce(Ollama.recording(Ollama.GPT_OSS)).ok()).message();
    }

    private static @Nullable AssistantMessage claude(String path) {
        try {
            var events = path.endsWith(".sse")
                    ? reactor.core.publisher.Flux.fromIterable(Recorded.sse(path)).transform(AnthropicCodec.streamDecoder())
                    : AnthropicCodec.decodeMessage(Recorded.bytes(path));
            return Objects.requireNonNull(ChatReducer.defaults().reduce(events).block(Duration.ofSeconds(10))).message();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The turn as a hand-built one (no provider), which Ollama takes as its own. */
    private static AssistantMessage own(AssistantMessage m) {
        return new AssistantMessage(m.parts(), null, m.model(), m.finishReason(), m.rawFinishReason(), m.usage());
    }

    @Test
    void ollamasOwnReasoningGoesBackAsThinkingUnderO1() {
        AssistantMessage turn = ollamaTurn();
        assertThat(turn.provider()).isEqualTo(OllamaProvider.NAME);

        SendBackPlan plan = PlanCheck.check(CODEC, OllamaProvider.NAME, PlanCheck.nextTurn("gpt-oss:120b", turn));

        assertThat(plan.entries()).extracting(PlanEntry::turn, PlanEntry::part, PlanEntry::value, PlanEntry::action,
                PlanEntry::rule).containsExactly(tuple(1, 0, "reasoning", TO_FIELD, "O1"));
    }

    @Test
    void aSignatureIsStrippedFromReasoningSentAsThinkingAndAnotherProvidersReasoningIsDropped() {
        AssistantMessage claude = Objects.requireNonNull(claude("anthropic/pydantic-thinking-tool-use.turn1.json"));

        SendBackPlan asOwn = PlanCheck.check(CODEC, OllamaProvider.NAME, PlanCheck.nextTurn("qwen3", own(claude)));
        SendBackPlan foreign = PlanCheck.explain(CODEC, PlanCheck.nextTurn("qwen3", claude));

        assertThat(asOwn.entries()).extracting(PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .containsExactly(tuple(0, "reasoning", TO_FIELD, "O1"), tuple(0, "signature", STRIP, "O1"));
        assertThat(foreign.entries()).extracting(PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .containsExactly(tuple(0, "reasoning", DROP, "O1"), tuple(0, "signature", DROP, "O1"));
    }

    @Test
    void theGenerateEndpointTakesNoEarlierTurnsAndExplainsNothing() {
        SendBackPlan.Builder plan = PlanCheck.identity(java.util.List.of());
        OllamaCodec.generate(OllamaProvider.NAME).explain(dev.ruminate.core.request.ChatRequest.builder("m").user("hi").build(), plan);

        assertThat(plan.build().entries()).isEmpty();
    }

    static Stream<String> recordings() {
        return Stream.concat(Recorded.under("anthropic", ".sse", ".json").stream(), Ollama.recordings().stream());
    }

    /** Every recorded reasoning turn taken as Ollama's own: the plan agrees with the body. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void everyRecordedTurnsPlanAgreesWithItsRequest(String path) {
        AssistantMessage turn;
        if (path.startsWith("anthropic/")) {
            turn = claude(path);
        } else {
            var result = Ollama.reduce(Ollama.recording(path)).result();
            turn = result != null ? result.message() : null;
        }
        if (turn == null) {
            return;
        }
        PlanCheck.check(CODEC, OllamaProvider.NAME, PlanCheck.nextTurn("qwen3", own(turn)));
    }
}
