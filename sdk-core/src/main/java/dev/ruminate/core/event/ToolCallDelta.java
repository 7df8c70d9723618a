package dev.ruminate.core.event;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A fragment of a tool (function) call.
 *
 * <p>The provider's id and name usually arrive with the first fragment only; later fragments carry
 * {@code null} for both and add to the JSON arguments. Some providers send the whole call in one
 * fragment.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param part the part this fragment belongs to
 * @param toolIndex the provider's index of the call within the response (the OpenAI
 *     {@code tool_calls[].index}), kept for diagnostics and send-back
 * @param id the provider's call id, when this fragment carries it
 * @param name the function name, when this fragment carries it
 * @param argumentsDelta a fragment of the JSON arguments text, possibly empty
 * @since 0.1
 */
public record ToolCallDelta(int part, int toolIndex, @Nullable String id, @Nullable String name, String argumentsDelta)
        implements ChatEvent {

    /**
     * Creates the value, checking its components.
     *
     * @param part see {@link #part()}
     * @param toolIndex see {@link #toolIndex()}
     * @param id see {@link #id()}
     * @param name see {@link #name()}
     * @param argumentsDelta see {@link #argumentsDelta()}
     */
    public ToolCallDelta {
        Parts.requireIndex(part);
        Objects.requireNonNull(argumentsDelta, "argumentsDelta");
    }
}
