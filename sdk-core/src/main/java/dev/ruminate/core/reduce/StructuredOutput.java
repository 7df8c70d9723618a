package dev.ruminate.core.reduce;

import dev.ruminate.core.event.OutputChecked;
import dev.ruminate.core.request.StructuredOutputMethod;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of asking for structured output ({@link dev.ruminate.core.request.ChatRequest#output()}):
 * how the provider carried the schema, whether the final answer satisfies it and, when not, why.
 * Reduced from the response's final {@link OutputChecked} event.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param schemaName the name of the schema
 * @param method how the provider carried the schema
 * @param valid true when the final answer is JSON that satisfies the schema
 * @param violations what is wrong with the final answer ({@code "path: message"}); empty when valid;
 *     immutable
 * @param attempts how many answers were checked: 1, or 2 when the first was refused and a corrective
 *     attempt was made
 * @param json the final answer that was checked (for a tool method the output tool's arguments, else
 *     the answer text trimmed, one surrounding {@code ```json} fence removed), ready to parse when
 *     valid; null when there was no answer
 * @since 0.3
 */
public record StructuredOutput(String schemaName, StructuredOutputMethod method, boolean valid,
                               List<String> violations, int attempts, @Nullable String json) {

    /**
     * Creates the value, checking its components and copying the violations.
     *
     * @param schemaName see {@link #schemaName()}
     * @param method see {@link #method()}
     * @param valid see {@link #valid()}
     * @param violations see {@link #violations()}
     * @param attempts see {@link #attempts()}
     * @param json see {@link #json()}
     * @throws IllegalArgumentException when attempts is below 1
     */
    public StructuredOutput {
        Objects.requireNonNull(schemaName, "schemaName");
        Objects.requireNonNull(method, "method");
        violations = List.copyOf(violations);
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1: " + attempts);
        }
    }

    /**
     * The outcome a final verdict gives.
     *
     * @param checked the final verdict
     * @param attempts the number of verdicts of the response, this one included
     * @return the outcome
     */
    static StructuredOutput of(OutputChecked checked, int attempts) {
        return new StructuredOutput(checked.schemaName(), checked.method(), checked.valid(), checked.violations(),
                attempts, checked.json());
    }
}
