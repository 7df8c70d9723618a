package dev.ruminate.providers.gemini;

import static dev.ruminate.core.history.PlanAction.DROP;
import static dev.ruminate.core.history.PlanAction.KEEP;
import static dev.ruminate.core.history.PlanAction.PLACEHOLDER;
import static dev.ruminate.core.history.PlanAction.STRIP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.PlanEntry;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.anthropic.AnthropicCodec;
import dev.ruminate.providers.testing.PlanCheck;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.transport.http.ApiKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Gemini encoder's send-back plan on real recorded turns (signatures on their parts, unsigned
 * thought summaries left home, the skip placeholder), and its agreement with the body it writes.
 */
@ExtendWith(NettyLeakCheck.class)
class GeminiSendBackPlanTest {

    private static final GeminiCodec CODEC = GeminiCodec.of("gemini", false);

    private static @Nullable AssistantMessage decoded(String path) {
        try {
            var events = path.endsWith(".sse") ? GeminiFixturesTest.stream(path, "gemini")
                    : path.contains("json-array") ? GeminiFixturesTest.jsonArrayStream(path, "gemini")
                    : GeminiCodec.decodeResponse("gemini", Recorded.bytes(path)).collectList().block();
            return GeminiFixturesTest.reduce(Objects.requireNonNull(events)).message();
        } catch (RuntimeException e) {
            return null; // a recording of a failure, or of another Gemini API: no turn to send back
        }
    }

    private static SendBackPlan check(GeminiCodec codec, AssistantMessage turn) {
        return PlanCheck.check(codec, "gemini", PlanCheck.nextTurn("gemini-3-pro-preview", turn));
    }

    @Test
    void aSignedCallKeepsItsSignatureOnItUnderG1() {
        AssistantMessage turn = Objects.requireNonNull(decoded("gemini/pydantic-gemini-tool-call-thought-signature.turn1.sse"));
        int call = turn.parts().indexOf(turn.toolCalls().get(0));

        assertThat(check(CODEC, turn).entries()).extracting(PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .contains(tuple(call, "signature", KEEP, "G1"));
    }

    @Test
    void unsignedThoughtSummariesStayHomeUnderG2() {
        AssistantMessage turn = Objects.requireNonNull(decoded("gemini/pydantic-gemini-thought-summaries-multiturn.turn1.json"));
        assertThat(turn.parts()).anySatisfy(p -> assertThat(p).isInstanceOf(ReasoningPart.class));

        SendBackPlan plan = check(CODEC, turn);

        for (int i = 0; i < turn.parts().size(); i++) {
            if (turn.parts().get(i) instanceof ReasoningPart r && r.seals().signature() == null) {
                assertThat(plan.forTurn(1)).extracting(PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                        .contains(tuple(i, "reasoning", DROP, "G2"));
            }
        }
        assertThat(plan.entries()).filteredOn(e -> e.value().equals("signature"))
                .allSatisfy(e -> assertThat(e).extracting(PlanEntry::action, PlanEntry::rule).containsExactly(KEEP, "G1"));
    }

    @Test
    void anotherProvidersCallsInTheLoopGetThePlaceholderUnderG4WhenAsked() {
        AssistantMessage claude = Objects.requireNonNull(ChatReducer.defaults().reduce(AnthropicCodec.decodeMessage(
                Recorded.bytes("anthropic/pydantic-thinking-tool-use.turn1.json"))).block(Duration.ofSeconds(10))).message();
        ChatRequest request = PlanCheck.nextTurn("gemini-3-pro-preview", claude);

        SendBackPlan skip = PlanCheck.check(GeminiCodec.of("gemini", true), "gemini", request);
        SendBackPlan strict = PlanCheck.check(CODEC, "gemini", request);

        // History dropped the thinking (another provider's): the prepared turn is the text, then the call
        assertThat(skip.entries()).extracting(PlanEntry::turn, PlanEntry::part, PlanEntry::value, PlanEntry::action,
                PlanEntry::rule).containsExactly(tuple(1, 1, "signature", PLACEHOLDER, "G4"));
        assertThat(strict.entries()).isEmpty();
    }

    @Test
    void anOwnCallWhoseSignatureFailedItsIntegrityCheckGetsThePlaceholderUnderG4WhenAsked() {
        AssistantMessage turn = Objects.requireNonNull(decoded("gemini/pydantic-gemini-tool-call-thought-signature.turn1.sse"));
        int call = turn.parts().indexOf(turn.toolCalls().get(0));
        List<Part> parts = new ArrayList<>(turn.parts());
        ToolCallPart c = (ToolCallPart) parts.get(call);
        // not base64: the integrity check strips it before the encoder sees the turn
        parts.set(call, new ToolCallPart(c.id(), c.name(), c.arguments(), c.argumentsValid(),
                c.seals().with(Seal.Kind.SIGNATURE, "not a signature!")));
        AssistantMessage damaged = new AssistantMessage(parts, turn.provider(), turn.model(), turn.finishReason(),
                turn.rawFinishReason(), turn.usage());
        ChatRequest request = PlanCheck.nextTurn("gemini-3-pro-preview", damaged);

        SendBackPlan skip = explain(true, request);
        SendBackPlan strict = explain(false, request);

        assertThat(skip.forTurn(1)).extracting(PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .containsSubsequence(tuple(call, "signature", STRIP, "integrity"), tuple(call, "signature", PLACEHOLDER, "G4"));
        assertThat(skip.forTurn(1)).filteredOn(e -> e.action() == PLACEHOLDER).singleElement()
                .satisfies(e -> assertThat(e.reason()).contains("first call of its step", "no signature",
                        "skip placeholder").doesNotContain("another provider"));
        assertThat(strict.forTurn(1)).extracting(PlanEntry::action).doesNotContain(PLACEHOLDER);
        assertThat(skip.render()).doesNotContain("not a signature!");
    }

    /** The plan of a Gemini provider's pipeline (integrity checks included); nothing is sent. */
    private static SendBackPlan explain(boolean skipSignatureValidation, ChatRequest request) {
        GeminiProvider provider = GeminiProvider.builder().baseUrl("http://127.0.0.1:9").apiKey(ApiKey.of("k"))
                .skipSignatureValidation(skipSignatureValidation).build();
        return provider.explain(request);
    }

    static Stream<String> recordings() {
        return Recorded.under("gemini", ".sse", ".json").stream();
    }

    /** Every recorded turn: the plan names every reasoning part and value once and agrees with the body. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void everyRecordedTurnsPlanAgreesWithItsRequest(String path) {
        AssistantMessage turn = decoded(path);
        if (turn == null) {
            return;
        }
        check(CODEC, turn);
        check(GeminiCodec.of("gemini", true), turn);
    }

    /** The recordings this test goes through, so that a renamed folder cannot make it vacuous. */
    @Test
    void thereAreRecordingsToGoThrough() {
        assertThat(recordings().map(GeminiSendBackPlanTest::decoded).filter(Objects::nonNull).toList()).hasSizeGreaterThan(8);
    }
}
