package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.testing.SseSplitter;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * Gemini Interactions API thought steps (PROTOCOLS.md §19, docs/wire-additions-2026.md): scripted
 * from the shapes of vercel/ai's {@code packages/google/src/interactions/google-interactions-api.ts},
 * since the two recordings ({@code GeminiFixturesTest#interactionsThoughtSignatureThenAnswer},
 * {@code #interactionsFunctionCallStreamsItsArguments}) carry signatures but no summary text.
 */
class GeminiInteractionsThoughtStepsTest {

    private static final String SIG = "CiQBDDnWxzCnKBoG0/vIUQ9fHy3JYGvjTmIZFY4uKrzvEqSAJh8=";

    private static AssistantMessage decode(String sse) {
        return GeminiFixturesTest.reduce(Flux.fromIterable(SseSplitter.split(sse)).transform(GeminiCodec.streamDecoder("gemini"))
                .collectList().block()).message();
    }

    private static String event(String json) {
        return "data: " + json + "\n\n";
    }

    private static final String CREATED = event("{\"interaction\":{\"id\":\"v1_x\",\"status\":\"in_progress\",\"object\":\"interaction\","
            + "\"model\":\"gemini-3-flash\"},\"event_type\":\"interaction.created\"}");

    private static final String ANSWER = event("{\"index\":1,\"step\":{\"type\":\"model_output\"},\"event_type\":\"step.start\"}")
            + event("{\"index\":1,\"delta\":{\"text\":\"Blue.\",\"type\":\"text\"},\"event_type\":\"step.delta\"}")
            + event("{\"index\":1,\"event_type\":\"step.stop\"}")
            + event("{\"interaction\":{\"id\":\"v1_x\",\"status\":\"completed\",\"usage\":{\"total_input_tokens\":7,"
            + "\"total_output_tokens\":3,\"total_thought_tokens\":40,\"total_cached_tokens\":0}},\"event_type\":\"interaction.completed\"}");

    @Test
    void thoughtSummaryDeltasAreReasoningTextAndTheSignatureDeltaSealsIt() {
        String sse = CREATED
                + event("{\"index\":0,\"step\":{\"type\":\"thought\"},\"event_type\":\"step.start\"}")
                + event("{\"index\":0,\"delta\":{\"type\":\"thought_summary\",\"content\":{\"type\":\"text\",\"text\":\"**Sky** \"}},"
                        + "\"event_type\":\"step.delta\"}")
                + event("{\"index\":0,\"delta\":{\"type\":\"thought_summary\",\"content\":{\"type\":\"text\",\"text\":\"Rayleigh.\"}},"
                        + "\"event_type\":\"step.delta\"}")
                + event("{\"index\":0,\"delta\":{\"type\":\"thought_signature\",\"signature\":\"" + SIG + "\"},\"event_type\":\"step.delta\"}")
                + event("{\"index\":0,\"event_type\":\"step.stop\"}")
                + ANSWER;

        AssistantMessage m = decode(sse);

        assertThat(m.parts()).hasSize(2);
        assertThat(m.parts().get(0)).isInstanceOfSatisfying(ReasoningPart.class, r -> {
            assertThat(r.text()).isEqualTo("**Sky** Rayleigh.");
            assertThat(r.seals().signature()).isEqualTo(SIG);
        });
        assertThat(m.text()).isEqualTo("Blue.");
        assertThat(m.finishReason()).isEqualTo(FinishReason.STOP);
        // total_thought_tokens are the reasoning tokens, and part of the output
        assertThat(m.usage()).isEqualTo(new Usage(7L, 43L, 40L, 0L));
    }

    @Test
    void aThoughtStepThatArrivesWholeKeepsItsSummaryAndSignature() {
        String sse = CREATED
                + event("{\"index\":0,\"step\":{\"type\":\"thought\",\"signature\":\"" + SIG + "\",\"summary\":["
                        + "{\"type\":\"text\",\"text\":\"First. \"},{\"type\":\"text\",\"text\":\"Second.\"}]},\"event_type\":\"step.start\"}")
                + event("{\"index\":0,\"event_type\":\"step.stop\"}")
                + ANSWER;

        AssistantMessage m = decode(sse);

        assertThat(m.parts().get(0)).isInstanceOfSatisfying(ReasoningPart.class, r -> {
            assertThat(r.text()).isEqualTo("First. Second.");
            assertThat(r.seals().signature()).isEqualTo(SIG);
        });
        assertThat(m.usage().reasoningTokens()).isEqualTo(40L);
        assertThat(List.of(m.text())).containsExactly("Blue.");
    }
}
