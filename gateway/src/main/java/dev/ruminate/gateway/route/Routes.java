package dev.ruminate.gateway.route;

import dev.ruminate.providers.serving.ClientRequestException;
import dev.ruminate.providers.serving.OpenAiError;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The routes by model name, in configuration order.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.2
 */
public final class Routes {

    private final Map<String, Route> byName;

    /**
     * Creates the registry.
     *
     * @param routes the routes; names must be unique
     * @throws IllegalArgumentException if two routes share a name
     */
    public Routes(List<Route> routes) {
        Map<String, Route> map = new LinkedHashMap<>();
        for (Route r : routes) {
            if (map.put(r.name(), r) != null) {
                throw new IllegalArgumentException("two routes are named " + r.name());
            }
        }
        this.byName = Collections.unmodifiableMap(map);
    }

    /**
     * Finds the route of a model name.
     *
     * @param model the name a client asked for
     * @return the route, or empty when none has that name
     */
    public Optional<Route> find(String model) {
        return Optional.ofNullable(byName.get(model));
    }

    /**
     * Returns the route of a model name a client asked for.
     *
     * @param model the name
     * @return the route
     * @throws ClientRequestException a 404 {@code model_not_found} (param {@code model}) when no route
     *     has that name
     */
    public Route require(String model) {
        return find(model).orElseThrow(() -> new ClientRequestException(new OpenAiError(404, "invalid_request_error",
                "model_not_found", "The model '" + model + "' does not exist.", "model")));
    }

    /**
     * Lists the routes.
     *
     * @return the routes in configuration order
     */
    public Collection<Route> all() {
        return byName.values();
    }

    /**
     * Describes the routes.
     *
     * @return the routes
     */
    @Override
    public String toString() {
        return "Routes" + byName.values();
    }
}
