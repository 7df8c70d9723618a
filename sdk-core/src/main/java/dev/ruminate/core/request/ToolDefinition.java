package dev.ruminate.core.request;

import java.util.Objects;

/**
 * A tool (function) the model may call.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param name the function name
 * @param description what it does, for the model
 * @param parametersSchema the JSON Schema of its arguments, as JSON text
 * @since 0.1
 */
public record ToolDefinition(String name, String description, String parametersSchema) {

    /**
     * Creates the value, checking its components.
     *
     * @param name see {@link #name()}
     * @param description see {@link #description()}
     * @param parametersSchema see {@link #parametersSchema()}
     */
    public ToolDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parametersSchema, "parametersSchema");
        if (name.isBlank()) {
            throw new IllegalArgumentException("tool name must not be blank");
        }
    }
}
