package dev.ruminate.providers.responses;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.History;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.Retention;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.transport.http.HttpExchange;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.transport.resilience.Resilience;
import dev.ruminate.transport.wire.ServerSentEvents;
import dev.ruminate.transport.wire.WireLimits;
import dev.ruminate.providers.ProviderBuilder;
import java.net.URI;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link ChatProvider} for a server that speaks the OpenAI Responses API, described by a
 * {@link ResponsesProfile}: OpenAI itself, Azure, xAI, DeepSeek, OpenRouter, LM Studio, vLLM, Ollama,
 * or any other.
 *
 * <p>A call encodes the request (earlier reasoning items go back with their encrypted state), posts
 * it over Reactor Netty, and decodes the Server-Sent Events (or the whole body, for
 * {@link #completeAsEvents}) into {@link ChatEvent}s.
 *
 * <pre>{@code
 * ChatProvider openai = ResponsesProvider.builder(ResponsesProfiles.OPENAI)
 *         .apiKey(ApiKey.fromEnv("OPENAI_API_KEY"))
 *         .build();
 * Flux<ChatEvent> events = openai.stream(ChatRequest.builder("o4-mini").user("Hi").build());
 * }</pre>
 *
 * <p><b>Threading.</b> Immutable and thread-safe. <b>Backpressure.</b> Bytes are read from the
 * network as events are requested. <b>Cancellation.</b> Cancelling a subscription closes the HTTP
 * exchange. <b>Errors.</b> See {@link HttpExchange} (HTTP and transport) and
 * {@link ResponsesCodec#streamDecoder} (the stream); all are
 * {@link dev.ruminate.core.error.RuminateException}s.
 *
 * @since 0.1
 */
public final class ResponsesProvider implements ChatProvider {

    private static final String EVENT_STREAM = "text/event-stream";

    private final ResponsesProfile profile;
    private final Resilience resilience;
    private final HistoryPolicy history;
    private final URI uri;
    private final HttpExchange exchange;
    private final WireLimits limits;

    private ResponsesProvider(Builder b) {
        this.profile = b.profile;
        this.uri = b.profile.uri(b.configuredBaseUrl());
        HttpExchange.Builder http = HttpExchange.builder(b.configuredHttpClient(),
                b.profile.name());
        if (b.apiKey != null) {
            http.auth(b.profile.authHeader(), b.profile.authPrefix(), b.apiKey);
        }
        http.readTimeout(b.configuredReadTimeout());
        this.exchange = http.build();
        this.limits = b.configuredWireLimits();
        this.history = b.configuredHistory();
        this.resilience = b.configuredResilience();
    }

    /**
     * Starts building a provider for a profile.
     *
     * @param profile the server's profile, e.g. {@link ResponsesProfiles#OPENAI}
     * @return a builder
     */
    public static Builder builder(ResponsesProfile profile) {
        return new Builder(profile);
    }

    @Override
    public String name() {
        return profile.name();
    }

    /**
     * Returns the profile this provider speaks.
     *
     * @return the profile
     */
    public ResponsesProfile profile() {
        return profile;
    }

    @Override
    public Flux<ChatEvent> stream(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        return resilience.apply(name(), Flux.defer(() -> exchange.stream(uri, encode(request, true), EVENT_STREAM))
                    .transform(body -> ServerSentEvents.decode(body, limits))
                    .transform(ResponsesCodec.streamDecoder(profile))
                    .onErrorMap(exchange::redact));
    }

    @Override
    public Flux<ChatEvent> completeAsEvents(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        // deferred like stream(): a request that cannot be encoded fails the flux, not this call
        return resilience.apply(name(), Mono.defer(() -> exchange.post(uri, encode(request, false)))
                    .flatMapMany(body -> ResponsesCodec.decodeResponse(profile, body))
                    .onErrorMap(exchange::redact));
    }

    private byte[] encode(ChatRequest request, boolean stream) {
        try {
            return ResponsesCodec.encodeRequest(profile, History.prepare(request, profile.name(), history, Retention.ALL), stream);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(profile.name(), String.valueOf(e.getMessage()), e);
        }
    }

    @Override
    public String toString() {
        return "ResponsesProvider[" + profile.name() + " at " + uri.getScheme() + "://" + uri.getHost()
                + (uri.getPort() >= 0 ? ":" + uri.getPort() : "") + uri.getPath() + "]";
    }

    /**
     * Builds a {@link ResponsesProvider}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder extends ProviderBuilder<Builder> {
        private final ResponsesProfile profile;
        private @Nullable ApiKey apiKey;

        private Builder(ResponsesProfile profile) {
            this.profile = Objects.requireNonNull(profile, "profile");
        }

        /**
         * Sets the API key, sent in the profile's auth header. Local servers may need none.
         *
         * @param key the key
         * @return this builder
         */
        public Builder apiKey(ApiKey key) {
            this.apiKey = Objects.requireNonNull(key, "key");
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
         * @throws IllegalStateException if neither the profile nor the builder gives a base URL
         */
        public ResponsesProvider build() {
            return new ResponsesProvider(this);
        }
    }
}
