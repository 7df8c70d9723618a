package dev.ruminate.core.event;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Opens a response: which provider answered, with which model, under which response id.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param provider the provider or profile name, e.g. {@code deepseek}
 * @param model the model the provider reports, if it reports one
 * @param responseId the provider's id for this response, if any
 * @since 0.1
 */
public record ResponseStarted(String provider, @Nullable String model, @Nullable String responseId)
        implements ChatEvent {

    /**
     * Creates the value, checking its components.
     *
     * @param provider see {@link #provider()}
     * @param model see {@link #model()}
     * @param responseId see {@link #responseId()}
     */
    public ResponseStarted {
        Objects.requireNonNull(provider, "provider");
    }
}
