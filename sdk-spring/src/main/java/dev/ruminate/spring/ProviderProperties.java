package dev.ruminate.spring;

import dev.ruminate.providers.OpaqueStateRecovery;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The settings of one provider client, {@code ruminate.providers.<name>.*}.
 *
 * <p>Immutable and thread-safe. Every component may be null: null means "not set", and each
 * setting documents its default. {@link ProviderFactory} checks them when it builds the client
 * and fails startup with the offending property's name.
 *
 * @param kind which API and profile: a name or alias of {@link dev.ruminate.providers.ProviderKinds}
 *     (the {@code ruminate --provider} names, such as {@code deepseek}, {@code openai-responses},
 *     {@code anthropic}, {@code vertex} or {@code bedrock}); required
 * @param baseUrl where the server is; defaults to the profile's public endpoint
 * @param apiKeyEnv the name of the environment variable that holds the API key (for
 *     {@code vertex}: an access token; for {@code bedrock}: the secret access key, default
 *     {@code AWS_SECRET_ACCESS_KEY}); no key is sent when unset
 * @param model the default model, used by {@link RuminateProviders#request(String)}
 * @param project the Google Cloud project, for {@code vertex}
 * @param location the Google Cloud location (such as {@code us-central1} or {@code global}), for
 *     {@code vertex}
 * @param region the AWS region, for {@code bedrock}; defaults to {@code AWS_REGION}
 * @param thinkTags true to split {@code <think>} tags out of the content (Chat Completions
 *     profiles and {@code ollama-native}); default false
 * @param reasoning the default reasoning options of requests
 * @param timeouts the read, first-event, idle and total timeouts
 * @param resilience the Resilience4j guards
 * @param connections the client's connection pool to the provider's host; Reactor Netty's shared
 *     default pool when unset
 * @param opaqueStateRecovery what happens when the provider refuses the opaque reasoning state sent
 *     back: {@code off} (the default: the call fails with
 *     {@link dev.ruminate.core.error.OpaqueStateRejectedException}) or {@code strip-and-retry-once}
 *     (see {@link OpaqueStateRecovery}); since 0.3
 * @param credentials a credentials chain instead of keys in variables (see
 *     {@link dev.ruminate.providers.CredentialChains}): {@code default-chain} for {@code bedrock}
 *     (the AWS SDK's default credentials chain, and its region chain when {@code region} and
 *     {@code AWS_REGION} are unset) and {@code vertex} (Google's Application Default Credentials),
 *     or {@code profile:NAME} for {@code bedrock} (a profile of the shared AWS config and credentials
 *     files, SSO and role assumption included). The chain's library must be on the class path
 *     ({@code software.amazon.awssdk:auth} and {@code regions}, with {@code sts}, {@code sso} and
 *     {@code ssooidc} for such profiles; {@code com.google.auth:google-auth-library-oauth2-http}).
 *     Unset: keys from the environment as {@code api-key-env} says; since 0.4
 * @since 0.1
 */
public record ProviderProperties(@Nullable String kind, @Nullable String baseUrl, @Nullable String apiKeyEnv,
                                 @Nullable String model, @Nullable String project, @Nullable String location,
                                 @Nullable String region, @Nullable Boolean thinkTags, @Nullable Reasoning reasoning,
                                 @Nullable TimeoutProperties timeouts, @Nullable ResilienceProperties resilience,
                                 @Nullable ConnectionProperties connections,
                                 @Nullable OpaqueStateRecovery opaqueStateRecovery, @Nullable String credentials) {

    /**
     * The client's connection pool, {@code ruminate.providers.<name>.connections.*}. Each HTTP stream
     * holds one connection for its whole length, so a server fronting many concurrent streams (such as
     * the gateway) needs {@code max} at least its concurrent streams to this provider's host. When any
     * of these is set, the provider gets a pool of its own, named {@code ruminate-<name>}, closed with
     * the application context; when none is, it shares Reactor Netty's default pool (500 connections
     * per host, 1,000 waiting at most 45 s), whose limits these defaults repeat.
     *
     * @param max the most connections open to the provider's host at once; default 500
     * @param pendingMax the most requests waiting for a connection when all are in use, beyond which a
     *     request fails at once; default twice {@code max}; -1 for no bound
     * @param pendingTimeout how long a request may wait for a connection before it fails; default 45 s
     * @param maxIdleTime how long a connection may stay idle in the pool before it is closed; no
     *     limit by default
     * @since 0.1
     */
    public record ConnectionProperties(@Nullable Integer max, @Nullable Integer pendingMax,
                                       @Nullable Duration pendingTimeout, @Nullable Duration maxIdleTime) {
    }

    /**
     * The default reasoning options of requests started with {@link RuminateProviders#request(String)},
     * {@code ruminate.providers.<name>.reasoning.*}.
     *
     * @param enabled true to ask for reasoning, false for none; unset leaves the provider's default
     * @param effort {@code none}, {@code minimal}, {@code low}, {@code medium}, {@code high},
     *     {@code xhigh} or {@code max}
     * @param budgetTokens a token budget (Anthropic, Gemini, OpenRouter)
     * @param include true to ask the provider to return its reasoning text or summary where that is
     *     optional, false to hide it
     * @since 0.1
     */
    public record Reasoning(@Nullable Boolean enabled, @Nullable String effort, @Nullable Integer budgetTokens,
                            @Nullable Boolean include) {
    }

    /**
     * Time limits, {@code ruminate.providers.<name>.timeouts.*} (durations such as {@code 30s}).
     *
     * @param read the longest silence on the connection (the client's read timeout); defaults to
     *     ten minutes, since reasoning models may think silently for long
     * @param firstEvent the longest wait for the first event of an attempt; none by default
     * @param idle the longest silence between two events; none by default
     * @param total the longest a whole call may take, retries included; none by default
     * @since 0.1
     */
    public record TimeoutProperties(@Nullable Duration read, @Nullable Duration firstEvent, @Nullable Duration idle,
                                    @Nullable Duration total) {
    }

    /**
     * The Resilience4j guards of the endpoint, {@code ruminate.providers.<name>.resilience.*}; each
     * applies only when configured, here or, when Resilience4j's registries are beans, in
     * {@code resilience4j.*} under the guards' name.
     *
     * @param name the name of the guards, in Resilience4j's registries, events and metrics; defaults
     *     to the provider's name. Providers given the same name share the guards.
     * @param retry retry before the first event
     * @param circuitBreaker the circuit breaker
     * @param rateLimiter the rate limiter
     * @param bulkhead the bulkhead
     * @since 0.1
     */
    public record ResilienceProperties(@Nullable String name, @Nullable Retry retry, @Nullable CircuitBreaker circuitBreaker,
                                       @Nullable RateLimiter rateLimiter, @Nullable Bulkhead bulkhead) {
    }

    /**
     * Retry, which Ruminate applies only before the first event reached the subscriber.
     *
     * @param maxAttempts attempts in all, the first included; retry applies when above 1
     * @param initialWait the wait before the first retry; default 500 ms (a longer {@code Retry-After} wins)
     * @param multiplier the exponential backoff multiplier; default 2
     * @param jitter the randomization factor of each wait, from 0 (none) to 1; default 0.5
     * @since 0.1
     */
    public record Retry(@Nullable Integer maxAttempts, @Nullable Duration initialWait, @Nullable Double multiplier,
                        @Nullable Double jitter) {
    }

    /**
     * A count-based circuit breaker.
     *
     * @param enabled true to apply it; default false
     * @param failureRateThreshold the failure percentage that opens it; default 50
     * @param slidingWindowSize how many calls it looks at; default 20
     * @param minimumNumberOfCalls calls needed before it may open; default 10
     * @param waitInOpenState how long it stays open; default 30 s
     * @since 0.1
     */
    public record CircuitBreaker(@Nullable Boolean enabled, @Nullable Float failureRateThreshold,
                                 @Nullable Integer slidingWindowSize, @Nullable Integer minimumNumberOfCalls,
                                 @Nullable Duration waitInOpenState) {
    }

    /**
     * A rate limiter.
     *
     * @param limitForPeriod calls allowed per period; the limiter applies when set
     * @param refreshPeriod the period; default 1 s
     * @param timeout how long a call may wait for a permit; default 0 (refuse at once)
     * @since 0.1
     */
    public record RateLimiter(@Nullable Integer limitForPeriod, @Nullable Duration refreshPeriod,
                              @Nullable Duration timeout) {
    }

    /**
     * A bulkhead: a bound on concurrent streams; a full bulkhead refuses at once.
     *
     * @param maxConcurrentCalls the bound; the bulkhead applies when set
     * @since 0.1
     */
    public record Bulkhead(@Nullable Integer maxConcurrentCalls) {
    }
}
