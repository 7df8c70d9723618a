package dev.ruminate.gateway.config;

import dev.ruminate.providers.responses.ReasoningSummaries;
import dev.ruminate.gateway.route.ReasoningToBackend;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The {@code ruminate.gateway.*} properties. The providers behind the routes are configured as
 * everywhere in Ruminate, under {@code ruminate.providers.<name>.*}.
 *
 * <pre>{@code
 * ruminate.providers.deepseek.kind=deepseek
 * ruminate.providers.deepseek.api-key-env=DEEPSEEK_API_KEY
 * ruminate.gateway.routes.deepseek-reasoner.provider=deepseek
 * ruminate.gateway.auth.keys-env=GATEWAY_KEYS
 * ruminate.gateway.rate-limit.requests-per-period=60
 * ruminate.gateway.rate-limit.period=1m
 * }</pre>
 *
 * <p>Secrets (gateway keys, the state key) are best given through environment variables
 * ({@code auth.keys-env}, {@code state.key-env}); {@link #toString()} of every component hides them
 * either way.
 *
 * <p>Immutable and thread-safe (bound once at startup).
 *
 * @param routes the model names served, by name; when empty, one route per configured provider,
 *     named after it
 * @param auth the gateway keys
 * @param rateLimit the per-key rate limit
 * @param store where responses are kept for {@code previous_response_id} and {@code item_reference}
 * @param state the key sealing the opaque state handed to clients
 * @param maxRequestSize the largest request body accepted (default 16MB); larger is a 413
 * @since 0.2
 */
@ConfigurationProperties("ruminate.gateway")
public record GatewayProperties(@DefaultValue Map<String, RouteProperties> routes, @Nullable Auth auth,
                                @Nullable RateLimit rateLimit, @Nullable Store store, @Nullable State state,
                                @Nullable DataSize maxRequestSize) {

    /** The prefix of every property. */
    public static final String PREFIX = "ruminate.gateway";

    /** The default of {@link #maxRequestSize()}. */
    public static final DataSize DEFAULT_MAX_REQUEST_SIZE = DataSize.ofMegabytes(16);

    /**
     * Creates the value, keeping the configured order of the routes.
     *
     * @param routes see {@link #routes()}
     * @param auth see {@link #auth()}
     * @param rateLimit see {@link #rateLimit()}
     * @param store see {@link #store()}
     * @param state see {@link #state()}
     * @param maxRequestSize see {@link #maxRequestSize()}
     */
    public GatewayProperties {
        routes = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(routes, "routes")));
    }

    /**
     * One route, {@code ruminate.gateway.routes.<model>.*}.
     *
     * @param provider the provider's name under {@code ruminate.providers}; defaults to the route's name
     * @param upstreamModel the model asked of the provider; defaults to the route's name
     * @param reasoningToBackend {@code field}, {@code tags} or {@code drop}: how reasoning the client
     *     supplies reaches the backend; the default depends on the backend (see
     *     {@link dev.ruminate.gateway.route.BackendDefaults})
     * @param reasoningSummaries {@code mirror} or {@code off}: whether raw reasoning also goes out as
     *     summary events; default {@code mirror}
     * @since 0.2
     */
    public record RouteProperties(@Nullable String provider, @Nullable String upstreamModel,
                                  @Nullable ReasoningToBackend reasoningToBackend,
                                  @Nullable ReasoningSummaries reasoningSummaries) {
    }

    /**
     * The gateway keys, {@code ruminate.gateway.auth.*}.
     *
     * @param enabled false to serve without keys, allowed only when {@code server.address} is a
     *     loopback address; default true
     * @param keys the keys
     * @param keysEnv the name of an environment variable holding keys, separated by commas
     * @since 0.2
     */
    public record Auth(@Nullable Boolean enabled, @Nullable List<String> keys, @Nullable String keysEnv) {

        /**
         * Describes the settings without the keys.
         *
         * @return the settings, keys counted
         */
        @Override
        public String toString() {
            return "Auth[enabled=" + enabled + ", keys=" + (keys == null ? 0 : keys.size()) + " keys, keysEnv=" + keysEnv + "]";
        }
    }

    /**
     * The per-key rate limit, {@code ruminate.gateway.rate-limit.*}; applies when
     * {@code requests-per-period} is set.
     *
     * @param requestsPerPeriod the requests a key may make per period
     * @param period the period; default 1s
     * @since 0.2
     */
    public record RateLimit(@Nullable Integer requestsPerPeriod, @Nullable Duration period) {
    }

    /**
     * The store, {@code ruminate.gateway.store.*}.
     *
     * @param type {@code memory} (default) or {@code redis}
     * @param maxResponses the most responses kept in memory
     * @param ttl how long a response is kept
     * @param redis the Redis store's settings
     * @since 0.2
     */
    public record Store(@Nullable String type, @Nullable Integer maxResponses, @Nullable Duration ttl,
                        @Nullable Redis redis) {
    }

    /**
     * The Redis store, {@code ruminate.gateway.store.redis.*}.
     *
     * @param uri the Redis URI, such as {@code redis://localhost:6379}
     * @param prefix the prefix of the gateway's keys
     * @since 0.2
     */
    public record Redis(@Nullable String uri, @Nullable String prefix) {

        /**
         * Describes the settings without the URI, which may hold a password.
         *
         * @return the settings
         */
        @Override
        public String toString() {
            return "Redis[uri=" + (uri == null ? "none" : "<set>") + ", prefix=" + prefix + "]";
        }
    }

    /**
     * The key sealing opaque state, {@code ruminate.gateway.state.*}. Without a key, a random one
     * is made for the process, and state handed out does not survive a restart.
     *
     * @param keyId the current key's id, written into every sealed value
     * @param key the current key, base64 (32 bytes for AES-256)
     * @param keyEnv the name of an environment variable holding the key, base64
     * @param previousKeys earlier keys by id, base64, still accepted for opening
     * @param maxAge how old a sealed value may be when it comes back
     * @since 0.2
     */
    public record State(@Nullable String keyId, @Nullable String key, @Nullable String keyEnv,
                        @Nullable Map<String, String> previousKeys, @Nullable Duration maxAge) {

        /**
         * Describes the settings without the keys.
         *
         * @return the settings
         */
        @Override
        public String toString() {
            return "State[keyId=" + keyId + ", key=" + (key == null ? "none" : "<set>") + ", keyEnv=" + keyEnv
                    + ", previousKeys=" + (previousKeys == null ? "[]" : previousKeys.keySet()) + ", maxAge=" + maxAge + "]";
        }
    }
}
