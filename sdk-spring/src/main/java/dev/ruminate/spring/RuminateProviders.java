package dev.ruminate.spring;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.request.ChatRequest;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The configured providers by name: the same instances as the named {@link ChatProvider} beans
 * (a bean you define under a provider's name is the one found here), for code that picks a
 * provider at run time, such as a controller taking the provider as a parameter.
 *
 * <pre>{@code
 * ChatRequest request = providers.request("deepseek").user("Why is the sky blue?").build();
 * Flux<ChatEvent> events = providers.get("deepseek").stream(request);
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class RuminateProviders {

    private final Map<String, ChatProvider> providers;
    private final Map<String, RequestDefaults> defaults;

    /**
     * Creates a registry.
     *
     * @param providers the providers by name, in the order to list them
     * @param defaults each provider's request defaults; a provider without an entry has
     *     {@link RequestDefaults#NONE}
     */
    public RuminateProviders(Map<String, ChatProvider> providers, Map<String, RequestDefaults> defaults) {
        this.providers = Collections.unmodifiableMap(new LinkedHashMap<>(providers));
        this.defaults = Map.copyOf(defaults);
    }

    /**
     * Returns a provider.
     *
     * @param name the configured name
     * @return the provider
     * @throws IllegalArgumentException if no provider has that name; the message lists the names
     */
    public ChatProvider get(String name) {
        ChatProvider provider = providers.get(Objects.requireNonNull(name, "name"));
        if (provider == null) {
            throw unknown(name);
        }
        return provider;
    }

    /**
     * Looks a provider up.
     *
     * @param name the configured name
     * @return the provider, or empty when no provider has that name
     */
    public Optional<ChatProvider> find(String name) {
        return Optional.ofNullable(providers.get(Objects.requireNonNull(name, "name")));
    }

    /**
     * Lists the configured names.
     *
     * @return the names, in configuration order
     */
    public Set<String> names() {
        return providers.keySet();
    }

    /**
     * Returns a provider's request defaults.
     *
     * @param name the configured name
     * @return the model and reasoning options configured for it
     * @throws IllegalArgumentException if no provider has that name
     */
    public RequestDefaults defaults(String name) {
        get(name);
        return defaults.getOrDefault(name, RequestDefaults.NONE);
    }

    /**
     * Starts a request with a provider's configured model and reasoning options; add the messages
     * and build it.
     *
     * @param name the configured name
     * @return a new builder
     * @throws IllegalArgumentException if no provider has that name
     * @throws IllegalStateException if no {@code model} is configured for it
     */
    public ChatRequest.Builder request(String name) {
        RequestDefaults d = defaults(name);
        String model = d.model();
        if (model == null) {
            throw new IllegalStateException("no model configured for provider " + name + ": set "
                    + RuminateProperties.PREFIX + ".providers." + name + ".model or use ChatRequest.builder(model)");
        }
        return ChatRequest.builder(model).reasoning(d.reasoning());
    }

    private IllegalArgumentException unknown(String name) {
        return new IllegalArgumentException("no Ruminate provider named " + name + "; configured: " + providers.keySet());
    }

    /**
     * Describes the registry.
     *
     * @return the configured names and the providers' own descriptions (which never show keys)
     */
    @Override
    public String toString() {
        return "RuminateProviders" + providers;
    }
}
