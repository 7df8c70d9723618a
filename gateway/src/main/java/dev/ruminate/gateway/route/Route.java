package dev.ruminate.gateway.route;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.providers.responses.ReasoningSummaries;
import java.util.Objects;

/**
 * One model name the gateway serves: the provider behind it, the model asked of that provider, and
 * how earlier reasoning reaches it.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name the model name clients ask for ({@code model} in their requests)
 * @param providerName the configured provider's name ({@code ruminate.providers.<name>})
 * @param provider the provider
 * @param upstreamModel the model asked of the provider
 * @param reasoningToBackend how client-supplied reasoning reaches the backend
 * @param reasoningSummaries whether raw reasoning is also sent as summary events
 * @since 0.2
 */
public record Route(String name, String providerName, ChatProvider provider, String upstreamModel,
                    ReasoningToBackend reasoningToBackend, ReasoningSummaries reasoningSummaries) {

    /**
     * Creates the value, checking its components.
     *
     * @param name see {@link #name()}
     * @param providerName see {@link #providerName()}
     * @param provider see {@link #provider()}
     * @param upstreamModel see {@link #upstreamModel()}
     * @param reasoningToBackend see {@link #reasoningToBackend()}
     * @param reasoningSummaries see {@link #reasoningSummaries()}
     */
    public Route {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(providerName, "providerName");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(upstreamModel, "upstreamModel");
        Objects.requireNonNull(reasoningToBackend, "reasoningToBackend");
        Objects.requireNonNull(reasoningSummaries, "reasoningSummaries");
    }

    /**
     * Returns the name the backend's turns are labelled with: the provider's own
     * {@link ChatProvider#name()}, which its history preparation compares turns against.
     *
     * @return the provider's name
     */
    public String backendName() {
        return provider.name();
    }

    /**
     * Describes the route; holds no secret.
     *
     * @return the route's settings
     */
    @Override
    public String toString() {
        return "Route[" + name + " -> " + providerName + "/" + upstreamModel + ", reasoning-to-backend="
                + reasoningToBackend + ", reasoning-summaries=" + reasoningSummaries + "]";
    }
}
