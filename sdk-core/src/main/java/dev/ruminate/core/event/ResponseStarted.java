package dev.ruminate.core.event;

import dev.ruminate.core.message.Origin;
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
 * @param origin the provider, API and endpoint identity the response came from, set by the
 *     provider skeleton (decoders leave it null); the reducer records it as the provenance of the
 *     response's opaque state
 * @since 0.1
 */
public record ResponseStarted(String provider, @Nullable String model, @Nullable String responseId,
                              @Nullable Origin origin) implements ChatEvent {

    /**
     * Creates the value without an origin, as decoders do.
     *
     * @param provider see {@link #provider()}
     * @param model see {@link #model()}
     * @param responseId see {@link #responseId()}
     */
    public ResponseStarted(String provider, @Nullable String model, @Nullable String responseId) {
        this(provider, model, responseId, null);
    }

    /**
     * Returns a copy with an origin.
     *
     * @param value the origin
     * @return the event
     */
    public ResponseStarted withOrigin(Origin value) {
        return new ResponseStarted(provider, model, responseId, Objects.requireNonNull(value, "value"));
    }

    /**
     * Creates the value, checking its components.
     *
     * @param provider see {@link #provider()}
     * @param model see {@link #model()}
     * @param responseId see {@link #responseId()}
     * @param origin see {@link #origin()}
     */
    public ResponseStarted {
        Objects.requireNonNull(provider, "provider");
    }
}
