package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The one text cutter and the settings every script shares. */
class ScriptTest {

    @Test
    void cutsIntoPiecesOfNCodePointsWithoutSplittingSurrogatePairs() {
        assertThat(Script.cut("a😀b😀😀cd🧠", 2)).containsExactly("a😀", "b😀", "😀c", "d🧠");
        assertThat(Script.cut("abcde", 2)).containsExactly("ab", "cd", "e");
        assertThat(Script.cut("abc", 10)).containsExactly("abc");
    }

    @Test
    void anEmptyTextIsOneEmptyPiece() {
        assertThat(Script.cut("", 4)).containsExactly("");
    }

    @Test
    void emptyArgumentsAreNoFragmentButTextIsOnePiece() {
        ChatCompletionsScript script = ChatCompletionsScript.create().tokensOf(3);

        assertThat(script.fragments("")).isEmpty();
        assertThat(script.fragments("{\"a\":1}")).containsExactly("{\"a", "\":1", "}");
        assertThat(script.pieces("")).containsExactly("");
    }

    static Stream<Script<?>> everyFormat() {
        return Stream.of(ChatCompletionsScript.create(), ResponsesScript.create(), AnthropicScript.create(),
                GeminiScript.create(), OllamaScript.create(), BedrockScript.create());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyFormat")
    void everyFormatRejectsADeltaWithoutACodePoint(Script<?> script) {
        assertThatThrownBy(() -> script.tokensOf(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got 0");
        assertThat(script.tokensOf(1)).isSameAs(script);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyFormat")
    void everyFormatServesItsStreamAsAResponseWithItsContentType(Script<?> script) {
        String contentType = script.toResponse().contentType();

        assertThat(contentType).isIn("text/event-stream", "application/x-ndjson", "application/vnd.amazon.eventstream");
    }

    @Test
    void stepsAreReadOnlyToWriters() {
        List<Step> steps = ChatCompletionsScript.create().content("x").steps();

        assertThatThrownBy(() -> steps.add(new Step.Text("y", null))).isInstanceOf(UnsupportedOperationException.class);
    }
}
