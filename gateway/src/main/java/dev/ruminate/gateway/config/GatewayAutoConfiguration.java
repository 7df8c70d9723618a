package dev.ruminate.gateway.config;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.gateway.auth.GatewayAuthFilter;
import dev.ruminate.gateway.chatcompletions.ChatCompletionsService;
import dev.ruminate.gateway.auth.GatewayKeys;
import dev.ruminate.gateway.auth.KeyRateLimits;
import dev.ruminate.core.ui.ServerTurns;
import dev.ruminate.gateway.http.AgUiEndpoint;
import dev.ruminate.gateway.http.GatewayEndpoints;
import dev.ruminate.gateway.responses.ResponsesService;
import dev.ruminate.gateway.route.BackendDefaults;
import dev.ruminate.providers.responses.ReasoningSummaries;
import dev.ruminate.gateway.route.Route;
import dev.ruminate.gateway.route.Routes;
import dev.ruminate.gateway.state.AesGcmStateSealer;
import dev.ruminate.gateway.state.StateSealer;
import dev.ruminate.gateway.store.InMemoryItemStore;
import dev.ruminate.gateway.store.RedisItemStore;
import dev.ruminate.gateway.store.ItemStore;
import dev.ruminate.providers.ProviderKind;
import dev.ruminate.providers.ProviderKinds;
import dev.ruminate.providers.responses.ResponsesRequestReader;
import dev.ruminate.spring.EnvironmentVariables;
import dev.ruminate.spring.ProviderProperties;
import dev.ruminate.spring.RuminateAutoConfiguration;
import dev.ruminate.spring.RuminateProperties;
import dev.ruminate.spring.RuminateProviders;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Serves the gateway in a reactive web application: the routes from {@code ruminate.gateway.routes}
 * over the providers of {@code ruminate.providers}, the endpoints, the key filter with its rate
 * limit, the item store and the state sealer. Each bean backs off when the application defines its
 * own of that type.
 *
 * <p>Startup fails, naming the property, when a route names no configured provider, when auth is on
 * without keys, or when auth is off while the server may bind a non-loopback address.
 *
 * @since 0.2
 */
@AutoConfiguration(after = RuminateAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@EnableConfigurationProperties(GatewayProperties.class)
public class GatewayAutoConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(GatewayAutoConfiguration.class);

    /** Creates the configuration; Spring calls it. */
    public GatewayAutoConfiguration() {
    }

    /**
     * The routes.
     *
     * @param properties the gateway's properties
     * @param providers the configured providers
     * @param ruminate the providers' properties, for their kinds
     * @return the routes
     */
    @Bean
    @ConditionalOnMissingBean
    public Routes gatewayRoutes(GatewayProperties properties, RuminateProviders providers, RuminateProperties ruminate) {
        Map<String, GatewayProperties.RouteProperties> configured = properties.routes();
        List<Route> routes = new ArrayList<>();
        if (configured.isEmpty()) {
            for (String name : providers.names()) {
                String model = providers.defaults(name).model();
                routes.add(route(name, new GatewayProperties.RouteProperties(name, model, null, null), providers, ruminate));
            }
        } else {
            configured.forEach((name, route) -> routes.add(route(name, route, providers, ruminate)));
        }
        Routes result = new Routes(routes);
        LOG.debug("gateway routes: {}", result);
        return result;
    }

    private static Route route(String name, GatewayProperties.RouteProperties settings, RuminateProviders providers,
                               RuminateProperties ruminate) {
        String providerName = settings.provider() != null ? settings.provider() : name;
        ChatProvider provider = providers.find(providerName).orElseThrow(() -> new InvalidConfigurationPropertyValueException(
                GatewayProperties.PREFIX + ".routes." + name + ".provider", providerName,
                "no provider of that name is configured under ruminate.providers; configured: " + providers.names()));
        ProviderProperties providerSettings = ruminate.providers().get(providerName);
        ProviderKind kind = providerSettings == null || providerSettings.kind() == null ? null
                : ProviderKinds.find(providerSettings.kind()).orElse(null);
        boolean thinkTags = providerSettings != null && Boolean.TRUE.equals(providerSettings.thinkTags());
        return new Route(name, providerName, provider,
                settings.upstreamModel() != null ? settings.upstreamModel() : name,
                settings.reasoningToBackend() != null ? settings.reasoningToBackend()
                        : BackendDefaults.reasoningToBackend(kind, thinkTags),
                settings.reasoningSummaries() != null ? settings.reasoningSummaries() : ReasoningSummaries.MIRROR);
    }

    /**
     * The item store: {@code memory} (bounded in number and age) unless {@code store.type=redis}.
     *
     * @param properties the gateway's properties
     * @return the store
     */
    @Bean
    @ConditionalOnMissingBean
    public ItemStore gatewayItemStore(GatewayProperties properties) {
        GatewayProperties.Store store = properties.store();
        String type = store == null || store.type() == null ? "memory" : store.type().strip().toLowerCase(Locale.ROOT);
        Duration ttl = store == null ? null : store.ttl();
        String prefix = GatewayProperties.PREFIX + ".store";
        if (ttl != null && (ttl.isNegative() || ttl.isZero())) {
            throw new InvalidConfigurationPropertyValueException(prefix + ".ttl", ttl, "must be positive");
        }
        switch (type) {
            case "memory" -> {
                InMemoryItemStore.Builder b = InMemoryItemStore.builder();
                if (ttl != null) {
                    b.maxAge(ttl);
                }
                if (store != null && store.maxResponses() != null) {
                    if (store.maxResponses() < 1) {
                        throw new InvalidConfigurationPropertyValueException(prefix + ".max-responses",
                                store.maxResponses(), "must be positive");
                    }
                    b.maxResponses(store.maxResponses());
                }
                return b.build();
            }
            case "redis" -> {
                GatewayProperties.Redis redis = store == null ? null : store.redis();
                if (redis == null || redis.uri() == null || redis.uri().isBlank()) {
                    throw new InvalidConfigurationPropertyValueException(prefix + ".redis.uri", null,
                            "a Redis URI is required for store.type=redis");
                }
                return RedisItemStore.connect(redis.uri().strip(),
                        redis.prefix() != null ? redis.prefix() : RedisItemStore.DEFAULT_PREFIX,
                        ttl != null ? ttl : InMemoryItemStore.DEFAULT_MAX_AGE);
            }
            default -> throw new InvalidConfigurationPropertyValueException(prefix + ".type", type,
                    "expected memory or redis");
        }
    }

    /**
     * The state sealer: AES-256-GCM under the configured key; without one, under a random key of
     * this process (with a warning: stateless clients' state does not survive a restart).
     *
     * @param properties the gateway's properties
     * @param variables the process environment, for {@code key-env}
     * @return the sealer
     */
    @Bean
    @ConditionalOnMissingBean
    public StateSealer gatewayStateSealer(GatewayProperties properties, EnvironmentVariables variables) {
        GatewayProperties.State state = properties.state();
        String prefix = GatewayProperties.PREFIX + ".state";
        String key = state == null ? null : state.key();
        if (state != null && state.keyEnv() != null) {
            key = variables.get(state.keyEnv());
            if (key == null || key.isBlank()) {
                throw new InvalidConfigurationPropertyValueException(prefix + ".key-env", state.keyEnv(),
                        "the environment variable " + state.keyEnv() + " is not set or is blank");
            }
        }
        AesGcmStateSealer.Builder b = AesGcmStateSealer.builder();
        try {
            if (key == null || key.isBlank()) {
                LOG.warn("{}: no key is configured; the state handed to stateless clients is sealed under a random key of "
                        + "this process and will not survive a restart", prefix);
                byte[] random = new byte[32];
                new SecureRandom().nextBytes(random);
                b.currentKey("process", Base64.getEncoder().encodeToString(random));
            } else {
                b.currentKey(state != null && state.keyId() != null ? state.keyId() : "k1", key.strip());
            }
            if (state != null && state.previousKeys() != null) {
                state.previousKeys().forEach((id, older) -> b.olderKey(id, older.strip()));
            }
            if (state != null && state.maxAge() != null) {
                b.maxAge(state.maxAge());
            }
            return b.build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            // the sealer's messages name key ids, never key material
            throw new InvalidConfigurationPropertyValueException(prefix, state, String.valueOf(e.getMessage()));
        }
    }

    /**
     * The Responses service.
     *
     * @param routes the routes
     * @param store the store
     * @param sealer the sealer
     * @param properties the gateway's properties
     * @return the service
     */
    @Bean
    @ConditionalOnMissingBean
    public ResponsesService gatewayResponsesService(Routes routes, ItemStore store, StateSealer sealer,
                                                   GatewayProperties properties) {
        return new ResponsesService(routes, store, sealer,
                ResponsesRequestReader.withLimits(maxRequestBytes(properties), ResponsesRequestReader.DEFAULT_MAX_ITEMS),
                Clock.systemUTC());
    }

    /**
     * The Chat Completions service.
     *
     * @param routes the routes
     * @param properties the gateway's properties
     * @return the service
     */
    @Bean
    @ConditionalOnMissingBean
    public ChatCompletionsService gatewayChatCompletionsService(Routes routes, GatewayProperties properties) {
        return new ChatCompletionsService(routes, maxRequestBytes(properties), Clock.systemUTC());
    }

    /**
     * The endpoints.
     *
     * @param responses the Responses service
     * @param chatCompletions the Chat Completions service
     * @param routes the routes
     * @param properties the gateway's properties
     * @param turns the turns shown to front ends ({@code POST /api/chat})
     * @return the endpoints
     */
    @Bean
    @ConditionalOnMissingBean
    public GatewayEndpoints gatewayEndpoints(ResponsesService responses, ChatCompletionsService chatCompletions,
                                             Routes routes, GatewayProperties properties, ServerTurns turns) {
        return new GatewayEndpoints(responses, chatCompletions, routes, maxRequestBytes(properties), Instant.now(),
                turns);
    }

    private static int maxRequestBytes(GatewayProperties properties) {
        long max = (properties.maxRequestSize() != null ? properties.maxRequestSize()
                : GatewayProperties.DEFAULT_MAX_REQUEST_SIZE).toBytes();
        if (max < 1 || max > Integer.MAX_VALUE) {
            throw new InvalidConfigurationPropertyValueException(GatewayProperties.PREFIX + ".max-request-size",
                    properties.maxRequestSize(), "must be between 1 byte and 2GB");
        }
        return (int) max;
    }

    /**
     * The endpoints' router.
     *
     * @param endpoints the endpoints
     * @return the router function
     */
    @Bean
    public RouterFunction<ServerResponse> gatewayRouter(GatewayEndpoints endpoints) {
        return endpoints.router();
    }

    /**
     * The turns shown to browser front ends ({@code POST /api/chat} and {@code POST /ag-ui}), with their
     * opaque state: in memory, the 10,000 most recently used.
     *
     * @return the store
     */
    @Bean
    @ConditionalOnMissingBean
    public ServerTurns gatewayServerTurns() {
        return ServerTurns.inMemory(10_000);
    }

    /**
     * {@code POST /ag-ui}, the AG-UI endpoint.
     *
     * @param routes the routes
     * @param turns the turns shown to front ends
     * @param properties the gateway's properties
     * @return the endpoint
     */
    @Bean
    @ConditionalOnMissingBean
    public AgUiEndpoint gatewayAgUiEndpoint(Routes routes, ServerTurns turns, GatewayProperties properties) {
        return new AgUiEndpoint(routes, turns, maxRequestBytes(properties));
    }

    /**
     * The AG-UI endpoint's router.
     *
     * @param endpoint the endpoint
     * @return the router function
     */
    @Bean
    public RouterFunction<ServerResponse> gatewayAgUiRouter(AgUiEndpoint endpoint) {
        return endpoint.router();
    }

    /**
     * The key filter and rate limit.
     *
     * @param properties the gateway's properties
     * @param environment the Spring environment, for {@code server.address}
     * @param variables the process environment, for {@code keys-env}
     * @return the filter
     */
    @Bean
    @ConditionalOnMissingBean
    public GatewayAuthFilter gatewayAuthFilter(GatewayProperties properties, Environment environment,
                                               EnvironmentVariables variables) {
        return new GatewayAuthFilter(keys(properties.auth(), environment, variables), limits(properties.rateLimit()));
    }

    private static @Nullable GatewayKeys keys(GatewayProperties.@Nullable Auth auth, Environment environment,
                                              EnvironmentVariables variables) {
        String prefix = GatewayProperties.PREFIX + ".auth";
        if (auth != null && Boolean.FALSE.equals(auth.enabled())) {
            String address = environment.getProperty("server.address");
            if (address == null || !isLoopback(address)) {
                throw new InvalidConfigurationPropertyValueException(prefix + ".enabled", false,
                        "auth may be turned off only when server.address is a loopback address (such as 127.0.0.1); "
                                + "server.address is " + (address == null ? "unset (all addresses)" : address));
            }
            LOG.warn("ruminate.gateway.auth is off: any local process may use this gateway");
            return null;
        }
        List<String> keys = new ArrayList<>();
        if (auth != null && auth.keys() != null) {
            keys.addAll(auth.keys());
        }
        if (auth != null && auth.keysEnv() != null) {
            String value = variables.get(auth.keysEnv());
            if (value == null || value.isBlank()) {
                throw new InvalidConfigurationPropertyValueException(prefix + ".keys-env", auth.keysEnv(),
                        "the environment variable " + auth.keysEnv() + " is not set or is blank");
            }
            keys.addAll(Arrays.asList(value.split(",")));
        }
        if (keys.stream().allMatch(String::isBlank)) {
            throw new InvalidConfigurationPropertyValueException(prefix + ".keys", "[]",
                    "gateway keys are required: set " + prefix + ".keys or " + prefix + ".keys-env, or turn auth off "
                            + "(" + prefix + ".enabled=false) on a loopback server.address");
        }
        return GatewayKeys.of(keys);
    }

    private static boolean isLoopback(String address) {
        try {
            InetAddress[] all = InetAddress.getAllByName(address.strip());
            return all.length > 0 && Arrays.stream(all).allMatch(InetAddress::isLoopbackAddress);
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static KeyRateLimits limits(GatewayProperties.@Nullable RateLimit rateLimit) {
        if (rateLimit == null || rateLimit.requestsPerPeriod() == null) {
            return KeyRateLimits.none();
        }
        Duration period = rateLimit.period() != null ? rateLimit.period() : Duration.ofSeconds(1);
        try {
            return KeyRateLimits.of(rateLimit.requestsPerPeriod(), period);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationPropertyValueException(GatewayProperties.PREFIX + ".rate-limit", rateLimit,
                    String.valueOf(e.getMessage()));
        }
    }
}
