package dev.ruminate.providers.responses;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.providers.spi.HttpChatProvider;
import dev.ruminate.providers.spi.ProviderPipeline;
import dev.ruminate.transport.http.ApiKey;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

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
 * <p><b>Resumption.</b> With {@link Builder#resumeBackgroundStreams} streamed calls go in OpenAI's
 * background mode, and a stream cut after its first event is resumed from the server's stored
 * copy; without it (the default) such a stream fails, as with every other family.
 *
 * <p><b>Threading.</b> Immutable and thread-safe. <b>Backpressure.</b> Bytes are read from the
 * network as events are requested. <b>Cancellation.</b> Cancelling a subscription closes the HTTP
 * exchange. <b>Errors.</b> See {@link dev.ruminate.transport.http.HttpExchange} (HTTP and transport) and
 * {@link ResponsesCodec#streamDecoder} (the stream); all are
 * {@link dev.ruminate.core.error.RuminateException}s.
 *
 * @since 0.1
 */
public final class ResponsesProvider extends HttpChatProvider {

    private final ResponsesProfile profile;
    private final @Nullable ResponsesResumption resumption;

    private ResponsesProvider(Builder b) {
        super(ProviderPipeline.builder(b.profile.name(),
                        b.resumption == null ? ResponsesCodec.of(b.profile) : ResponsesCodec.background(b.profile),
                        b, b.profile.baseUrl())
                .auth(b.profile.authHeader(), b.profile.authPrefix(), b.apiKey)
                .resumption(b.resumption == null ? null : new BackgroundResumption(b.profile, b.resumption))
                .build());
        this.profile = b.profile;
        this.resumption = b.resumption;
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

    /**
     * Returns the profile this provider speaks.
     *
     * @return the profile
     */
    public ResponsesProfile profile() {
        return profile;
    }

    /**
     * Returns how this provider resumes cut streams.
     *
     * @return the resumption options, or null when streams are not sent in background mode
     * @since 0.4
     */
    public @Nullable ResponsesResumption resumption() {
        return resumption;
    }

    /**
     * Builds a {@link ResponsesProvider}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder extends ProviderBuilder<Builder> {
        private final ResponsesProfile profile;
        private @Nullable ApiKey apiKey;
        private @Nullable ResponsesResumption resumption;

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

        /**
         * Sends streamed calls in background mode and resumes a stream cut after its first event
         * inside the same flux, without a repeated or missing event (see {@link ResponsesResumption}
         * and {@code docs/resumption.md}). Only for servers with OpenAI's background mode
         * ({@code background}, {@code GET /responses/{id}?stream=true&starting_after=…}); whole-body
         * calls are unaffected. Background responses are stored ({@code store: true}) by the server
         * for a while.
         *
         * @param options the reconnection attempts and wait, or null for none (the default: an error
         *     after the first event ends the stream)
         * @return this builder
         * @since 0.4
         */
        public Builder resumeBackgroundStreams(@Nullable ResponsesResumption options) {
            this.resumption = options;
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
