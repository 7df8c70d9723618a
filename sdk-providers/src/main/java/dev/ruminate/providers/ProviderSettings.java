package dev.ruminate.providers;

import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.transport.resilience.Resilience;
import dev.ruminate.transport.wire.WireLimits;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

/**
 * What {@link ProviderKind#create(ProviderSettings)} builds a client from: the settings of every
 * kind in one value, of which each kind reads those it uses ({@link ProviderKind#requires()} lists
 * the ones it cannot do without).
 *
 * <p>Immutable and thread-safe; the credential sources are called by the clients, per request.
 * {@link #toString()} shows no secret: the API key, the access token and the AWS credentials are
 * shown only as set or not.
 *
 * @param baseUrl where the server is, or null for the kind's default
 * @param apiKey the API key, or null to send none; for a kind whose credential is
 *     {@link ProviderKind.Credential#ACCESS_TOKEN}, a fixed access token (setting both is refused);
 *     refused by a kind that signs with AWS credentials
 * @param region the AWS region (Bedrock), or null to take it from a
 *     {@code bedrock-runtime.<region>.amazonaws.com} base URL
 * @param project the Google Cloud project (Vertex AI), or null
 * @param location the Google Cloud location (Vertex AI), such as {@code us-central1} or
 *     {@code global}, or null
 * @param accessToken the source of the OAuth access token (Vertex AI), subscribed once per request,
 *     or null
 * @param awsCredentials the source of the AWS credentials (Bedrock), subscribed once per request,
 *     or null
 * @param history how earlier turns go back
 * @param resilience the guards of the endpoint
 * @param readTimeout the longest silence accepted, or null for
 *     {@link ProviderBuilder#DEFAULT_READ_TIMEOUT}
 * @param httpClient the Reactor Netty client, or null for a default one
 * @param wireLimits the framing limits
 * @param thinkTags the think tags to split out of the content (Chat Completions and Ollama
 *     native), or null for the profile's own behaviour
 * @param opaqueStateRecovery what happens when the provider refuses the opaque reasoning state sent
 *     back ({@link OpaqueStateRecovery#OFF} by default; since 0.3)
 * @since 0.1
 */
public record ProviderSettings(@Nullable URI baseUrl, @Nullable ApiKey apiKey, @Nullable String region,
                               @Nullable String project, @Nullable String location, @Nullable Mono<ApiKey> accessToken,
                               @Nullable Mono<AwsCredentials> awsCredentials, HistoryPolicy history, Resilience resilience,
                               @Nullable Duration readTimeout, @Nullable HttpClient httpClient, WireLimits wireLimits,
                               @Nullable ThinkTagOptions thinkTags, OpaqueStateRecovery opaqueStateRecovery) {

    /** No setting: every kind's defaults. */
    public static final ProviderSettings DEFAULTS = builder().build();

    /**
     * Creates the value, checking its components.
     *
     * @param baseUrl see {@link #baseUrl()}
     * @param apiKey see {@link #apiKey()}
     * @param region see {@link #region()}
     * @param project see {@link #project()}
     * @param location see {@link #location()}
     * @param accessToken see {@link #accessToken()}
     * @param awsCredentials see {@link #awsCredentials()}
     * @param history see {@link #history()}
     * @param resilience see {@link #resilience()}
     * @param readTimeout see {@link #readTimeout()}
     * @param httpClient see {@link #httpClient()}
     * @param wireLimits see {@link #wireLimits()}
     * @param thinkTags see {@link #thinkTags()}
     * @param opaqueStateRecovery see {@link #opaqueStateRecovery()}
     * @throws IllegalArgumentException if the read timeout is not positive
     */
    public ProviderSettings {
        Objects.requireNonNull(opaqueStateRecovery, "opaqueStateRecovery");
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(resilience, "resilience");
        Objects.requireNonNull(wireLimits, "wireLimits");
        if (readTimeout != null && (readTimeout.isNegative() || readTimeout.isZero())) {
            throw new IllegalArgumentException("readTimeout must be positive, was " + readTimeout);
        }
    }

    /**
     * Creates settings without a recovery from rejected opaque state (the constructor of 0.1 and 0.2).
     *
     * @param baseUrl see {@link #baseUrl()}
     * @param apiKey see {@link #apiKey()}
     * @param region see {@link #region()}
     * @param project see {@link #project()}
     * @param location see {@link #location()}
     * @param accessToken see {@link #accessToken()}
     * @param awsCredentials see {@link #awsCredentials()}
     * @param history see {@link #history()}
     * @param resilience see {@link #resilience()}
     * @param readTimeout see {@link #readTimeout()}
     * @param httpClient see {@link #httpClient()}
     * @param wireLimits see {@link #wireLimits()}
     * @param thinkTags see {@link #thinkTags()}
     * @throws IllegalArgumentException if the read timeout is not positive
     */
    public ProviderSettings(@Nullable URI baseUrl, @Nullable ApiKey apiKey, @Nullable String region,
                            @Nullable String project, @Nullable String location, @Nullable Mono<ApiKey> accessToken,
                            @Nullable Mono<AwsCredentials> awsCredentials, HistoryPolicy history, Resilience resilience,
                            @Nullable Duration readTimeout, @Nullable HttpClient httpClient, WireLimits wireLimits,
                            @Nullable ThinkTagOptions thinkTags) {
        this(baseUrl, apiKey, region, project, location, accessToken, awsCredentials, history, resilience, readTimeout,
                httpClient, wireLimits, thinkTags, OpaqueStateRecovery.OFF);
    }

    /**
     * Starts building settings.
     *
     * @return a builder with nothing set
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns a builder holding these settings, to change some of them.
     *
     * @return a builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.baseUrl = baseUrl;
        b.apiKey = apiKey;
        b.region = region;
        b.project = project;
        b.location = location;
        b.accessToken = accessToken;
        b.awsCredentials = awsCredentials;
        b.history = history;
        b.resilience = resilience;
        b.readTimeout = readTimeout;
        b.httpClient = httpClient;
        b.wireLimits = wireLimits;
        b.thinkTags = thinkTags;
        b.opaqueStateRecovery = opaqueStateRecovery;
        return b;
    }

    @Override
    public String toString() {
        return "ProviderSettings[baseUrl=" + baseUrl + ", apiKey=" + shown(apiKey) + ", region=" + region
                + ", project=" + project + ", location=" + location + ", accessToken=" + shown(accessToken)
                + ", awsCredentials=" + shown(awsCredentials) + ", history=" + history + ", resilience=" + resilience
                + ", readTimeout=" + readTimeout + ", httpClient=" + (httpClient != null ? "(set)" : null)
                + ", wireLimits=" + wireLimits + ", thinkTags=" + thinkTags + ", opaqueStateRecovery=" + opaqueStateRecovery + "]";
    }

    /** A secret or its source is shown only as present: a source's own toString may hold the value. */
    private static @Nullable String shown(@Nullable Object secret) {
        return secret != null ? "(redacted)" : null;
    }

    /**
     * Builds {@link ProviderSettings}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder {
        private @Nullable URI baseUrl;
        private @Nullable ApiKey apiKey;
        private @Nullable String region;
        private @Nullable String project;
        private @Nullable String location;
        private @Nullable Mono<ApiKey> accessToken;
        private @Nullable Mono<AwsCredentials> awsCredentials;
        private HistoryPolicy history = HistoryPolicy.DEFAULT;
        private Resilience resilience = Resilience.NONE;
        private @Nullable Duration readTimeout;
        private @Nullable HttpClient httpClient;
        private WireLimits wireLimits = WireLimits.DEFAULT;
        private @Nullable ThinkTagOptions thinkTags;
        private OpaqueStateRecovery opaqueStateRecovery = OpaqueStateRecovery.OFF;

        private Builder() {
        }

        /**
         * Sets where the server is.
         *
         * @param url the URL, or null for the kind's default
         * @return this builder
         */
        public Builder baseUrl(@Nullable URI url) {
            this.baseUrl = url;
            return this;
        }

        /**
         * Sets the API key.
         *
         * @param key the key, or null to send none
         * @return this builder
         */
        public Builder apiKey(@Nullable ApiKey key) {
            this.apiKey = key;
            return this;
        }

        /**
         * Sets the AWS region.
         *
         * @param value the region, such as {@code us-east-1}, or null
         * @return this builder
         */
        public Builder region(@Nullable String value) {
            this.region = value;
            return this;
        }

        /**
         * Sets the Google Cloud project.
         *
         * @param value the project id, or null
         * @return this builder
         */
        public Builder project(@Nullable String value) {
            this.project = value;
            return this;
        }

        /**
         * Sets the Google Cloud location.
         *
         * @param value the location, such as {@code us-central1} or {@code global}, or null
         * @return this builder
         */
        public Builder location(@Nullable String value) {
            this.location = value;
            return this;
        }

        /**
         * Sets a fixed access token. Tokens expire within the hour: prefer a source.
         *
         * @param token the token
         * @return this builder
         */
        public Builder accessToken(ApiKey token) {
            this.accessToken = Mono.just(Objects.requireNonNull(token, "token"));
            return this;
        }

        /**
         * Sets a source of the access token, called for every request.
         *
         * @param source the source; keep it cheap (a cached token)
         * @return this builder
         */
        public Builder accessToken(Supplier<ApiKey> source) {
            this.accessToken = Mono.fromSupplier(Objects.requireNonNull(source, "source"));
            return this;
        }

        /**
         * Sets an asynchronous source of the access token, subscribed once per request.
         *
         * @param source the source
         * @return this builder
         */
        public Builder accessToken(Mono<ApiKey> source) {
            this.accessToken = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * Sets fixed AWS credentials.
         *
         * @param credentials the credentials
         * @return this builder
         */
        public Builder awsCredentials(AwsCredentials credentials) {
            this.awsCredentials = Mono.just(Objects.requireNonNull(credentials, "credentials"));
            return this;
        }

        /**
         * Sets a source of AWS credentials, called for every request, so rotating credentials are
         * used as they change.
         *
         * @param source the source; keep it cheap (a cached value)
         * @return this builder
         */
        public Builder awsCredentials(Supplier<AwsCredentials> source) {
            this.awsCredentials = Mono.fromSupplier(Objects.requireNonNull(source, "source"));
            return this;
        }

        /**
         * Sets an asynchronous source of AWS credentials, subscribed once per request.
         *
         * @param source the source
         * @return this builder
         */
        public Builder awsCredentials(Mono<AwsCredentials> source) {
            this.awsCredentials = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * Sets how earlier turns go back; {@link HistoryPolicy#DEFAULT} by default.
         *
         * @param policy the policy
         * @return this builder
         */
        public Builder history(HistoryPolicy policy) {
            this.history = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Sets the guards of the endpoint; {@link Resilience#NONE} by default.
         *
         * @param guards the guards
         * @return this builder
         */
        public Builder resilience(Resilience guards) {
            this.resilience = Objects.requireNonNull(guards, "guards");
            return this;
        }

        /**
         * Sets the longest silence accepted.
         *
         * @param timeout the limit, positive, or null for the default
         * @return this builder
         */
        public Builder readTimeout(@Nullable Duration timeout) {
            this.readTimeout = timeout;
            return this;
        }

        /**
         * Sets the Reactor Netty client (proxy, TLS, pool, metrics).
         *
         * @param client the client, or null for a default one
         * @return this builder
         */
        public Builder httpClient(@Nullable HttpClient client) {
            this.httpClient = client;
            return this;
        }

        /**
         * Sets the framing limits; {@link WireLimits#DEFAULT} by default.
         *
         * @param limits the limits
         * @return this builder
         */
        public Builder wireLimits(WireLimits limits) {
            this.wireLimits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /**
         * Sets the think tags to split out of the content, for kinds that can.
         *
         * @param options the tags, or null for the profile's own behaviour
         * @return this builder
         */
        public Builder thinkTags(@Nullable ThinkTagOptions options) {
            this.thinkTags = options;
            return this;
        }

        /**
         * Sets what happens when the provider refuses the opaque reasoning state sent back;
         * {@link OpaqueStateRecovery#OFF} by default.
         *
         * @param recovery the recovery
         * @return this builder
         * @since 0.3
         */
        public Builder opaqueStateRecovery(OpaqueStateRecovery recovery) {
            this.opaqueStateRecovery = Objects.requireNonNull(recovery, "recovery");
            return this;
        }

        /**
         * Builds the settings.
         *
         * @return the settings
         * @throws IllegalArgumentException if the read timeout is not positive
         */
        public ProviderSettings build() {
            return new ProviderSettings(baseUrl, apiKey, region, project, location, accessToken, awsCredentials, history,
                    resilience, readTimeout, httpClient, wireLimits, thinkTags, opaqueStateRecovery);
        }
    }
}
