package dev.ruminate.providers.gemini;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.transport.http.HttpExchange;
import dev.ruminate.transport.http.RequestSigner;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.transport.resilience.Resilience;
import dev.ruminate.transport.wire.ServerSentEvents;
import dev.ruminate.transport.wire.WireLimits;
import dev.ruminate.providers.ProviderBuilder;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link ChatProvider} for Google Gemini: the Gemini API (AI Studio, an API key) or Vertex AI (a
 * project, a location and an OAuth access token supplied by the application).
 *
 * <pre>{@code
 * ChatProvider gemini = GeminiProvider.builder().apiKey(ApiKey.fromEnv("GEMINI_API_KEY")).build();
 * ChatProvider vertex = GeminiProvider.vertex("my-project", "us-central1")
 *         .accessToken(() -> ApiKey.of(myTokenCache.current()))   // read for every request
 *         .build();
 * }</pre>
 *
 * <p>Streams use {@code models/MODEL:streamGenerateContent?alt=sse}, non-streaming calls
 * {@code models/MODEL:generateContent}. On AI Studio the key travels in the {@code x-goog-api-key}
 * header, never in the URL; on Vertex AI the token is read from its source for every request, so
 * a refreshed token is used as soon as the source returns it, and is sent as
 * {@code Authorization: Bearer}. Vertex AI's URL is regional,
 * {@code https://LOCATION-aiplatform.googleapis.com/v1/projects/PROJECT/locations/LOCATION/publishers/google},
 * or {@code https://aiplatform.googleapis.com/…/locations/global/…} for the global endpoint.
 *
 * <p><b>Threading.</b> Immutable and thread-safe. <b>Cancellation.</b> Cancelling a subscription
 * closes the HTTP exchange. <b>Errors.</b> See {@link HttpExchange} and
 * {@link GeminiCodec#streamDecoder}; all are {@link RuminateException}s. Keys and tokens never
 * appear in messages, logs or {@code toString}.
 *
 * @since 0.1
 */
public final class GeminiProvider implements ChatProvider {

    /** The Gemini API's base URL. */
    public static final String AI_STUDIO_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";
    private static final String EVENT_STREAM = "text/event-stream";

    private final String name;
    private final Resilience resilience;
    private final String base;
    private final HttpExchange exchange;
    private final WireLimits limits;
    private final HistoryPolicy history;
    private final boolean skipSignatureValidation;

    private GeminiProvider(Builder b) {
        this.name = b.name;
        String configured = b.configuredBaseUrl();
        String url = configured != null ? configured : b.defaultBaseUrl();
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        HttpExchange.Builder http = HttpExchange.builder(b.configuredHttpClient(), b.name)
                .readTimeout(b.configuredReadTimeout());
        if (b.apiKey != null) {
            http.auth("x-goog-api-key", "", b.apiKey);
        }
        if (b.token != null) {
            Mono<ApiKey> token = b.token;
            String provider = b.name;
            http.signer((method, uri, headers, body) -> token
                    .switchIfEmpty(Mono.error(() -> new IllegalStateException("the access token source completed empty")))
                    .map(t -> List.of(RequestSigner.secretHeader("Authorization", "Bearer ", t)))
                    .onErrorMap(e -> !(e instanceof RuminateException),
                            e -> new InvalidRequestException(provider, "no access token: " + e.getMessage(), e)));
        }
        this.exchange = http.build();
        this.limits = b.configuredWireLimits();
        this.history = b.configuredHistory();
        this.resilience = b.configuredResilience();
        this.skipSignatureValidation = b.skipSignatureValidation;
    }

    /**
     * Starts building a provider for the Gemini API (AI Studio), named {@code gemini}.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder("gemini", null, null);
    }

    /**
     * Starts building a provider for Vertex AI, named {@code vertex}.
     *
     * @param project the Google Cloud project id
     * @param location the region, such as {@code us-central1}, or {@code global}
     * @return a builder; set the token with {@link Builder#accessToken(Mono)}
     */
    public static Builder vertex(String project, String location) {
        return new Builder("vertex", requirePathSafe(project, "project"), requirePathSafe(location, "location"));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Flux<ChatEvent> stream(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        return resilience.apply(name(), Flux.defer(() -> exchange.stream(uri(request.model(), "streamGenerateContent?alt=sse"), encode(request),
                            EVENT_STREAM))
                    .transform(body -> ServerSentEvents.decode(body, limits))
                    .transform(GeminiCodec.streamDecoder(name))
                    .onErrorMap(exchange::redact));
    }

    @Override
    public Flux<ChatEvent> completeAsEvents(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        return resilience.apply(name(), Mono.defer(() -> exchange.post(uri(request.model(), "generateContent"), encode(request)))
                    .flatMapMany(body -> GeminiCodec.decodeResponse(name, body))
                    .onErrorMap(exchange::redact));
    }

    /** The method's URI for a model ({@code gemini-2.5-pro} or {@code models/gemini-2.5-pro}). */
    URI uri(String model, String method) {
        String id = model.startsWith("models/") ? model.substring("models/".length()) : model;
        return URI.create(base + "/models/" + URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20") + ":" + method);
    }

    private byte[] encode(ChatRequest request) {
        try {
            return GeminiCodec.encodeRequest(name, request, history, skipSignatureValidation);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(name, String.valueOf(e.getMessage()), e);
        }
    }

    private static String requirePathSafe(String value, String what) {
        Objects.requireNonNull(value, what);
        if (value.isBlank() || !value.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.')) {
            throw new IllegalArgumentException(what + " must be letters, digits, '-', '_' or '.', was '" + value + "'");
        }
        return value;
    }

    @Override
    public String toString() {
        URI u = URI.create(base);
        return "GeminiProvider[" + name + " at " + u.getScheme() + "://" + u.getHost() + (u.getPort() >= 0 ? ":" + u.getPort() : "")
                + (u.getPath() != null ? u.getPath() : "") + "]";
    }

    /**
     * Builds a {@link GeminiProvider}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder extends ProviderBuilder<Builder> {
        private String name;
        private final @Nullable String project;
        private final @Nullable String location;
        private @Nullable ApiKey apiKey;
        private @Nullable Mono<ApiKey> token;
        private boolean skipSignatureValidation;

        private Builder(String name, @Nullable String project, @Nullable String location) {
            this.name = name;
            this.project = project;
            this.location = location;
        }

        private String defaultBaseUrl() {
            if (project == null || location == null) {
                return AI_STUDIO_BASE_URL;
            }
            String host = location.equals("global") ? "aiplatform.googleapis.com" : location + "-aiplatform.googleapis.com";
            return "https://" + host + "/v1/projects/" + project + "/locations/" + location + "/publishers/google";
        }

        /**
         * Sets the Gemini API key (AI Studio), sent in the {@code x-goog-api-key} header.
         *
         * @param key the key
         * @return this builder
         */
        public Builder apiKey(ApiKey key) {
            this.apiKey = Objects.requireNonNull(key, "key");
            return this;
        }

        /**
         * Sets a fixed OAuth access token (Vertex AI). Tokens expire within the hour: prefer a source.
         *
         * @param fixed the token
         * @return this builder
         */
        public Builder accessToken(ApiKey fixed) {
            Objects.requireNonNull(fixed, "fixed");
            this.token = Mono.just(fixed);
            return this;
        }

        /**
         * Sets a source of the access token, called for every request (keep it cheap: return a
         * cached token and refresh it before it expires).
         *
         * @param source the source
         * @return this builder
         */
        public Builder accessToken(Supplier<ApiKey> source) {
            Objects.requireNonNull(source, "source");
            this.token = Mono.fromSupplier(source);
            return this;
        }

        /**
         * Sets an asynchronous source of the access token, subscribed once per request.
         *
         * @param source the source
         * @return this builder
         */
        public Builder accessToken(Mono<ApiKey> source) {
            this.token = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * Sets the provider name reported in events and errors ({@code gemini} or {@code vertex} by default).
         *
         * @param providerName the name
         * @return this builder
         */
        public Builder name(String providerName) {
            this.name = Objects.requireNonNull(providerName, "providerName");
            return this;
        }

        /**
         * Writes Google's placeholder signature {@code skip_thought_signature_validator} on function
         * calls of the current tool loop that came from another provider (and so have no signature),
         * which Gemini 3 otherwise rejects. Off by default: Google documents it as an escape hatch
         * for histories it did not produce, and it weakens the model's use of its own reasoning.
         *
         * @param enabled true to write the placeholder
         * @return this builder
         */
        public Builder skipSignatureValidation(boolean enabled) {
            this.skipSignatureValidation = enabled;
            return this;
        }

        @Override
        protected Builder self() {
            return this;
        }

        /**
         * Builds the provider.
         *
         * @return the provider
         * @throws IllegalStateException for Vertex AI without an access token, or with an API key
         */
        public GeminiProvider build() {
            if (project != null && token == null) {
                throw new IllegalStateException("Vertex AI needs an access token: accessToken(...)");
            }
            if (project != null && apiKey != null) {
                throw new IllegalStateException("Vertex AI takes an access token, not a Gemini API key");
            }
            return new GeminiProvider(this);
        }
    }
}
