package dev.ruminate.providers.chatcompletions;

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
import dev.ruminate.core.think.ThinkTags;
import dev.ruminate.transport.wire.ServerSentEvents;
import dev.ruminate.transport.wire.WireLimits;
import dev.ruminate.providers.ProviderBuilder;
import java.net.URI;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link ChatProvider} for an OpenAI Chat Completions server described by a {@link CompatProfile}:
 * OpenAI itself and the OpenAI-compatible family (DeepSeek, vLLM, llama.cpp, Ollama, OpenRouter,
 * Groq, xAI, GLM, …).
 *
 * <p>A call encodes the request with the profile's rules (how reasoning is asked for, how earlier
 * reasoning goes back), posts it over Reactor Netty, decodes the Server-Sent Events (or the whole
 * body, for {@link #completeAsEvents}) into {@link ChatEvent}s, and, when the profile says the
 * model writes {@code <think>} tags into its answer, splits them out as reasoning.
 *
 * <pre>{@code
 * ChatProvider deepseek = ChatCompletionsProvider.builder(Profiles.DEEPSEEK)
 *         .apiKey(ApiKey.fromEnv("DEEPSEEK_API_KEY"))
 *         .build();
 * Flux<ChatEvent> events = deepseek.stream(ChatRequest.builder("deepseek-reasoner").user("Hi").build());
 * }</pre>
 *
 * <p><b>Threading.</b> Immutable and thread-safe. <b>Backpressure.</b> Bytes are read from the
 * network as events are requested. <b>Cancellation.</b> Cancelling a subscription closes the HTTP
 * exchange. <b>Errors.</b> See {@link HttpExchange} (HTTP and transport) and
 * {@link ChatCompletionsCodec#streamDecoder} (the stream); all are
 * {@link dev.ruminate.core.error.RuminateException}s.
 *
 * @since 0.1
 */
public final class ChatCompletionsProvider implements ChatProvider {

    private static final String EVENT_STREAM = "text/event-stream";

    private final CompatProfile profile;
    private final Resilience resilience;
    private final HistoryPolicy history;
    private final URI chatUri;
    private final HttpExchange exchange;
    private final WireLimits limits;
    private final @Nullable ThinkTagOptions thinkTags;

    private ChatCompletionsProvider(Builder b) {
        this.profile = b.profile;
        this.chatUri = b.profile.chatUri(b.configuredBaseUrl());
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
        this.thinkTags = b.thinkTagsSet ? b.thinkTags : b.profile.thinkTags();
    }

    /**
     * Starts building a provider for a profile.
     *
     * @param profile the server's profile, e.g. {@link Profiles#DEEPSEEK}
     * @return a builder
     */
    public static Builder builder(CompatProfile profile) {
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
    public CompatProfile profile() {
        return profile;
    }

    @Override
    public Flux<ChatEvent> stream(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        return resilience.apply(name(), Flux.defer(() -> exchange.stream(chatUri, encode(request, true), EVENT_STREAM))
                    .transform(body -> ServerSentEvents.decode(body, limits))
                    .transform(ChatCompletionsCodec.streamDecoder(profile))
                    .transform(thinkTagSplitting())
                    .onErrorMap(exchange::redact));
    }

    @Override
    public Flux<ChatEvent> completeAsEvents(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        // deferred like stream(): a request that cannot be encoded fails the flux, not this call
        return resilience.apply(name(), Mono.defer(() -> exchange.post(chatUri, encode(request, false)))
                    .flatMapMany(body -> ChatCompletionsCodec.decodeCompletion(profile, body))
                    .transform(thinkTagSplitting())
                    .onErrorMap(exchange::redact));
    }

    private byte[] encode(ChatRequest request, boolean stream) {
        try {
            // The profile's send-back rule then decides what of the kept reasoning the server takes.
            return ChatCompletionsCodec.encodeRequest(profile,
                    History.prepare(request, profile.name(), history, Retention.ALL), stream);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(profile.name(), String.valueOf(e.getMessage()), e);
        }
    }

    private Function<Flux<ChatEvent>, Flux<ChatEvent>> thinkTagSplitting() {
        return thinkTags != null ? ThinkTags.splitter(thinkTags) : Function.identity();
    }

    @Override
    public String toString() {
        return "ChatCompletionsProvider[" + profile.name() + " at " + chatUri.getScheme() + "://" + chatUri.getHost()
                + (chatUri.getPort() >= 0 ? ":" + chatUri.getPort() : "") + chatUri.getPath() + "]";
    }

    /**
     * Builds a {@link ChatCompletionsProvider}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder extends ProviderBuilder<Builder> {
        private final CompatProfile profile;
        private @Nullable ApiKey apiKey;
        private @Nullable ThinkTagOptions thinkTags;
        private boolean thinkTagsSet;

        private Builder(CompatProfile profile) {
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

        /**
         * Overrides the profile's think-tag mode: the model writes its reasoning into the answer
         * between these tags; null turns splitting off.
         *
         * @param options the tags, or null for none
         * @return this builder
         */
        public Builder thinkTags(@Nullable ThinkTagOptions options) {
            this.thinkTags = options;
            this.thinkTagsSet = true;
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
        public ChatCompletionsProvider build() {
            return new ChatCompletionsProvider(this);
        }
    }
}
