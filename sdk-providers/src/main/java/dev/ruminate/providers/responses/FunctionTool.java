package dev.ruminate.providers.responses;

import dev.ruminate.core.request.ToolDefinition;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A function tool of a Responses request ({@code {"type":"function","name","description",
 * "parameters","strict"}}), as {@link ResponsesRequestReader} read it.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name the function name
 * @param description what it does, for the model; empty when the request gave none
 * @param parametersJson the JSON Schema of its arguments as JSON text; an empty object schema when
 *     the request gave none
 * @param strict the request's {@code strict}, or null when absent
 * @since 0.2
 */
public record FunctionTool(String name, String description, String parametersJson, @Nullable Boolean strict) {

    /**
     * Creates the value, checking its components.
     *
     * @param name see {@link #name()}
     * @param description see {@link #description()}
     * @param parametersJson see {@link #parametersJson()}
     * @param strict see {@link #strict()}
     */
    public FunctionTool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parametersJson, "parametersJson");
    }

    /**
     * Returns the tool as Ruminate's neutral definition; {@code strict} has no neutral form and is
     * not carried.
     *
     * @return the definition
     */
    public ToolDefinition toDefinition() {
        return new ToolDefinition(name, description, parametersJson);
    }
}
