package dev.ruminate.gateway.auth;

import dev.ruminate.providers.serving.OpenAiError;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Guards the {@code /v1/} endpoints and the browser front ends' {@code /api/chat} (AI SDK UI message stream) and
 * {@code /ag-ui} (however the path is spelled: percent-encoded or with matrix
 * variables, as the router matches it): a request must present a gateway key as a bearer token
 * (unless auth is off), and the key's rate limit must have a permit. A missing or wrong key is a
 * 401 {@code invalid_api_key}, an exhausted limit a 429 {@code rate_limit_exceeded}; neither
 * echoes the key, and the request goes no further.
 *
 * <p>Thread-safe.
 *
 * @since 0.2
 */
public final class GatewayAuthFilter implements WebFilter, Ordered {

    /** The exchange attribute holding the fingerprint of the key that authenticated the request. */
    public static final String KEY_FINGERPRINT = GatewayAuthFilter.class.getName() + ".keyFingerprint";

    private static final String ANONYMOUS = "anonymous";

    private final @Nullable GatewayKeys keys;
    private final KeyRateLimits limits;

    /**
     * Creates the filter.
     *
     * @param keys the keys, or null when auth is off
     * @param limits the per-key rate limits
     */
    public GatewayAuthFilter(@Nullable GatewayKeys keys, KeyRateLimits limits) {
        this.keys = keys;
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 10;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!underV1(exchange.getRequest().getPath().pathWithinApplication())) {
            return chain.filter(exchange);
        }
        String who = ANONYMOUS;
        if (keys != null) {
            Optional<String> fingerprint = keys.authenticate(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
            if (fingerprint.isEmpty()) {
                exchange.getResponse().getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
                return write(exchange.getResponse(), new OpenAiError(401, "invalid_request_error", "invalid_api_key",
                        "Incorrect or missing API key: send a gateway key as 'Authorization: Bearer KEY'.", null));
            }
            who = fingerprint.get();
        }
        exchange.getAttributes().put(KEY_FINGERPRINT, who);
        if (!limits.tryAcquire(who)) {
            return write(exchange.getResponse(), new OpenAiError(429, "rate_limit_error", "rate_limit_exceeded",
                    "Rate limit reached for this key; try again later.", null));
        }
        return chain.filter(exchange);
    }

    /**
     * Tells whether a path is under {@code /v1}, judged as the router judges it: by the decoded
     * segment without matrix variables. The raw path is not enough: {@code /%761/responses} or
     * {@code /v1;x=y/responses} reach the {@code /v1/responses} route without starting with
     * {@code /v1/}. The first non-empty segment decides, so an empty one ({@code //v1/…}) does not
     * let a request past either.
     */
    private static boolean underV1(PathContainer path) {
        for (PathContainer.Element element : path.elements()) {
            if (element instanceof PathContainer.PathSegment segment && !segment.valueToMatch().isEmpty()) {
                // /api/chat (a useChat page) and /ag-ui serve the same routes to browser front ends: the same keys
                // and limits guard them
                return "v1".equals(segment.valueToMatch()) || "api".equals(segment.valueToMatch())
                        || "ag-ui".equals(segment.valueToMatch());
            }
        }
        return false;
    }

    /**
     * Lists the names of the per-key rate limiters created so far, for tests and diagnostics: each
     * holds a key's fingerprint, never the key.
     *
     * @return the names
     */
    public Set<String> rateLimiterNames() {
        RateLimiterRegistry registry = limits.registry();
        Set<String> names = new TreeSet<>();
        if (registry != null) {
            registry.getAllRateLimiters().forEach(l -> names.add(l.getName()));
        }
        return names;
    }

    private static Mono<Void> write(ServerHttpResponse response, OpenAiError error) {
        response.setStatusCode(HttpStatus.valueOf(error.status()));
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        byte[] body = error.toJson().getBytes(StandardCharsets.UTF_8);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
    }
}
