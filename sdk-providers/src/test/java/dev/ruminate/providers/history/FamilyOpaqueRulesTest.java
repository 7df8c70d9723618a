package dev.ruminate.providers.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.ollama.OllamaCodec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each family's opaque-value rules, on values made to show each check. */
class FamilyOpaqueRulesTest {

    private static final Part THINKING = new ReasoningPart("t", false, "thinking", Seals.NONE);

    private static OpaqueRules rules(OpaqueFamilies.Family family) {
        return family.codec().opaqueRules();
    }

    @Test
    void anthropicAndBedrockTakePaddedStandardBase64SignaturesAndRedactedData() {
        for (OpaqueRules r : List.of(rules(OpaqueFamilies.ANTHROPIC), rules(OpaqueFamilies.BEDROCK))) {
            assertThat(r.problem(THINKING, Seal.Kind.SIGNATURE, "EqQBCkYIBxgC")).isNull();
            assertThat(r.problem(THINKING, Seal.Kind.SIGNATURE, "EqQBCkYIBxg")).contains("multiple of 4");
            assertThat(r.problem(THINKING, Seal.Kind.SIGNATURE, "EqQB_kYIBxgC")).contains("URL-safe");
            assertThat(r.problem(THINKING, Seal.Kind.REDACTED, "")).isEqualTo("empty");
            assertThat(r.bindsToModel()).isTrue();
        }
    }

    @Test
    void geminiTakesEitherAlphabetAndGooglesPlaceholder() {
        OpaqueRules r = rules(OpaqueFamilies.GEMINI);
        Part call = new ToolCallPart("c", "f", "{}", true, Seals.NONE);

        assertThat(r.problem(call, Seal.Kind.SIGNATURE, "EqQB_kYIBxgC")).isNull();
        assertThat(r.problem(call, Seal.Kind.SIGNATURE, "EqQB+kYIBxgC")).isNull();
        assertThat(r.problem(call, Seal.Kind.SIGNATURE, "skip_thought_signature_validator")).isNull();
        assertThat(r.problem(call, Seal.Kind.SIGNATURE, "EqQB+kYIBx_C")).contains("mixes");
        assertThat(r.bindsToModel()).isTrue();
    }

    @Test
    void responsesBlobsMustBeNonEmptyFernetTokensWellFormedAndPairedWithTheirItemIds() {
        OpaqueRules r = rules(OpaqueFamilies.RESPONSES);
        Seals paired = Seals.NONE.with(Seal.Kind.ITEM_ID, "rs_1").with(Seal.Kind.ENCRYPTED, "gAAAAABo-x==");
        AssistantMessage turn = new AssistantMessage(List.of(
                new ReasoningPart("a", true, null, paired),
                new ReasoningPart("b", true, null, Seals.NONE.with(Seal.Kind.ITEM_ID, "rs_1")),
                new ReasoningPart("", false, null, Seals.NONE.with(Seal.Kind.ENCRYPTED, "xai-blob")),
                new ToolCallPart("call_1", "f", "{}", true, Seals.NONE.with(Seal.Kind.ITEM_ID, "fc_1")),
                new ReasoningPart("c", true, null, Seals.NONE.with(Seal.Kind.ITEM_ID, "rs_1"))),
                "openai-responses", "gpt-5", FinishReason.TOOL_CALLS, null, Usage.UNKNOWN);

        assertThat(r.problem(THINKING, Seal.Kind.ENCRYPTED, "gAAAAABo-x==")).isNull();
        assertThat(r.problem(THINKING, Seal.Kind.ENCRYPTED, "gAAAAABo-x=")).contains("multiple of 4");
        assertThat(r.problem(THINKING, Seal.Kind.ENCRYPTED, "80689-own-format")).isNull();
        assertThat(r.problem(THINKING, Seal.Kind.ENCRYPTED, "")).isEqualTo("empty");
        assertThat(r.problem(THINKING, Seal.Kind.ITEM_ID, "")).isEqualTo("empty");
        assertThat(r.problems(turn)).containsExactly(
                new OpaqueRules.Problem(2, Seal.Kind.ENCRYPTED, "encrypted reasoning without its item id: the server pairs the two"),
                new OpaqueRules.Problem(4, Seal.Kind.ITEM_ID,
                        "a reasoning item's parts are not consecutive: its id appears in two places of the turn"));
        assertThat(r.bindsToModel()).isFalse();
    }

    @Test
    void reasoningDetailsAreCheckedByTheirFormat() {
        OpaqueRules r = rules(OpaqueFamilies.OPENROUTER);
        Part claude = new ReasoningPart("t", false, "reasoning_details", Seals.NONE.with(Seal.Kind.FORMAT, "anthropic-claude-v1"));
        Part gemini = new ReasoningPart("t", false, "reasoning_details", Seals.NONE.with(Seal.Kind.FORMAT, "google-gemini-v1"));
        Part openai = new ReasoningPart("", false, "reasoning_details", Seals.NONE.with(Seal.Kind.FORMAT, "openai-responses-v1"));

        assertThat(r.problem(claude, Seal.Kind.SIGNATURE, "EqQB_kYIBxgC")).contains("URL-safe");
        assertThat(r.problem(gemini, Seal.Kind.ENCRYPTED, "EqQB_kYIBxgC")).isNull();
        assertThat(r.problem(openai, Seal.Kind.ENCRYPTED, "gAAAAABo-x=")).contains("multiple of 4");
        assertThat(r.problem(openai, Seal.Kind.FORMAT, "")).isEqualTo("empty");
        assertThat(r.bindsToModel()).isTrue();
    }

    @Test
    void ollamaHasNoOpaqueStateAndTheLenientRules() {
        assertThat(OllamaCodec.chat("ollama").opaqueRules()).isSameAs(OpaqueRules.LENIENT);
        assertThat(OpaqueRules.LENIENT.problem(TextPart.of("x"), Seal.Kind.SIGNATURE, "")).isNull();
        assertThat(OpaqueRules.LENIENT.bindsToModel()).isFalse();
    }
}
