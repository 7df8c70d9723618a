package dev.ruminate.cli;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Evaluates an arithmetic expression for the {@code calculator} tool: decimal numbers, {@code + - * / ^}
 * and parentheses, with the usual precedence ({@code ^} binds tightest and to the right, then unary
 * minus, then {@code * /}, then {@code + -}), in {@link BigDecimal} with 34 significant digits
 * ({@link MathContext#DECIMAL128}). Anything else is rejected with a {@link CalculatorException}
 * whose message tells the model what to fix: it goes back to the model as the tool's error.
 *
 * <p>Stateless and thread-safe; one parse per call, no recursion deeper than the expression's
 * nesting, which is bounded by {@link #MAX_LENGTH}.
 */
final class Calculator {

    /** Longer expressions are refused: they are not what a model needs a calculator for. */
    static final int MAX_LENGTH = 500;
    /** Larger exponents would make numbers of unbounded size; 34 digits of precision cannot use them anyway. */
    private static final int MAX_EXPONENT = 9999;
    private static final MathContext MC = MathContext.DECIMAL128;

    private final String text;
    private int pos;

    private Calculator(String text) {
        this.text = text;
    }

    /**
     * Evaluates an expression.
     *
     * @param expression the expression, e.g. {@code 2 * (3 + 4) ^ 2}
     * @return the value, rounded to 34 significant digits
     * @throws CalculatorException when the expression is not arithmetic over numbers, or divides by zero
     */
    static BigDecimal evaluate(String expression) {
        if (expression.length() > MAX_LENGTH) {
            throw new CalculatorException("the expression is longer than " + MAX_LENGTH + " characters");
        }
        Calculator c = new Calculator(expression);
        c.skipSpaces();
        if (c.atEnd()) {
            throw new CalculatorException("the expression is empty");
        }
        BigDecimal value = c.sum();
        if (!c.atEnd()) {
            throw c.unexpected();
        }
        return value;
    }

    /** Formats a value without an exponent when it is of a readable size, in scientific notation otherwise. */
    static String format(BigDecimal value) {
        BigDecimal v = value.stripTrailingZeros();
        int digitsBeforePoint = v.precision() - v.scale();
        return digitsBeforePoint > 40 || digitsBeforePoint < -20 ? v.toString() : v.toPlainString();
    }

    private BigDecimal sum() {
        BigDecimal value = product();
        while (true) {
            if (accept('+')) {
                value = value.add(product(), MC);
            } else if (accept('-')) {
                value = value.subtract(product(), MC);
            } else {
                return value;
            }
        }
    }

    private BigDecimal product() {
        BigDecimal value = unary();
        while (true) {
            if (accept('*')) {
                value = value.multiply(unary(), MC);
            } else if (accept('/')) {
                int at = pos;
                BigDecimal divisor = unary();
                if (divisor.signum() == 0) {
                    throw new CalculatorException("division by zero (the divisor at position " + (at + 1) + " is 0)");
                }
                value = value.divide(divisor, MC);
            } else {
                return value;
            }
        }
    }

    private BigDecimal unary() {
        if (accept('-')) {
            return unary().negate(MC);
        }
        if (accept('+')) {
            return unary();
        }
        return power();
    }

    private BigDecimal power() {
        BigDecimal base = primary();
        if (!accept('^')) {
            return base;
        }
        int at = pos;
        BigDecimal exponent = unary();
        int n;
        try {
            n = exponent.intValueExact();
        } catch (ArithmeticException e) {
            throw new CalculatorException("the exponent at position " + (at + 1) + " must be a whole number between "
                    + -MAX_EXPONENT + " and " + MAX_EXPONENT);
        }
        if (Math.abs(n) > MAX_EXPONENT) {
            throw new CalculatorException("the exponent at position " + (at + 1) + " must be between "
                    + -MAX_EXPONENT + " and " + MAX_EXPONENT);
        }
        if (n < 0 && base.signum() == 0) {
            throw new CalculatorException("division by zero (0 to a negative power)");
        }
        return base.pow(n, MC);
    }

    private BigDecimal primary() {
        if (accept('(')) {
            BigDecimal value = sum();
            if (!accept(')')) {
                throw atEnd() ? new CalculatorException("a parenthesis is not closed") : unexpected();
            }
            return value;
        }
        int start = pos;
        while (pos < text.length() && (Character.isDigit(text.charAt(pos)) && text.charAt(pos) < 128 || text.charAt(pos) == '.')) {
            pos++;
        }
        if (start == pos) {
            throw atEnd() ? new CalculatorException("the expression ends where a number or '(' is expected") : unexpected();
        }
        String number = text.substring(start, pos);
        skipSpaces();
        try {
            return new BigDecimal(number);
        } catch (NumberFormatException e) {
            throw new CalculatorException("'" + number + "' at position " + (start + 1) + " is not a number");
        }
    }

    private boolean accept(char c) {
        if (pos < text.length() && text.charAt(pos) == c) {
            pos++;
            skipSpaces();
            return true;
        }
        return false;
    }

    private void skipSpaces() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private boolean atEnd() {
        return pos >= text.length();
    }

    private CalculatorException unexpected() {
        int cp = text.codePointAt(pos);
        return new CalculatorException("unexpected '" + new String(Character.toChars(cp)) + "' at position " + (pos + 1)
                + ": only numbers, + - * / ^ and parentheses are allowed");
    }

    /** An expression the calculator cannot evaluate; the message is written for the model to act on. */
    static final class CalculatorException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        CalculatorException(String message) {
            super(message);
        }
    }
}
