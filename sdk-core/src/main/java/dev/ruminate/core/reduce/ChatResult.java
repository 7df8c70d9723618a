package dev.ruminate.core.reduce;

import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.AssistantMessage;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The result of reducing a response: the final message, the reasoning check and the warnings the
 * SDK reported about the call (what it changed or ignored on the caller's behalf).
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param message the final assistant message
 * @param reasoningCheck the verdict of comparing streamed reasoning with the provider's final reasoning
 * @param warnings the {@link Warning} events of the response, in order; immutable, usually empty
 *     (since 0.3)
 * @param output the outcome of structured output when the request had an output schema (the
 *     provider's final {@link dev.ruminate.core.event.OutputChecked} verdict), or null (since 0.3)
 * @since 0.1
 */
public record ChatResult(AssistantMessage message, ReasoningCheck reasoningCheck, List<Warning> warnings,
                         @Nullable StructuredOutput output) {

    /**
     * Creates the value, checking its components and copying the warnings.
     *
     * @param message see {@link #message()}
     * @param reasoningCheck see {@link #reasoningCheck()}
     * @param warnings see {@link #warnings()}
     * @param output see {@link #output()}
     */
    public ChatResult {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(reasoningCheck, "reasoningCheck");
        warnings = List.copyOf(warnings);
    }

    /**
     * Creates a result without structured output.
     *
     * @param message see {@link #message()}
     * @param reasoningCheck see {@link #reasoningCheck()}
     * @param warnings see {@link #warnings()}
     */
    public ChatResult(AssistantMessage message, ReasoningCheck reasoningCheck, List<Warning> warnings) {
        this(message, reasoningCheck, warnings, null);
    }

    /**
     * Creates a result without warnings (the constructor of 0.1 and 0.2).
     *
     * @param message see {@link #message()}
     * @param reasoningCheck see {@link #reasoningCheck()}
     */
    public ChatResult(AssistantMessage message, ReasoningCheck reasoningCheck) {
        this(message, reasoningCheck, List.of(), null);
    }
}
