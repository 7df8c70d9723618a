package dev.ruminate.providers.spi;

import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.History;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.Retention;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.core.think.ThinkTags;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.transport.http.BaseUrl;
import dev.ruminate.transport.http.HttpExchange;
import dev.ruminate.transport.http.RequestSigner;
import dev.ruminate.transport.resilience.Resilience;
import dev.ruminate.transport.wire.WireLimits;
import java.net.URI;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The provider skeleton: the one place where a call runs, for every provider family. A streamed
 * call prepares the request's history (the provider-neutral policy; the family's send-back rules
 * follow in its encoder), encodes it with the family's {@link WireCodec}, signs and posts it over
 * the {@link HttpExchange}, frames the body, decodes the frames with the family's
 * {@link StreamDecoder} ({@link StreamDecoding}: error positions, failures after the events
 * before them), splits think tags when asked, redacts secrets from errors, and runs it all under
 * the endpoint's {@link Resilience} guards. A whole-body call does the same with
 * {@link BodyDecoding}.
 *
 * <p><b>Threading.</b> Immutable and thread-safe; every returned flux is cold and makes its own
 * exchange per subscription. <b>Backpressure.</b> Bytes are read from the network as events are
 * requested. <b>Cancellation.</b> Cancelling closes the exchange. <b>Errors.</b> All are
 * {@link dev.ruminate.core.error.RuminateException}s: a request the codec cannot encode fails the
 * flux (not the call) with {@link InvalidRequestException}; see {@link HttpExchange} for HTTP and
 * transport errors and {@link StreamDecoding} for the stream's.
 *
 * @param <F> the frame type of the codec's framing
 * @since 0.1
 */
public final class ProviderPipeline<F> {

    private final String name;
    private final WireCodec<F> codec;
    private final BaseUrl base;
    private final HttpExchange exchange;
    private final WireLimits limits;
    private final HistoryPolicy history;
    private final Resilience resilience;
    private final @Nullable ThinkTagOptions thinkTags;

    private ProviderPipeline(String name, WireCodec<F> codec, BaseUrl base, HttpExchange exchange, WireLimits limits,
                             HistoryPolicy history, Resilience resilience, @Nullable ThinkTagOptions thinkTags) {
        this.name = name;
        this.codec = codec;
        this.base = base;
        this.exchange = exchange;
        this.limits = limits;
        this.history = history;
        this.resilience = resilience;
        this.thinkTags = thinkTags;
    }

    /**
     * Starts a pipeline.
     *
     * @param name the provider's name: in events and errors, and the owner of the opaque state its
     *     history keeps
     * @param codec the family's codec
     * @param settings the settings every provider takes (base URL, HTTP client, limits, timeout,
     *     history policy, guards)
     * @param defaultBaseUrl the family's or profile's default API root, or null when the user must
     *     give one
     * @param <F> the frame type
     * @return a builder
     * @throws IllegalStateException if no base URL is configured and there is no default
     * @throws IllegalArgumentException if the base URL is not an absolute http(s) URL
     */
    public static <F> Builder<F> builder(String name, WireCodec<F> codec, ProviderBuilder<?> settings,
                                         @Nullable String defaultBaseUrl) {
        return new Builder<>(name, codec, settings, defaultBaseUrl);
    }

    /**
     * Returns a pipeline for another endpoint of the same API (Ollama's {@code /api/generate}
     * beside {@code /api/chat}, say): the same exchange, settings and think tags, another codec.
     *
     * @param other the other endpoint's codec
     * @param <G> its frame type
     * @return the pipeline
     */
    public <G> ProviderPipeline<G> withCodec(WireCodec<G> other) {
        return new ProviderPipeline<>(name, Objects.requireNonNull(other, "other"), base, exchange, limits, history,
                resilience, thinkTags);
    }

    /**
     * Returns the provider's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Returns the API root calls go to.
     *
     * @return the base URL
     */
    public BaseUrl baseUrl() {
        return base;
    }

    /**
     * Returns where a call goes.
     *
     * @param request the request (some APIs put the model in the path)
     * @param stream true for a streamed call
     * @return the endpoint
     */
    public URI endpoint(ChatRequest request, boolean stream) {
        return codec.endpoint(base, Objects.requireNonNull(request, "request"), stream);
    }

    /**
     * Streams one call.
     *
     * @param request the request
     * @return a cold flux of events
     */
    public Flux<ChatEvent> stream(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        Flux<ChatEvent> call = Flux.defer(() -> exchange.stream(codec.endpoint(base, request, true), encode(request, true),
                        codec.framing().mediaType(), codec.framing().acceptedMediaTypes()))
                .transform(body -> codec.framing().decode(body, limits))
                .transform(StreamDecoding.operator(codec.framing(), () -> codec.newStreamDecoder(request)))
                .transform(thinkTagSplitting())
                .onErrorMap(exchange::redact);
        return resilience.apply(name, call);
    }

    /**
     * Makes one non-streaming call and decodes the whole body into the events a stream would give.
     *
     * @param request the request
     * @return a cold flux of events
     */
    public Flux<ChatEvent> complete(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        Flux<ChatEvent> call = Mono.defer(() -> exchange.post(codec.endpoint(base, request, false), encode(request, false)))
                .flatMapIterable(body -> BodyDecoding.decode(body, b -> codec.decodeBody(request, b)))
                .transform(thinkTagSplitting())
                .onErrorMap(exchange::redact);
        return resilience.apply(name, call);
    }

    /**
     * Shows a provider as {@code Type[name at scheme://host:port/path]}: never a key or a query.
     *
     * @param type the provider's class name
     * @return the text
     */
    public String describe(String type) {
        return type + "[" + name + " at " + base + "]";
    }

    private byte[] encode(ChatRequest request, boolean stream) {
        try {
            return codec.encode(History.prepare(request, name, history, Retention.ALL), stream);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(name, String.valueOf(e.getMessage()), e);
        }
    }

    private Function<Flux<ChatEvent>, Flux<ChatEvent>> thinkTagSplitting() {
        return thinkTags != null ? ThinkTags.splitter(thinkTags) : Function.identity();
    }

    @Override
    public String toString() {
        return describe("ProviderPipeline");
    }

    /**
     * Builds a {@link ProviderPipeline}: what a family adds to the common settings, its
     * authentication, fixed headers and think tags. Not thread-safe.
     *
     * @param <F> the frame type
     * @since 0.1
     */
    public static final class Builder<F> {
        private final String name;
        private final WireCodec<F> codec;
        private final ProviderBuilder<?> settings;
        private final BaseUrl base;
        private final HttpExchange.Builder http;
        private @Nullable ThinkTagOptions thinkTags;

        private Builder(String name, WireCodec<F> codec, ProviderBuilder<?> settings, @Nullable String defaultBaseUrl) {
            this.name = Objects.requireNonNull(name, "name");
            this.codec = Objects.requireNonNull(codec, "codec");
            this.settings = Objects.requireNonNull(settings, "settings");
            this.base = BaseUrl.of(settings.configuredBaseUrl(), defaultBaseUrl, name);
            this.http = HttpExchange.builder(settings.configuredHttpClient(), name)
                    .readTimeout(settings.configuredReadTimeout());
        }

        /**
         * Sends a key in a header; nothing when the key is null (local servers may need none).
         *
         * @param header the header, such as {@code Authorization}
         * @param prefix what precedes the key, such as {@code "Bearer "}, possibly empty
         * @param key the key, or null
         * @return this builder
         */
        public Builder<F> auth(String header, String prefix, @Nullable ApiKey key) {
            if (key != null) {
                http.auth(header, prefix, key);
            }
            return this;
        }

        /**
         * Signs every request (AWS SigV4, a refreshed bearer token).
         *
         * @param signer the signer
         * @return this builder
         */
        public Builder<F> signer(RequestSigner signer) {
            http.signer(signer);
            return this;
        }

        /**
         * Sends a fixed header with every request.
         *
         * @param header the name
         * @param value the value
         * @return this builder
         */
        public Builder<F> header(String header, String value) {
            http.header(header, value);
            return this;
        }

        /**
         * Splits {@code <think>} tags out of the answer as reasoning.
         *
         * @param options the tags, or null for no splitting
         * @return this builder
         */
        public Builder<F> thinkTags(@Nullable ThinkTagOptions options) {
            this.thinkTags = options;
            return this;
        }

        /**
         * Builds the pipeline.
         *
         * @return the pipeline
         */
        public ProviderPipeline<F> build() {
            return new ProviderPipeline<>(name, codec, base, http.build(), settings.configuredWireLimits(),
                    settings.configuredHistory(), settings.configuredResilience(), thinkTags);
        }
    }
}
