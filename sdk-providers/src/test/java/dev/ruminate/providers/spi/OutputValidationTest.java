package dev.ruminate.providers.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.networknt.schema.Schema;
import dev.ruminate.core.request.OutputSchema;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * How an answer is checked against an output schema: violations as {@code "path: message"} in
 * English whatever the default locale, at most ten listed, JSON that is not JSON said so, one
 * surrounding fence taken away and no more, a schema compiled once per text, a broken one refused.
 */
class OutputValidationTest {

    private static final OutputSchema ITEMS = OutputSchema.of("items", "{\"type\":\"object\",\"properties\":{"
            + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},\"name\":{\"type\":\"string\"}},"
            + "\"required\":[\"name\"]}");

    @Test
    void violationsNameTheirPlaceInEnglish() {
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.GERMAN);
        try {
            OutputValidation.Verdict verdict = OutputValidation.check(OutputValidation.compile(ITEMS),
                    "{\"tags\":[\"a\",1]}", "none");

            assertThat(verdict.valid()).isFalse();
            assertThat(verdict.violations()).containsExactlyInAnyOrder("$.tags[1]: integer found, string expected",
                    "$: required property 'name' not found");
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void atMostTenAreListedAndTheRestCounted() {
        StringBuilder tags = new StringBuilder("{\"name\":\"n\",\"tags\":[");
        for (int i = 0; i < 14; i++) {
            tags.append(i > 0 ? "," : "").append(i);
        }
        OutputValidation.Verdict verdict = OutputValidation.check(OutputValidation.compile(ITEMS), tags + "]}", "none");

        assertThat(verdict.violations()).hasSize(11);
        assertThat(verdict.violations().get(0)).isEqualTo("$.tags[0]: integer found, string expected");
        assertThat(verdict.violations().get(10)).isEqualTo("(and 4 more)");
    }

    @Test
    void anAnswerThatIsNotJsonOrMissingIsInvalidWithAClearViolation() {
        Schema schema = OutputValidation.compile(ITEMS);

        assertThat(OutputValidation.check(schema, "The name is n.", "none").violations())
                .singleElement().asString().startsWith("$: the answer is not JSON (");
        assertThat(OutputValidation.check(schema, "{\"name\":", "none").valid()).isFalse();
        assertThat(OutputValidation.check(schema, null, "there is no answer text").violations())
                .containsExactly("$: there is no answer text");
        assertThat(OutputValidation.check(schema, "  ", "there is no answer text").violations())
                .containsExactly("$: there is no answer text");
        assertThat(OutputValidation.check(schema, "{\"name\":\"n\"}", "none"))
                .isEqualTo(new OutputValidation.Verdict(true, List.of()));
    }

    @Test
    void oneSurroundingFenceIsTakenAway() {
        assertThat(OutputValidation.unfenced("  {\"a\":1}\n")).isEqualTo("{\"a\":1}");
        assertThat(OutputValidation.unfenced("```json\n{\"a\":1}\n```")).isEqualTo("{\"a\":1}");
        assertThat(OutputValidation.unfenced("```JSON\n{\"a\":1}```")).isEqualTo("{\"a\":1}");
        assertThat(OutputValidation.unfenced("```\n[1]\n```\n")).isEqualTo("[1]");
        // another language, text around the fence, or two fenced blocks: left as they are
        assertThat(OutputValidation.unfenced("```yaml\na: 1\n```")).isEqualTo("```yaml\na: 1\n```");
        assertThat(OutputValidation.unfenced("Here:\n```json\n{}\n```")).isEqualTo("Here:\n```json\n{}\n```");
        assertThat(OutputValidation.unfenced("```json\n{}\n```\n```json\n{}\n```"))
                .isEqualTo("```json\n{}\n```\n```json\n{}\n```");
    }

    @Test
    void aSchemaIsCompiledOncePerText() {
        assertThat(OutputValidation.compile(ITEMS)).isSameAs(OutputValidation.compile(
                new OutputSchema("other-name", ITEMS.schema(), "described", false, OutputSchema.Strategy.TOOL)));
    }

    @Test
    void aSchemaThatCannotBeCompiledIsRefusedWithItsName() {
        assertThatThrownBy(() -> OutputValidation.compile(OutputSchema.of("broken", "{\"$ref\":\"#/$defs/none\"}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the output schema broken cannot be compiled: ");
    }
}
