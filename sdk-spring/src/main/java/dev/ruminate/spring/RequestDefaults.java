package dev.ruminate.spring;

import dev.ruminate.core.request.ReasoningOptions;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a configured provider puts in the requests it starts: in Ruminate the model and the reasoning
 * options belong to each request, not to the client, so the {@code model} and {@code reasoning.*}
 * properties are kept here and applied by {@link RuminateProviders#request(String)}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param model the default model, or null when none is configured
 * @param reasoning the default reasoning options ({@link ReasoningOptions#DEFAULT} when none)
 * @since 0.1
 */
public record RequestDefaults(@Nullable String model, ReasoningOptions reasoning) {

    /** No model and the provider's reasoning defaults. */
    public static final RequestDefaults NONE = new RequestDefaults(null, ReasoningOptions.DEFAULT);

    /**
     * Creates the value, checking its components.
     *
     * @param model see {@link #model()}
     * @param reasoning see {@link #reasoning()}
     */
    public RequestDefaults {
        Objects.requireNonNull(reasoning, "reasoning");
    }
}
