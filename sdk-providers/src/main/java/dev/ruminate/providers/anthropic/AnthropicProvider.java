package dev.ruminate.providers.anthropic;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.providers.spi.HttpChatProvider;
import dev.ruminate.providers.spi.ProviderPipeline;
import dev.ruminate.transport.http.ApiKey;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ChatProvider} for the Anthropic Messages API ({@code POST /v1/messages}), with extended,
 * adaptive and interleaved thinking.
 *
 * <p>A call encodes the request with {@link AnthropicCodec#encodeRequest(ChatRequest, boolean, int)},
 * posts it over Reactor Netty with {@code x-api-key}, {@code anthropic-version: 2023-06-01} and, when
 * set, {@code anthropic-beta}, and decodes the Server-Sent Events (or the whole body, for
 * {@link #completeAsEvents}) with {@link AnthropicCodec}.
 *
 * <pre>{@code
 * ChatProvider claude = AnthropicProvider.builder()
 *         .apiKey(ApiKey.fromEnv("ANTHROPIC_API_KEY"))
 *         .interleavedThinking(true)
 *         .build();
 * Flux<ChatEvent> events = claude.stream(ChatRequest.builder("claude-sonnet-4-5")
 *         .reasoning(ReasoningOptions.budget(4000)).user("Hi").build());
 * }</pre>
 *
 * <p><b>Threading.</b> Immutable and thread-safe. <b>Backpressure.</b> Bytes are read from the
 * network as events are requested. <b>Cancellation.</b> Cancelling a subscription closes the HTTP
 * exchange. <b>Errors.</b> See {@link dev.ruminate.transport.http.HttpExchange} (HTTP and transport: Anthropic's error bodies,
 * {@code {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}}, give the
 * error's type and message; 429 is a {@code RateLimitException} and 529 (overloaded) a retryable
 * {@code ProviderHttpException}) and {@link AnthropicCodec#streamDecoder} (the stream); all are
 * {@link dev.ruminate.core.error.RuminateException}s.
 *
 * @since 0.1
 */
public final class AnthropicProvider extends HttpChatProvider {

    /** The API's address. */
    public static final String DEFAULT_BASE_URL = "https://api.anthropic.com";
    /** The beta that lets Claude 4 models think between tool calls. */
    public static final String INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";

    private static final String API_VERSION = "2023-06-01";

    private AnthropicProvider(Builder b) {
        super(pipeline(b));
    }

    private static ProviderPipeline<?> pipeline(Builder b) {
        ProviderPipeline.Builder<?> pipeline = ProviderPipeline.builder(AnthropicCodec.PROVIDER,
                        AnthropicCodec.of(b.maxTokens), b, DEFAULT_BASE_URL)
                .auth("x-api-key", "", b.apiKey)
                .header("anthropic-version", API_VERSION);
        Set<String> betas = new LinkedHashSet<>(b.betas);
        if (b.interleavedThinking) {
            betas.add(INTERLEAVED_THINKING_BETA);
        }
        if (!betas.isEmpty()) {
            pipeline.header("anthropic-beta", String.join(",", betas));
        }
        return pipeline.build();
    }

    /**
     * Starts building a provider.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Builds an {@link AnthropicProvider}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder extends ProviderBuilder<Builder> {
        private @Nullable ApiKey apiKey;
        private final Set<String> betas = new LinkedHashSet<>();
        private boolean interleavedThinking;
        private int maxTokens = AnthropicCodec.DEFAULT_MAX_TOKENS;

        private Builder() {
        }

        /**
         * Sets the API key, sent in the {@code x-api-key} header.
         *
         * @param key the key
         * @return this builder
         */
        public Builder apiKey(ApiKey key) {
            this.apiKey = Objects.requireNonNull(key, "key");
            return this;
        }

        /**
         * Adds beta features, sent comma-separated in the {@code anthropic-beta} header.
         *
         * @param names the beta names, such as {@code context-management-2025-06-27}
         * @return this builder
         * @throws IllegalArgumentException if a name is blank or holds a comma or line break
         */
        public Builder betas(String... names) {
            for (String name : names) {
                Objects.requireNonNull(name, "name");
                if (name.isBlank() || name.indexOf(',') >= 0 || name.indexOf('\n') >= 0 || name.indexOf('\r') >= 0) {
                    throw new IllegalArgumentException("not a beta name: " + name);
                }
                betas.add(name.strip());
            }
            return this;
        }

        /**
         * Turns on interleaved thinking ({@value AnthropicProvider#INTERLEAVED_THINKING_BETA}): Claude
         * 4 models may then think after each tool result, and a thinking budget may exceed
         * {@code max_tokens}. Models with adaptive thinking (Opus 4.6, Sonnet 4.6 and later)
         * interleave without it.
         *
         * @param enabled true to send the beta header
         * @return this builder
         */
        public Builder interleavedThinking(boolean enabled) {
            this.interleavedThinking = enabled;
            return this;
        }

        /**
         * Sets the {@code max_tokens} sent when a request sets no maximum output (the API requires
         * one). Defaults to {@value AnthropicCodec#DEFAULT_MAX_TOKENS}. With a thinking budget and no
         * interleaved thinking, it must exceed the budget.
         *
         * @param tokens the default maximum, positive
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder maxTokens(int tokens) {
            if (tokens < 1) {
                throw new IllegalArgumentException("maxTokens must be positive, was " + tokens);
            }
            this.maxTokens = tokens;
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
         * @throws IllegalArgumentException if the base URL is not an http or https URL
         */
        public AnthropicProvider build() {
            return new AnthropicProvider(this);
        }
    }
}
