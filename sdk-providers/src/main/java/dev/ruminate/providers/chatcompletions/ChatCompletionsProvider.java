package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.providers.spi.HttpChatProvider;
import dev.ruminate.providers.spi.ProviderPipeline;
import dev.ruminate.transport.http.ApiKey;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@link dev.ruminate.core.ChatProvider} for an OpenAI Chat Completions server described by a {@link CompatProfile}:
 * OpenAI itself and the OpenAI-compatible family (DeepSeek, vLLM, llama.cpp, Ollama, OpenRouter,
 * Groq, xAI, GLM, …).
 *
 * <p>A call encodes the request with the profile's rules (how reasoning is asked for, how earlier
 * reasoning goes back), posts it over Reactor Netty, decodes the Server-Sent Events (or the whole
 * body, for {@link #completeAsEvents}) into {@link dev.ruminate.core.event.ChatEvent}s, and, when the profile says the
 * model writes {@code <think>} tags into its answer, splits them out as reasoning.
 *
 * <pre>{@code
 * ChatProvider deepseek = ChatCompletionsProvider.builder(Profiles.DEEPSEEK)
 *         .apiKey(ApiKey.fromEnv("DEEPSEEK_API_KEY"))
 *         .build();
 * Flux<ChatEvent> events = deepseek.stream(ChatRequest.builder("deepseek-reasoner").user("Hi").build());
 * }</pre>
 *
 * <p><b>Threading.</b> Immutable and thread-safe. Calls run through the provider skeleton
 * ({@link ProviderPipeline}: backpressure, cancellation and errors as it documents); all errors are
 * {@link dev.ruminate.core.error.RuminateException}s.
 *
 * @since 0.1
 */
public final class ChatCompletionsProvider extends HttpChatProvider {

    private final CompatProfile profile;

    private ChatCompletionsProvider(Builder b) {
        super(ProviderPipeline.builder(b.profile.name(), ChatCompletionsCodec.of(b.profile), b, b.profile.baseUrl())
                .auth(b.profile.authHeader(), b.profile.authPrefix(), b.apiKey)
                .thinkTags(b.thinkTagsSet ? b.thinkTags : b.profile.thinkTags())
                .build());
        this.profile = b.profile;
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

    /**
     * Returns the profile this provider speaks.
     *
     * @return the profile
     */
    public CompatProfile profile() {
        return profile;
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
