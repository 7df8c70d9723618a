package dev.ruminate.providers.ollama;

import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.providers.spi.HttpChatProvider;
import dev.ruminate.providers.spi.ProviderPipeline;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.transport.wire.JsonLine;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * A {@link dev.ruminate.core.ChatProvider} for Ollama's native API: {@link #stream} and {@link #completeAsEvents} call
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
 * {@link dev.ruminate.transport.http.HttpExchange} with that message. Ollama itself needs no key; one set with
 * {@link Builder#apiKey} is sent as {@code Authorization: Bearer} (ollama.com, proxies).
 *
 * <p><b>Threading.</b> Immutable and thread-safe. <b>Backpressure.</b> Bytes are read from the
 * network as events are requested. <b>Cancellation.</b> Cancelling a subscription closes the HTTP
 * exchange. <b>Errors.</b> All are {@link dev.ruminate.core.error.RuminateException}s.
 *
 * @since 0.1
 */
public final class OllamaProvider extends HttpChatProvider {

    /** The provider name events and messages carry: {@value}. */
    public static final String NAME = "ollama-native";
    /** The default base URL, a local {@code ollama serve}: {@value}. */
    public static final String DEFAULT_BASE_URL = "http://localhost:11434";

    private final ProviderPipeline<JsonLine> generate;

    private OllamaProvider(Builder b) {
        super(ProviderPipeline.builder(NAME, OllamaCodec.chat(NAME), b, DEFAULT_BASE_URL)
                .auth("Authorization", "Bearer ", b.apiKey)
                .thinkTags(b.thinkTags)
                .build());
        this.generate = pipeline().withCodec(OllamaCodec.generate(NAME));
    }

    /**
     * Starts building a provider for the local server at {@value #DEFAULT_BASE_URL}.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
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
        return generate.stream(request);
    }

    /**
     * Calls {@code /api/generate} with {@code "stream": false} and decodes the whole body into events.
     *
     * @param request system messages and one user message, without tools
     * @return a cold flux of events
     */
    public Flux<ChatEvent> generateAsEvents(ChatRequest request) {
        return generate.complete(request);
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
