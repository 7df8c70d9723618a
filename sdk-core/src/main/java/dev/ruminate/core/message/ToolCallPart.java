package dev.ruminate.core.message;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A call of a tool (function) the model asks the application to make.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param id the provider's call id, which the {@link ToolResultMessage} must quote; null when the
 *     provider gives none
 * @param name the function name
 * @param arguments the JSON arguments exactly as assembled from the stream ({@code ""} when the
 *     provider sent none)
 * @param argumentsValid false when {@code arguments} is not one complete JSON value; such a call
 *     must not be executed
 * @param seals opaque state to send back with it (a Gemini thought signature may sit on a call)
 * @since 0.1
 */
public record ToolCallPart(@Nullable String id, String name, String arguments, boolean argumentsValid, Seals seals)
        implements Part {

    /**
     * Creates the value, checking its components.
     *
     * @param id see {@link #id()}
     * @param name see {@link #name()}
     * @param arguments see {@link #arguments()}
     * @param argumentsValid see {@link #argumentsValid()}
     * @param seals see {@link #seals()}
     */
    public ToolCallPart {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(seals, "seals");
    }

    /**
     * {@inheritDoc}
     *
     * @param seals the seals
     * @return this part with the seals
     */
    @Override
    public ToolCallPart withSeals(Seals seals) {
        return seals.equals(this.seals) ? this : new ToolCallPart(id, name, arguments, argumentsValid, seals);
    }
}
