package dev.ruminate.providers;

import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.transport.resilience.Resilience;
import dev.ruminate.transport.wire.WireLimits;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.netty.http.client.HttpClient;

/**
 * The settings every provider client takes the same way: where the server is, the Reactor Netty
 * client to reach it with, the framing limits and the read timeout. Each provider's builder
 * extends it with what is its own (keys, profiles, regions, tokens).
 *
 * <p>Not thread-safe: configure a builder on one thread, then build immutable providers from it.
 *
 * @param <B> the concrete builder, returned by every setter
 * @since 0.1
 */
public abstract class ProviderBuilder<B extends ProviderBuilder<B>> {

    /**
     * Generous on purpose: a reasoning model may stay silent for minutes while it thinks (hidden
     * reasoning sends nothing until the answer; a non-streaming call sends nothing at all).
     */
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofMinutes(10);

    private @Nullable String baseUrl;
    private @Nullable HttpClient httpClient;
    private WireLimits wireLimits = WireLimits.DEFAULT;
    private Duration readTimeout = DEFAULT_READ_TIMEOUT;
    private HistoryPolicy history = HistoryPolicy.DEFAULT;
    private Resilience resilience = Resilience.NONE;
    private OpaqueStateRecovery opaqueStateRecovery = OpaqueStateRecovery.OFF;

    /** Creates a builder with the defaults. */
    protected ProviderBuilder() {
    }

    /**
     * Returns this builder as its concrete type.
     *
     * @return this
     */
    protected abstract B self();

    /**
     * Sets the base URL: for self-hosted servers, proxies, private endpoints and emulators. Each
     * provider documents its default and what it appends.
     *
     * @param url an {@code http} or {@code https} URL
     * @return this builder
     */
    public B baseUrl(String url) {
        this.baseUrl = Objects.requireNonNull(url, "url");
        return self();
    }

    /**
     * Sets the base URL.
     *
     * @param url the URL
     * @return this builder
     * @see #baseUrl(String)
     */
    public B baseUrl(URI url) {
        return baseUrl(url.toString());
    }

    /**
     * Sets the Reactor Netty client (proxy, TLS, connection pool, metrics). Defaults to
     * {@code HttpClient.create()}.
     *
     * @param client the client
     * @return this builder
     */
    public B httpClient(HttpClient client) {
        this.httpClient = Objects.requireNonNull(client, "client");
        return self();
    }

    /**
     * Sets the framing limits (longest line and event, largest binary frame).
     *
     * @param limits the limits
     * @return this builder
     */
    public B wireLimits(WireLimits limits) {
        this.wireLimits = Objects.requireNonNull(limits, "limits");
        return self();
    }

    /**
     * Sets the longest silence accepted: before the response arrives and between two reads of its
     * body (for a non-streaming call, until the body arrives). When it passes, the call fails with
     * {@link dev.ruminate.core.error.StreamTimeoutException} and the connection is closed. Defaults
     * to {@link #DEFAULT_READ_TIMEOUT}, since reasoning models can think silently for long.
     *
     * @param timeout the limit, positive
     * @return this builder
     * @throws IllegalArgumentException if the limit is not positive
     */
    public B readTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("readTimeout must be positive, was " + timeout);
        }
        this.readTimeout = timeout;
        return self();
    }

    /**
     * Sets how earlier turns go back: the retention of reasoning and what happens to other
     * providers' reasoning. By default every turn keeps its reasoning (as in every later-turn
     * request the APIs were seen to accept; each API's own rules then decide what it takes, and
     * APIs that need less ignore or filter the rest) and other providers' reasoning is dropped;
     * other providers' opaque state (signatures, encrypted content) is never sent, whatever the
     * policy.
     *
     * @param policy the policy
     * @return this builder
     */
    public B history(HistoryPolicy policy) {
        this.history = Objects.requireNonNull(policy, "policy");
        return self();
    }

    /**
     * Sets the guards of this endpoint: retry before the first event, circuit breaker, rate
     * limiter, bulkhead, and first-event, idle and total timeouts. None by default.
     *
     * @param guards the guards, typically built from your Resilience4j registries
     * @return this builder
     */
    public B resilience(Resilience guards) {
        this.resilience = Objects.requireNonNull(guards, "guards");
        return self();
    }

    /**
     * Sets what happens when the provider refuses the opaque reasoning state a request carried
     * back: {@link OpaqueStateRecovery#OFF} by default (the call fails with
     * {@link dev.ruminate.core.error.OpaqueStateRejectedException}); see
     * {@link OpaqueStateRecovery#STRIP_AND_RETRY_ONCE} for the opt-in retry.
     *
     * @param recovery the recovery
     * @return this builder
     * @since 0.3
     */
    public B opaqueStateRecovery(OpaqueStateRecovery recovery) {
        this.opaqueStateRecovery = Objects.requireNonNull(recovery, "recovery");
        return self();
    }

    /**
     * Returns the recovery from a rejection of opaque state.
     *
     * @return the recovery, {@link OpaqueStateRecovery#OFF} unless set
     * @since 0.3
     */
    public final OpaqueStateRecovery configuredOpaqueStateRecovery() {
        return opaqueStateRecovery;
    }

    /**
     * Returns the base URL set, if any.
     *
     * @return the URL, or null for the provider's default
     */
    public final @Nullable String configuredBaseUrl() {
        return baseUrl;
    }

    /**
     * Returns the client to use.
     *
     * @return the client set, or a new default one
     */
    public final HttpClient configuredHttpClient() {
        return httpClient != null ? httpClient : HttpClient.create();
    }

    /**
     * Returns the framing limits.
     *
     * @return the limits
     */
    public final WireLimits configuredWireLimits() {
        return wireLimits;
    }

    /**
     * Returns the history policy.
     *
     * @return the policy
     */
    public final HistoryPolicy configuredHistory() {
        return history;
    }

    /**
     * Returns the guards.
     *
     * @return the guards
     */
    public final Resilience configuredResilience() {
        return resilience;
    }

    /**
     * Returns the read timeout.
     *
     * @return the timeout
     */
    public final Duration configuredReadTimeout() {
        return readTimeout;
    }
}
