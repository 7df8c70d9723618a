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
 * @param requestedModel the model the request named, set by the provider skeleton with the
 *     origin; a provider may report another id for it (a dated snapshot for an alias), and a later
 *     request names it the same way, so opaque state bound to a model is compared with both
 * @since 0.1
 */
public record ResponseStarted(String provider, @Nullable String model, @Nullable String responseId,
                              @Nullable Origin origin, @Nullable String requestedModel) implements ChatEvent {

    /**
     * Creates the value without an origin, as decoders do.
     *
     * @param provider see {@link #provider()}
     * @param model see {@link #model()}
     * @param responseId see {@link #responseId()}
     */
    public ResponseStarted(String provider, @Nullable String model, @Nullable String responseId) {
        this(provider, model, responseId, null, null);
    }

    /**
     * Creates the value with an origin and no requested model.
     *
     * @param provider see {@link #provider()}
     * @param model see {@link #model()}
     * @param responseId see {@link #responseId()}
     * @param origin see {@link #origin()}
     */
    public ResponseStarted(String provider, @Nullable String model, @Nullable String responseId,
                           @Nullable Origin origin) {
        this(provider, model, responseId, origin, null);
    }

    /**
     * Returns a copy with an origin.
     *
     * @param value the origin
     * @return the event
     */
    public ResponseStarted withOrigin(Origin value) {
        return new ResponseStarted(provider, model, responseId, Objects.requireNonNull(value, "value"), requestedModel);
    }

    /**
     * Returns a copy with an origin and the model the request named.
     *
     * @param value the origin
     * @param requested the requested model, or null when unknown
     * @return the event
     */
    public ResponseStarted withOrigin(Origin value, @Nullable String requested) {
        return new ResponseStarted(provider, model, responseId, Objects.requireNonNull(value, "value"), requested);
    }

    /**
     * Creates the value, checking its components.
     *
     * @param provider see {@link #provider()}
     * @param model see {@link #model()}
     * @param responseId see {@link #responseId()}
     * @param origin see {@link #origin()}
     * @param requestedModel see {@link #requestedModel()}
     */
    public ResponseStarted {
        Objects.requireNonNull(provider, "provider");
    }
}
