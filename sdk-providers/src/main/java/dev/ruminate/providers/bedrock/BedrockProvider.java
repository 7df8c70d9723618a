package dev.ruminate.providers.bedrock;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.transport.http.HttpExchange;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.transport.resilience.Resilience;
import dev.ruminate.transport.wire.EventStreams;
import dev.ruminate.transport.wire.WireLimits;
import dev.ruminate.providers.ProviderBuilder;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
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
 * <p>The model id goes into the URL path percent-encoded ({@code :} as {@code %3A}, {@code /} of an
 * ARN as {@code %2F}); the signature covers that path encoded once more, as bedrock-runtime
 * checks it. The stream is the binary {@code application/vnd.amazon.eventstream}, whose frames are
 * checksum-verified by {@link EventStreams}.
 *
 * <p><b>Threading.</b> Immutable and thread-safe. <b>Credentials</b> are read per request from the
 * configured source and never appear in messages, logs or {@code toString}. <b>Cancellation.</b>
 * Cancelling a subscription closes the HTTP exchange. <b>Errors.</b> See {@link HttpExchange} and
 * {@link BedrockCodec#streamDecoder}; all are {@link dev.ruminate.core.error.RuminateException}s.
 *
 * @since 0.1
 */
public final class BedrockProvider implements ChatProvider {

    private static final String EVENT_STREAM = "application/vnd.amazon.eventstream";

    private final String name;
    private final Resilience resilience;
    private final URI base;
    private final HttpExchange exchange;
    private final WireLimits limits;
    private final HistoryPolicy history;

    private BedrockProvider(Builder b) {
        this.name = b.name;
        String configured = b.configuredBaseUrl();
        String url = configured != null ? configured : "https://bedrock-runtime." + b.region + ".amazonaws.com";
        this.base = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
        if (b.credentials == null) {
            throw new IllegalStateException("set the AWS credentials (credentials(...))");
        }
        SigV4Signer signer = new SigV4Signer(b.region, "bedrock");
        this.exchange = HttpExchange.builder(b.configuredHttpClient(), b.name)
                .signer(new SigV4RequestSigner(b.name, signer, b.credentials, b.clock))
                .readTimeout(b.configuredReadTimeout())
                .build();
        this.limits = b.configuredWireLimits();
        this.history = b.configuredHistory();
        this.resilience = b.configuredResilience();
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

    @Override
    public String name() {
        return name;
    }

    @Override
    public Flux<ChatEvent> stream(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        return resilience.apply(name(), Flux.defer(() -> exchange.stream(uri(request.model(), "converse-stream"), encode(request), EVENT_STREAM))
                    .transform(body -> EventStreams.decode(body, limits))
                    .transform(BedrockCodec.streamDecoder(name, request.model()))
                    .onErrorMap(exchange::redact));
    }

    @Override
    public Flux<ChatEvent> completeAsEvents(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        return resilience.apply(name(), Mono.defer(() -> exchange.post(uri(request.model(), "converse"), encode(request)))
                    .flatMapMany(body -> BedrockCodec.decodeResponse(name, request.model(), body))
                    .onErrorMap(exchange::redact));
    }

    /** The operation's URI, the model id encoded as one path segment. */
    URI uri(String model, String operation) {
        return URI.create(base + "/model/" + pathSegment(model) + "/" + operation);
    }

    static String pathSegment(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 8);
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || c == '.' || c == '~') {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return sb.toString();
    }

    private byte[] encode(ChatRequest request) {
        try {
            return BedrockCodec.encodeRequest(name, request, history);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(name, String.valueOf(e.getMessage()), e);
        }
    }

    @Override
    public String toString() {
        return "BedrockProvider[" + name + " at " + base.getScheme() + "://" + base.getHost()
                + (base.getPort() >= 0 ? ":" + base.getPort() : "") + "]";
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
