package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.loop.ToolCall;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CalculatorTest {

    private static String eval(String expression) {
        return Calculator.format(Calculator.evaluate(expression));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
            "2 + 3 * 4 | 14",
            "(2 + 3) * 4 | 20",
            "2 * 3 ^ 2 | 18",
            "2 ^ 3 ^ 2 | 512",
            "-2 ^ 2 | -4",
            "(-2) ^ 2 | 4",
            "10 - 4 - 3 | 3",
            "2 ^ -2 | 0.25",
            "100 / 8 / 5 | 2.5",
            "((1.5 + 2.5)) * -(3 - 1) | -8",
            "0.1 + 0.2 | 0.3",
            "1 / 3 | 0.3333333333333333333333333333333333",
            "2 ^ 200 | 1.606938044258990275541962092341163E+60",
            "  7  | 7"})
    void evaluatesWithPrecedenceAndParentheses(String expression, String value) {
        assertThat(eval(expression)).isEqualTo(value);
    }

    @Test
    void divisionByZeroIsAClearError() {
        assertThatThrownBy(() -> Calculator.evaluate("5 / (3 - 3)")).isInstanceOf(Calculator.CalculatorException.class)
                .hasMessageStartingWith("division by zero");
        assertThatThrownBy(() -> Calculator.evaluate("0 ^ -1")).hasMessageStartingWith("division by zero");
    }

    @Test
    void anythingButArithmeticIsRejectedNamingWhatAndWhere() {
        assertThatThrownBy(() -> Calculator.evaluate("2 * x")).isInstanceOf(Calculator.CalculatorException.class)
                .hasMessage("unexpected 'x' at position 5: only numbers, + - * / ^ and parentheses are allowed");
        assertThatThrownBy(() -> Calculator.evaluate("sqrt(4)")).hasMessageStartingWith("unexpected 's' at position 1");
        assertThatThrownBy(() -> Calculator.evaluate("1e5")).hasMessageStartingWith("unexpected 'e' at position 2");
        assertThatThrownBy(() -> Calculator.evaluate("2 % 3")).hasMessageStartingWith("unexpected '%'");
        assertThatThrownBy(() -> Calculator.evaluate("(1 + 2")).hasMessage("a parenthesis is not closed");
        assertThatThrownBy(() -> Calculator.evaluate("1 +")).hasMessageContaining("ends where a number");
        assertThatThrownBy(() -> Calculator.evaluate("1.2.3")).hasMessageContaining("is not a number");
        assertThatThrownBy(() -> Calculator.evaluate("")).hasMessage("the expression is empty");
        assertThatThrownBy(() -> Calculator.evaluate("2 ^ 0.5")).hasMessageContaining("must be a whole number");
        assertThatThrownBy(() -> Calculator.evaluate("10 ^ 100000")).hasMessageContaining("must be");
        assertThatThrownBy(() -> Calculator.evaluate("1+".repeat(300) + "1")).hasMessageContaining("longer than");
        assertThatThrownBy(() -> Calculator.evaluate("١٢")).hasMessageStartingWith("unexpected");
    }

    @Test
    void theToolsAnswerInJsonAndRejectBadArguments() {
        ToolCall calc = new ToolCall("c1", "calculator", "{\"expression\":\"(2+3)*4\"}", 1, 0);
        assertThat(BuiltinTools.calculator(calc)).isEqualTo("{\"expression\":\"(2+3)*4\",\"value\":\"20\"}");
        assertThatThrownBy(() -> BuiltinTools.calculator(new ToolCall("c1", "calculator", "{}", 1, 0)))
                .hasMessageContaining("expression is required");

        Clock clock = Clock.fixed(Instant.parse("2026-11-25T21:30:05.123Z"), ZoneOffset.UTC);
        assertThat(BuiltinTools.clock(clock, new ToolCall("t", "clock", "{}", 1, 0)))
                .isEqualTo("{\"utc\":\"2026-11-25T21:30:05Z\"}");
        assertThat(BuiltinTools.clock(clock, new ToolCall("t", "clock", "{\"timezone\":\"Asia/Tokyo\"}", 1, 0)))
                .isEqualTo("{\"utc\":\"2026-11-25T21:30:05Z\",\"timezone\":\"Asia/Tokyo\","
                        + "\"local\":\"2026-11-26T06:30:05+09:00\",\"day_of_week\":\"THURSDAY\"}");
        assertThatThrownBy(() -> BuiltinTools.clock(clock, new ToolCall("t", "clock", "{\"timezone\":\"Mars/Olympus\"}", 1, 0)))
                .hasMessageContaining("unknown time zone \"Mars/Olympus\"");
        assertThat(new BigDecimal("1E+3").stripTrailingZeros().toPlainString()).isEqualTo("1000");
    }
}
