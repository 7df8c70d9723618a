package dev.ruminate.providers.bedrock;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.providers.spi.HttpChatProvider;
import dev.ruminate.providers.spi.ProviderPipeline;
import java.net.URI;
import java.time.Clock;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * A {@link ChatProvider} for Amazon Bedrock's Converse API: {@code ConverseStream} for
 * {@link #stream}, {@code Converse} for {@link #completeAsEvents}, requests signed with AWS
 * Signature Version 4 from credentials the user supplies.
 *
 * <pre>{@code
 * ChatProvider bedrock = BedrockProvider.builder("us-east-1")
 *         .credentials(AwsCredentials.fromEnv())
 *         .build();
 * Flux<ChatEvent> events = bedrock.stream(ChatRequest.builder("us.anthropic.claude-sonnet-4-20250514-v1:0")
 *         .user("Hi").reasoning(ReasoningOptions.budget(2048)).build());
 * }</pre>
 *
 * <p>With the AWS SDK's default credentials and region chains (an optional dependency, see
 * {@link AwsSdkCredentials}):
 *
 * <pre>{@code
 * ChatProvider bedrock = BedrockProvider.builder(AwsSdkCredentials.defaultRegion())
 *         .credentials(AwsSdkCredentials.defaultChain())
 *         .build();
 * }</pre>
 *
 * <p>The model id goes into the URL path percent-encoded ({@code :} as {@code %3A}, {@code /} of an
 * ARN as {@code %2F}); the signature covers that path encoded once more, as bedrock-runtime
 * checks it. The stream is the binary {@code application/vnd.amazon.eventstream}, whose frames are
 * checksum-verified by {@link dev.ruminate.transport.wire.EventStreams}.
 *
 * <p><b>Origin.</b> The {@linkplain dev.ruminate.providers.spi.ProviderPipeline#origin() origin}
 * has no account: AWS credentials are read per request and may be temporary (STS, instance roles),
 * so they are no stable identity, and the region opaque state is bound to is in the endpoint's host.
 *
 * <p><b>Threading.</b> Immutable and thread-safe. <b>Credentials</b> are read per request from the
 * configured source and never appear in messages, logs or {@code toString}. <b>Cancellation.</b>
 * Cancelling a subscription closes the HTTP exchange. <b>Errors.</b> See {@link dev.ruminate.transport.http.HttpExchange} and
 * {@link BedrockCodec#streamDecoder}; all are {@link dev.ruminate.core.error.RuminateException}s.
 *
 * @since 0.1
 */
public final class BedrockProvider extends HttpChatProvider {

    private BedrockProvider(Builder b) {
        super(pipeline(b));
    }

    private static ProviderPipeline<?> pipeline(Builder b) {
        Mono<AwsCredentials> credentials = b.credentials;
        if (credentials == null) {
            throw new IllegalStateException("set the AWS credentials (credentials(...))");
        }
        return ProviderPipeline.builder(b.name, BedrockCodec.of(b.name), b, endpoint(b.region).toString())
                .signer(new SigV4RequestSigner(b.name, new SigV4Signer(b.region, "bedrock"), credentials, b.clock))
                .build();
    }

    /**
     * Returns Bedrock's runtime endpoint in a region, the base URL a provider built for that region uses.
     *
     * @param region the AWS region, such as {@code us-east-1}
     * @return {@code https://bedrock-runtime.<region>.amazonaws.com}
     * @since 0.4
     */
    public static URI endpoint(String region) {
        return URI.create("https://bedrock-runtime." + region.strip() + ".amazonaws.com");
    }

    /**
     * Starts building a provider for a region.
     *
     * @param region the AWS region, such as {@code us-east-1}
     * @return a builder
     */
    public static Builder builder(String region) {
        return new Builder(region);
    }

    /**
     * Builds a {@link BedrockProvider}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder extends ProviderBuilder<Builder> {
        private final String region;
        private String name = "bedrock";
        private @Nullable Mono<AwsCredentials> credentials;
        private Clock clock = Clock.systemUTC();

        private Builder(String region) {
            this.region = Objects.requireNonNull(region, "region");
            if (region.isBlank() || region.indexOf('/') >= 0 || region.indexOf('.') >= 0) {
                throw new IllegalArgumentException("not a region: '" + region + "'");
            }
        }

        /**
         * Sets fixed credentials.
         *
         * @param fixed the credentials
         * @return this builder
         */
        public Builder credentials(AwsCredentials fixed) {
            Objects.requireNonNull(fixed, "fixed");
            this.credentials = Mono.just(fixed);
            return this;
        }

        /**
         * Sets a source of credentials called for every request, so rotating credentials are used
         * as they change. It may block briefly (a cached value); a slow fetch belongs in
         * {@link #credentials(Mono)}.
         *
         * @param source the source
         * @return this builder
         */
        public Builder credentials(Supplier<AwsCredentials> source) {
            Objects.requireNonNull(source, "source");
            this.credentials = Mono.fromSupplier(source);
            return this;
        }

        /**
         * Sets an asynchronous source of credentials, subscribed once per request (for example a
         * cached STS call).
         *
         * @param source the source
         * @return this builder
         */
        public Builder credentials(Mono<AwsCredentials> source) {
            this.credentials = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * Sets the provider name reported in events and errors; {@code bedrock} by default.
         *
         * @param providerName the name
         * @return this builder
         */
        public Builder name(String providerName) {
            this.name = Objects.requireNonNull(providerName, "providerName");
            return this;
        }

        Builder clock(Clock fixed) {
            this.clock = Objects.requireNonNull(fixed, "fixed");
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
         * @throws IllegalStateException if no credentials were set
         */
        public BedrockProvider build() {
            return new BedrockProvider(this);
        }
    }
}
