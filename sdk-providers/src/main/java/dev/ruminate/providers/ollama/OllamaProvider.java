package dev.ruminate.providers.ollama;

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
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.transport.wire.JsonLines;
import dev.ruminate.transport.wire.WireLimits;
import dev.ruminate.providers.ProviderBuilder;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link ChatProvider} for Ollama's native API: {@link #stream} and {@link #completeAsEvents} call
 * {@code /api/chat}; {@link #generate} and {@link #generateAsEvents} call {@code /api/generate}
 * with a one-prompt request.
 *
 * <pre>{@code
 * OllamaProvider ollama = OllamaProvider.builder().build();   // http://localhost:11434
 * Flux<ChatEvent> events = ollama.stream(ChatRequest.builder("gpt-oss:20b")
 *         .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH))   // "think": "high"
 *         .user("Describe a rabbit in 3 words").build());
 * }</pre>
 *
 * <p>Streams are NDJSON ({@code application/x-ndjson}); see {@link OllamaCodec} for the events.
 * A model that writes its reasoning as {@code <think>} tags in the answer (qwen3 without
 * {@code think}) is split when the builder says so ({@link Builder#thinkTags}). HTTP errors,
 * whose Ollama bodies are {@code {"error": "message"}}, become the typed exceptions of
 * {@link HttpExchange} with that message. Ollama itself needs no key; one set with
 * {@link Builder#apiKey} is sent as {@code Authorization: Bearer} (ollama.com, proxies).
 *
 * <p><b>Threading.</b> Immutable and thread-safe. <b>Backpressure.</b> Bytes are read from the
 * network as events are requested. <b>Cancellation.</b> Cancelling a subscription closes the HTTP
 * exchange. <b>Errors.</b> All are {@link dev.ruminate.core.error.RuminateException}s.
 *
 * @since 0.1
 */
public final class OllamaProvider implements ChatProvider {

    /** The provider name events and messages carry: {@value}. */
    public static final String NAME = "ollama-native";
    /** The default base URL, a local {@code ollama serve}: {@value}. */
    public static final String DEFAULT_BASE_URL = "http://localhost:11434";

    private static final String NDJSON = "application/x-ndjson";

    private final URI chatUri;
    private final Resilience resilience;
    private final HistoryPolicy history;
    private final URI generateUri;
    private final HttpExchange exchange;
    private final WireLimits limits;
    private final @Nullable ThinkTagOptions thinkTags;

    private OllamaProvider(Builder b) {
        String configured = b.configuredBaseUrl();
        String base = trimSlashes(requireHttpUrl(configured != null ? configured : DEFAULT_BASE_URL));
        this.chatUri = URI.create(base + "/api/chat");
        this.generateUri = URI.create(base + "/api/generate");
        HttpExchange.Builder http = HttpExchange.builder(b.configuredHttpClient(), NAME);
        if (b.apiKey != null) {
            http.auth("Authorization", "Bearer ", b.apiKey);
        }
        http.readTimeout(b.configuredReadTimeout());
        this.exchange = http.build();
        this.limits = b.configuredWireLimits();
        this.history = b.configuredHistory();
        this.resilience = b.configuredResilience();
        this.thinkTags = b.thinkTags;
    }

    /**
     * Starts building a provider for the local server at {@value #DEFAULT_BASE_URL}.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Streams a chat from {@code /api/chat}.
     *
     * @param request the request
     * @return a cold flux of events
     */
    @Override
    public Flux<ChatEvent> stream(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        return resilience.apply(name(), streamFrom(chatUri, () -> encode(() -> OllamaCodec.encodeChatRequest(NAME, prepared(request), true))));
    }

    /**
     * Calls {@code /api/chat} with {@code "stream": false} and decodes the whole body into events.
     *
     * @param request the request
     * @return a cold flux of events
     */
    @Override
    public Flux<ChatEvent> completeAsEvents(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        return resilience.apply(name(), wholeFrom(chatUri, () -> encode(() -> OllamaCodec.encodeChatRequest(NAME, prepared(request), false))));
    }

    /**
     * Streams a completion from {@code /api/generate}: the request's one user message is the prompt
     * and its system messages the {@code system} text (see {@link OllamaCodec#encodeGenerateRequest}).
     * A request that does not fit fails the flux with {@link InvalidRequestException}.
     *
     * @param request system messages and one user message, without tools
     * @return a cold flux of events
     */
    public Flux<ChatEvent> generate(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        return resilience.apply(name(), streamFrom(generateUri, () -> encode(() -> OllamaCodec.encodeGenerateRequest(request, true))));
    }

    /**
     * Calls {@code /api/generate} with {@code "stream": false} and decodes the whole body into events.
     *
     * @param request system messages and one user message, without tools
     * @return a cold flux of events
     */
    public Flux<ChatEvent> generateAsEvents(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        return resilience.apply(name(), wholeFrom(generateUri, () -> encode(() -> OllamaCodec.encodeGenerateRequest(request, false))));
    }

    private Flux<ChatEvent> streamFrom(URI uri, Supplier<byte[]> body) {
        return Flux.defer(() -> exchange.stream(uri, body.get(), NDJSON))
                .transform(bytes -> JsonLines.decode(bytes, limits))
                .transform(OllamaCodec.streamDecoder(NAME, thinkTags))
                .onErrorMap(exchange::redact);
    }

    private Flux<ChatEvent> wholeFrom(URI uri, Supplier<byte[]> body) {
        // deferred: a request that cannot be encoded fails the flux, not the call
        return Mono.defer(() -> exchange.post(uri, body.get()))
                .flatMapMany(bytes -> OllamaCodec.decodeResponse(NAME, thinkTags, bytes))
                .onErrorMap(exchange::redact);
    }

    private ChatRequest prepared(ChatRequest request) {
        return History.prepare(request, NAME, history, Retention.ALL);
    }

    private static byte[] encode(Supplier<byte[]> encoder) {
        try {
            return encoder.get();
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(NAME, String.valueOf(e.getMessage()), e);
        }
    }

    private static String requireHttpUrl(String url) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme();
            if (uri.getHost() == null || !("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))) {
                throw new IllegalArgumentException("base URL must be an absolute http(s) URL, was " + url);
            }
            if (uri.getRawQuery() != null) {
                throw new IllegalArgumentException("base URL must not have a query, was " + url);
            }
            return url;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("base URL is not a valid URI: " + url, e);
        }
    }

    private static String trimSlashes(String url) {
        int end = url.length();
        while (end > 0 && url.charAt(end - 1) == '/') {
            end--;
        }
        return url.substring(0, end);
    }

    @Override
    public String toString() {
        return "OllamaProvider[" + chatUri.getScheme() + "://" + chatUri.getHost()
                + (chatUri.getPort() >= 0 ? ":" + chatUri.getPort() : "") + "]";
    }

    /**
     * Builds an {@link OllamaProvider}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder extends ProviderBuilder<Builder> {
        private @Nullable ApiKey apiKey;
        private @Nullable ThinkTagOptions thinkTags;

        private Builder() {
        }

        /**
         * Sets a key, sent as {@code Authorization: Bearer} (ollama.com, authenticating proxies); a
         * local server needs none.
         *
         * @param key the key
         * @return this builder
         */
        public Builder apiKey(ApiKey key) {
            this.apiKey = Objects.requireNonNull(key, "key");
            return this;
        }

        /**
         * Splits reasoning the model writes into its answer between these tags (qwen3 and other
         * models asked without {@code think}); null (the default) leaves the answer alone.
         *
         * @param options the tags, or null for none
         * @return this builder
         */
        public Builder thinkTags(@Nullable ThinkTagOptions options) {
            this.thinkTags = options;
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
         * @throws IllegalArgumentException if the base URL is not an absolute http(s) URL without a query
         */
        public OllamaProvider build() {
            return new OllamaProvider(this);
        }
    }
}
