package dev.ruminate.core.event;

import dev.ruminate.core.request.StructuredOutputMethod;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The verdict of checking an answer against the request's
 * {@linkplain dev.ruminate.core.request.ChatRequest#output() output schema}: emitted by the provider
 * pipeline after the answer of a request with an output schema, before its {@link ResponseCompleted}
 * (never for a request without one, and not after a response that ends in calls of other tools, a
 * step of a tool loop that has no answer yet).
 *
 * <p>With {@code retrying} set, the answer was refused and a corrective attempt follows: the
 * attempt's own {@code ResponseCompleted} is withheld, a {@link Warning} with the code
 * {@link Warning#STRUCTURED_OUTPUT_RETRIED} comes next, then the corrective attempt's response from
 * its own {@link ResponseStarted}. A reducer starts the message over at this event (see
 * {@link dev.ruminate.core.reduce.Reduction}). The second verdict is final.
 *
 * <p>Not opaque state, and not part of the model's answer: writers that re-serve a response in a
 * provider's own wire format skip it, as they skip {@link Warning}.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param schemaName the {@linkplain dev.ruminate.core.request.OutputSchema#name() name} of the schema
 * @param method how the provider carried the schema
 * @param valid true when the answer is JSON that satisfies the schema
 * @param violations what is wrong with the answer, one entry per violation ({@code "path: message"},
 *     at most a few listed, the last saying how many more there were); empty when valid; immutable
 * @param retrying true when the answer was refused and one corrective attempt follows
 * @param json the answer that was checked (for a tool method the output tool's arguments, else the
 *     answer text trimmed, one surrounding {@code ```json} fence removed), or null when there was none
 * @since 0.3
 */
public record OutputChecked(String schemaName, StructuredOutputMethod method, boolean valid, List<String> violations,
                            boolean retrying, @Nullable String json) implements ChatEvent {

    /**
     * Creates the value, checking its components and copying the violations.
     *
     * @param schemaName see {@link #schemaName()}
     * @param method see {@link #method()}
     * @param valid see {@link #valid()}
     * @param violations see {@link #violations()}
     * @param retrying see {@link #retrying()}
     * @param json see {@link #json()}
     * @throws IllegalArgumentException when a valid answer lists violations, or is retried
     */
    public OutputChecked {
        Objects.requireNonNull(schemaName, "schemaName");
        Objects.requireNonNull(method, "method");
        violations = List.copyOf(violations);
        if (valid && (!violations.isEmpty() || retrying)) {
            throw new IllegalArgumentException("a valid answer has no violations and is not retried");
        }
    }

    /**
     * Creates a verdict without the checked answer.
     *
     * @param schemaName see {@link #schemaName()}
     * @param method see {@link #method()}
     * @param valid see {@link #valid()}
     * @param violations see {@link #violations()}
     * @param retrying see {@link #retrying()}
     */
    public OutputChecked(String schemaName, StructuredOutputMethod method, boolean valid, List<String> violations,
                         boolean retrying) {
        this(schemaName, method, valid, violations, retrying, null);
    }
}
