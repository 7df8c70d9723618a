package dev.ruminate.core.loop;

import java.util.Objects;

/**
 * One tool call handed to a {@link ToolHandler}: which tool, with which arguments.
 *
 * <p>Immutable and thread-safe; all components are non-null.
 *
 * @param id the call id that the result answers: the provider's id, or the tool name when the
 *     provider gives none (the convention the request encoders follow)
 * @param name the tool name
 * @param arguments the arguments as JSON text, exactly as the model produced them ({@code {}} when
 *     it sent none); a handler only ever receives one complete JSON value (that satisfies the
 *     tool's JSON schema, when arguments are validated), since a call whose arguments do not is
 *     answered with an error without running the handler (its events show the text as it came)
 * @param step the step whose assistant message asked for the call (0 for calls left unanswered in
 *     the conversation a loop starts from)
 * @param index the call's position among the tool calls of its assistant message
 * @since 0.1
 */
public record ToolCall(String id, String name, String arguments, int step, int index) {

    /**
     * Creates the value, checking its components.
     *
     * @param id see {@link #id()}
     * @param name see {@link #name()}
     * @param arguments see {@link #arguments()}
     * @param step see {@link #step()}
     * @param index see {@link #index()}
     */
    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
        if (step < 0 || index < 0) {
            throw new IllegalArgumentException("step and index must not be negative: " + step + ", " + index);
        }
    }
}
