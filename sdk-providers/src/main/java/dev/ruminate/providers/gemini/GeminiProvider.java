package dev.ruminate.providers.gemini;

import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.providers.spi.HttpChatProvider;
import dev.ruminate.providers.spi.ProviderPipeline;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.transport.http.RequestSigner;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * A {@link dev.ruminate.core.ChatProvider} for Google Gemini: the Gemini API (AI Studio, an API key) or Vertex AI (a
 * project, a location and an OAuth access token supplied by the application).
 *
 * <pre>{@code
 * ChatProvider gemini = GeminiProvider.builder().apiKey(ApiKey.fromEnv("GEMINI_API_KEY")).build();
 * ChatProvider vertex = GeminiProvider.vertex("my-project", "us-central1")
 *         .accessToken(() -> ApiKey.of(myTokenCache.current()))   // read for every request
 *         .build();
 * ChatProvider adc = GeminiProvider.vertex("my-project", "us-central1")
 *         .accessToken(GoogleCredentialsTokens.applicationDefault())   // Google's auth library, optional
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
 * <p><b>Origin.</b> On AI Studio the account of the {@linkplain ProviderPipeline#origin() origin}
 * is the fingerprint of the API key (thought signatures are bound to the key). Vertex AI has none:
 * its access token is refreshed, so it is no stable identity, and the project and location the
 * state is bound to are already in the base URL's path, which is the origin's endpoint.
 *
 * <p><b>Threading.</b> Immutable and thread-safe. <b>Cancellation.</b> Cancelling a subscription
 * closes the HTTP exchange. <b>Errors.</b> See {@link ProviderPipeline} and
 * {@link GeminiCodec#streamDecoder}; all are {@link RuminateException}s. Keys and tokens never
 * appear in messages, logs or {@code toString}.
 *
 * @since 0.1
 */
public final class GeminiProvider extends HttpChatProvider {

    /** The Gemini API's base URL. */
    public static final String AI_STUDIO_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

    private GeminiProvider(Builder b) {
        super(pipeline(b));
    }

    private static ProviderPipeline<?> pipeline(Builder b) {
        ProviderPipeline.Builder<?> pipeline = ProviderPipeline.builder(b.name,
                        GeminiCodec.of(b.name, b.skipSignatureValidation), b, b.defaultBaseUrl())
                .auth("x-goog-api-key", "", b.apiKey);
        Mono<ApiKey> token = b.token;
        if (token != null) {
            String provider = b.name;
            pipeline.signer((method, uri, headers, body) -> token
                    .switchIfEmpty(Mono.error(() -> new IllegalStateException("the access token source completed empty")))
                    .map(t -> List.of(RequestSigner.secretHeader("Authorization", "Bearer ", t)))
                    .onErrorMap(e -> !(e instanceof RuminateException),
                            e -> new InvalidRequestException(provider, "no access token: " + e.getMessage(), e)));
        }
        return pipeline.build();
    }

    /**
     * Returns the Vertex AI endpoint of a location (the host a Vertex provider's base URL starts with).
     *
     * @param location the Google Cloud location, such as {@code us-central1}, or {@code global}
     * @return {@code https://aiplatform.googleapis.com} for {@code global}, else
     *     {@code https://<location>-aiplatform.googleapis.com}
     * @since 0.4
     */
    public static URI vertexEndpoint(String location) {
        String l = location.strip().toLowerCase(Locale.ROOT);
        return URI.create("https://" + (l.equals("global") ? "" : l + "-") + "aiplatform.googleapis.com");
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

    private static String requirePathSafe(String value, String what) {
        Objects.requireNonNull(value, what);
        if (value.isBlank() || !value.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.')) {
            throw new IllegalArgumentException(what + " must be letters, digits, '-', '_' or '.', was '" + value + "'");
        }
        return value;
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
            return vertexEndpoint(location) + "/v1/projects/" + project + "/locations/" + location + "/publishers/google";
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
         * Writes Google's placeholder signature {@code skip_thought_signature_validator} on unsigned
         * function calls of the current tool loop, which Gemini 3 otherwise rejects: those that came
         * from another provider, and the first call of a turn of this provider's whose signature was
         * removed before sending (a model or endpoint boundary, an integrity check, or
         * {@link dev.ruminate.providers.OpaqueStateRecovery#STRIP_AND_RETRY_ONCE}, whose retry then
         * succeeds) or that the application built. Off by default: Google documents it as an
         * escape hatch for histories it did not produce, and it weakens the model's use of its own
         * reasoning.
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
