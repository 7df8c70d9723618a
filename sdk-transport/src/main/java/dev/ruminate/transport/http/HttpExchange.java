package dev.ruminate.transport.http;

import dev.ruminate.core.error.AuthenticationException;
import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RateLimitException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.StreamTimeoutException;
import dev.ruminate.core.error.TransportException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.timeout.ReadTimeoutException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;

/**
 * Makes the one kind of HTTP call a chat provider needs: a {@code POST} of a JSON body, answered
 * by a streamed body (Server-Sent Events, NDJSON, AWS event-stream) or by one JSON document.
 *
 * <p>Every failure becomes a typed {@link RuminateException}:
 * <ul>
 *   <li>a non-2xx status: at most 64 KiB of the body are read and parsed with the
 *       {@link ErrorBodyParser}; 401 and 403 fail with {@link AuthenticationException}, 429 with
 *       {@link RateLimitException} (with {@code Retry-After}, delta-seconds or HTTP-date, or
 *       {@code retry-after-ms}; failing those, the longest of the OpenAI or Anthropic rate-limit
 *       reset headers), any other status with {@link ProviderHttpException}; the request
 *       id comes from {@code x-request-id}, {@code request-id} or {@code x-amzn-RequestId};</li>
 *   <li>a 2xx response of the wrong content type: a JSON body that parses as a provider error
 *       (a streaming call answered by an error object) fails with {@link ProviderHttpException},
 *       anything else with {@link ProtocolException} {@code UNEXPECTED_CONTENT_TYPE} and an excerpt;
 *       a missing {@code Content-Type} is tolerated;</li>
 *   <li>a connection that cannot be made, or fails before the response: {@link TransportException};
 *       a connect timeout (the client's {@code CONNECT_TIMEOUT_MILLIS}): {@link StreamTimeoutException}
 *       {@code CONNECT};</li>
 *   <li>a connection closed or reset while the body is being read: {@link IncompleteStreamException}.</li>
 * </ul>
 * The API key is written into the authentication header and nowhere else: no message, excerpt or
 * parsed error contains it (a provider that echoes the key back has it replaced by
 * {@code [REDACTED]}, and so has the start of it left where an excerpt was cut inside it), and URIs in messages lose their user info and query. The same holds for the
 * secrets of the headers a signer adds with {@link RequestSigner#secretHeader}: those of the request
 * that failed, and of the last few requests (for errors that {@link #redact(Throwable)} cleans
 * after decoding); a transport error whose cause quotes one gets a stand-in cause without it.
 *
 * <p><b>Threading.</b> Thread-safe; one instance serves any number of concurrent calls. Its only
 * state is the memory of recent signer secrets, replaced atomically. Every returned publisher is
 * cold: each subscription makes its own request.
 *
 * <p><b>Backpressure.</b> Body buffers are read from the network as they are requested.
 *
 * <p><b>Cancellation.</b> Cancelling a subscription closes the connection (it is not returned to
 * the pool, since the response was not read to its end).
 *
 * @since 0.1
 */
public final class HttpExchange {

    /** The most of an error body that is read. */
    static final int ERROR_BODY_LIMIT = 64 * 1024;
    private static final int EXCERPT_BYTES = 4 * 1024;
    private static final int MESSAGE_EXCERPT_CHARS = 200;
    private static final String JSON = "application/json";
    /** Netty's connect timeout when the client sets none. */
    private static final int DEFAULT_CONNECT_TIMEOUT_MILLIS = 30_000;

    private final HttpClient client;
    private final @Nullable Duration readTimeout;
    private final String provider;
    private final List<String[]> headers;
    private final @Nullable String authHeader;
    private final String authPrefix;
    private final @Nullable ApiKey apiKey;
    private final @Nullable RequestSigner signer;
    private final Secrets secrets;
    private final ErrorBodyParser errorParser;
    private final int maxBodyBytes;
    private final Clock clock;

    private HttpExchange(Builder b) {
        this.readTimeout = b.readTimeout;
        this.client = b.readTimeout != null ? b.client.responseTimeout(b.readTimeout) : b.client;
        this.provider = b.provider;
        this.headers = List.copyOf(b.headers);
        this.authHeader = b.authHeader;
        this.authPrefix = b.authPrefix;
        this.apiKey = b.apiKey;
        this.signer = b.signer;
        this.secrets = new Secrets(b.apiKey);
        this.errorParser = b.errorParser;
        this.maxBodyBytes = b.maxBodyBytes;
        this.clock = b.clock;
    }

    /**
     * Starts configuring an exchange.
     *
     * @param client the Reactor Netty client (timeouts, proxy, TLS and pool are configured on it)
     * @param provider the provider name used in error messages, e.g. {@code deepseek}
     * @return a builder
     */
    public static Builder builder(HttpClient client, String provider) {
        return new Builder(client, provider);
    }

    /**
     * Posts a JSON body and streams the response body.
     *
     * <p><b>Buffers are valid only during {@code onNext}</b>: Reactor Netty releases each one as
     * soon as {@code onNext} returns. Consume (copy or decode) it synchronously; do not retain it
     * or hand it to another thread ({@code publishOn}) before decoding.
     *
     * @param uri the endpoint
     * @param jsonBody the request body (UTF-8 JSON); not copied, do not modify it
     * @param mediaType the content type the stream must have, e.g. {@code text/event-stream}
     *     (parameters such as {@code charset} are ignored when comparing)
     * @return a cold flux of body buffers; errors as described on the class
     */
    public Flux<ByteBuf> stream(URI uri, byte[] jsonBody, String mediaType) {
        return stream(uri, jsonBody, mediaType, List.of(mediaType));
    }

    /**
     * Posts a JSON body and streams the response body, which may have any of several content types
     * (a framing that tells them apart by content, such as SSE or a streamed JSON array).
     *
     * <p>As {@link #stream(URI, byte[], String)}, buffers are valid only during {@code onNext}.
     *
     * @param uri the endpoint
     * @param jsonBody the request body (UTF-8 JSON); not copied, do not modify it
     * @param mediaType the content type asked for in {@code Accept}, e.g. {@code text/event-stream}
     * @param accepted the content types the response may have (parameters ignored); a 2xx response
     *     of another type fails as described on the class
     * @return a cold flux of body buffers; errors as described on the class
     * @since 0.1
     */
    public Flux<ByteBuf> stream(URI uri, byte[] jsonBody, String mediaType, List<String> accepted) {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(jsonBody, "jsonBody");
        Objects.requireNonNull(mediaType, "mediaType");
        List<String> expected = accepted.stream().map(HttpExchange::baseType).toList();
        if (expected.isEmpty()) {
            throw new IllegalArgumentException("no accepted media type");
        }
        return streamed("POST", uri, jsonBody, mediaType, expected);
    }

    /**
     * Gets a streamed response body: the same as {@link #stream(URI, byte[], String, List)} but a
     * {@code GET} without a body, for an API that serves a stored stream again (OpenAI Responses'
     * {@code GET /responses/{id}?stream=true&starting_after=…}). The query is sent as given and never
     * shown in errors.
     *
     * <p>As {@link #stream(URI, byte[], String)}, buffers are valid only during {@code onNext}.
     *
     * @param uri the resource, query included
     * @param mediaType the content type asked for in {@code Accept}
     * @param accepted the content types the response may have (parameters ignored)
     * @return a cold flux of body buffers; errors as described on the class
     * @since 0.4
     */
    public Flux<ByteBuf> streamGet(URI uri, String mediaType, List<String> accepted) {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(mediaType, "mediaType");
        List<String> expected = accepted.stream().map(HttpExchange::baseType).toList();
        if (expected.isEmpty()) {
            throw new IllegalArgumentException("no accepted media type");
        }
        return streamed("GET", uri, new byte[0], mediaType, expected);
    }

    private Flux<ByteBuf> streamed(String method, URI uri, byte[] body, String mediaType, List<String> expected) {
        return signed(method, uri, body, mediaType)
                .flatMapMany(signed -> {
                    List<ApiKey> sent = secrets.remember(signed);
                    return request(method, uri, body, mediaType, signed)
                            .response((res, content) -> streamBody(res, content, expected, sent))
                            .onErrorMap(e -> !(e instanceof RuminateException), e -> failure(method, uri, e, sent));
                })
                .onErrorMap(e -> !(e instanceof RuminateException), e -> failure(method, uri, e, List.of()));
    }

    /**
     * Posts a JSON body and reads the whole JSON response.
     *
     * @param uri the endpoint
     * @param jsonBody the request body (UTF-8 JSON); not copied, do not modify it
     * @return a cold mono of the response body; a body larger than the configured limit fails
     *     with {@link ProtocolException} {@code LINE_TOO_LONG}
     */
    public Mono<byte[]> post(URI uri, byte[] jsonBody) {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(jsonBody, "jsonBody");
        return signed("POST", uri, jsonBody, JSON)
                .flatMap(signed -> {
                    List<ApiKey> sent = secrets.remember(signed);
                    return request("POST", uri, jsonBody, JSON, signed)
                            .response((res, content) -> wholeBody(res, content, sent))
                            .next()
                            .onErrorMap(e -> !(e instanceof RuminateException), e -> failure("POST", uri, e, sent));
                })
                .onErrorMap(e -> !(e instanceof RuminateException), e -> failure("POST", uri, e, List.of()));
    }

    /** Asks the signer for the request's extra headers; none without a signer. */
    private Mono<List<Map.Entry<String, String>>> signed(String method, URI uri, byte[] body, String accept) {
        if (signer == null) {
            return Mono.just(List.of());
        }
        List<Map.Entry<String, String>> sent = new ArrayList<>(3 + headers.size());
        sent.add(Map.entry("Host", hostHeader(uri)));
        if (method.equals("POST")) {
            sent.add(Map.entry("Content-Type", JSON));
        }
        sent.add(Map.entry("Accept", accept));
        for (String[] header : headers) {
            sent.add(Map.entry(header[0], header[1]));
        }
        return Mono.defer(() -> signer.sign(method, uri, List.copyOf(sent), body)).defaultIfEmpty(List.of());
    }

    /** The {@code Host} value Reactor Netty would send, set explicitly when signed so that both agree. */
    static String hostHeader(URI uri) {
        int port = uri.getPort();
        boolean defaultPort = port < 0 || ("https".equalsIgnoreCase(uri.getScheme()) ? port == 443 : port == 80);
        return defaultPort ? uri.getHost() : uri.getHost() + ":" + port;
    }

    private HttpClient.ResponseReceiver<?> request(String method, URI uri, byte[] body, String accept,
                                                   List<Map.Entry<String, String>> signed) {
        boolean post = method.equals("POST");
        return client.request(post ? HttpMethod.POST : HttpMethod.GET).uri(uri).send((req, out) -> {
            if (signer != null) {
                req.header(HttpHeaderNames.HOST, hostHeader(uri));
            }
            if (post) {
                req.header(HttpHeaderNames.CONTENT_TYPE, JSON);
                req.header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.length));
            }
            req.header(HttpHeaderNames.ACCEPT, accept);
            for (String[] header : headers) {
                req.header(header[0], header[1]);
            }
            if (apiKey != null && authHeader != null) {
                req.header(authHeader, authPrefix + apiKey.reveal());
            }
            for (Map.Entry<String, String> header : signed) {
                req.header(header.getKey(), header.getValue());
            }
            return post ? out.sendByteArray(Mono.just(body)) : out;
        });
    }

    private Flux<ByteBuf> streamBody(HttpClientResponse res, ByteBufFlux content, List<String> expected,
                                     List<ApiKey> sent) {
        int status = res.status().code();
        if (status / 100 != 2) {
            return this.<ByteBuf>statusError(res, content, sent).flux();
        }
        String contentType = res.responseHeaders().get(HttpHeaderNames.CONTENT_TYPE);
        if (contentType != null && !expected.contains(baseType(contentType))) {
            return this.<ByteBuf>contentTypeError(res, content, contentType, String.join(" or ", expected), sent).flux();
        }
        return content.onErrorMap(ReadTimeoutException.class, e -> timeout(StreamTimeoutException.Phase.IDLE))
                .onErrorMap(IOException.class, HttpExchange::incomplete);
    }

    private Mono<byte[]> wholeBody(HttpClientResponse res, ByteBufFlux content, List<ApiKey> sent) {
        int status = res.status().code();
        if (status / 100 != 2) {
            return statusError(res, content, sent);
        }
        String contentType = res.responseHeaders().get(HttpHeaderNames.CONTENT_TYPE);
        if (contentType != null && !isJson(baseType(contentType))) {
            return contentTypeError(res, content, contentType, JSON, sent);
        }
        return Mono.defer(() -> {
            BoundedBody body = new BoundedBody(maxBodyBytes);
            return content.doOnNext(body::append)
                    .takeUntil(b -> body.overflowed())
                    .onErrorMap(ReadTimeoutException.class, e -> timeout(StreamTimeoutException.Phase.IDLE))
                    .onErrorMap(IOException.class, HttpExchange::incomplete)
                    .then(Mono.defer(() -> body.overflowed()
                            ? Mono.error(new ProtocolException(ProtocolException.Reason.LINE_TOO_LONG,
                                    "response body exceeds " + maxBodyBytes + " bytes", -1, -1, null))
                            : Mono.just(body.toByteArray())));
        });
    }

    private <T> Mono<T> statusError(HttpClientResponse res, ByteBufFlux content, List<ApiKey> sent) {
        return readBounded(content).flatMap(bytes -> Mono.error(httpError(res, res.status().code(), bytes, sent)));
    }

    private <T> Mono<T> contentTypeError(HttpClientResponse res, ByteBufFlux content, String contentType,
                                         String expected, List<ApiKey> sent) {
        return readBounded(content).flatMap(bytes -> {
            if (isJson(baseType(contentType))) {
                ProviderError error = parseError(bytes, sent);
                if (!error.equals(ProviderError.UNKNOWN)) {
                    return Mono.error(new ProviderHttpException(provider, res.status().code(), error,
                            requestId(res.responseHeaders()), RetryAfter.from(res.responseHeaders(), clock),
                            excerpt(bytes, sent)));
                }
            }
            return Mono.error(new ProtocolException(ProtocolException.Reason.UNEXPECTED_CONTENT_TYPE,
                    "expected " + expected + " but the response is " + contentType + ": "
                            + Excerpts.oneLine(excerpt(bytes, sent), MESSAGE_EXCERPT_CHARS), -1, -1, null));
        });
    }

    private static Mono<byte[]> readBounded(ByteBufFlux content) {
        return Mono.defer(() -> {
            BoundedBody body = new BoundedBody(ERROR_BODY_LIMIT);
            // a connection lost while reading an error body must not hide the status: keep what arrived
            return content.doOnNext(body::append)
                    .takeUntil(b -> body.full())
                    .onErrorResume(IOException.class, e -> Flux.empty())
                    .then(Mono.fromCallable(body::toByteArray));
        });
    }

    private RuminateException httpError(HttpClientResponse res, int status, byte[] body, List<ApiKey> sent) {
        HttpHeaders h = res.responseHeaders();
        ProviderError error = parseError(body, sent);
        String excerpt = excerpt(body, sent);
        String requestId = requestId(h);
        if (status == 401 || status == 403) {
            return new AuthenticationException(provider, status, error, requestId, excerpt);
        }
        Duration retryAfter = RetryAfter.from(h, clock);
        if (status == 429) {
            Duration wait = retryAfter != null ? retryAfter : RetryAfter.fromResetHeaders(h, clock);
            return new RateLimitException(provider, error, requestId, wait, excerpt);
        }
        return new ProviderHttpException(provider, status, error, requestId, retryAfter, excerpt);
    }

    private ProviderError parseError(byte[] body, List<ApiKey> sent) {
        ProviderError error;
        try {
            error = errorParser.parse(body);
        } catch (RuntimeException e) {
            // A parser must not throw (see its contract); a broken one must not hide the HTTP error.
            error = ProviderError.UNKNOWN;
        }
        return secrets.redact(error, sent);
    }

    private String excerpt(byte[] body, List<ApiKey> sent) {
        // redacted before it is cut: a cut inside an echoed secret would leave the start of it
        String redacted = Objects.requireNonNullElse(secrets.redact(Excerpts.text(body, body.length), sent), "");
        return Excerpts.text(redacted.getBytes(StandardCharsets.UTF_8), EXCERPT_BYTES);
    }

    /**
     * Removes the exchange's secrets (the API key, and the secrets a signer put in
     * {@linkplain RequestSigner#secretHeader secret headers} of recent requests) from an error raised
     * after the response was handed over (by a decoder quoting the body, when a provider echoes a
     * credential in an in-stream error): use it as {@code flux.onErrorMap(exchange::redact)} on the
     * decoded events.
     *
     * @param error the error
     * @return the same error when it contains no secret, else an equivalent one without it
     */
    public Throwable redact(Throwable error) {
        if (!(error instanceof RuminateException) || !secrets.appearIn(error.getMessage(), List.of())) {
            return error;
        }
        if (error instanceof ProviderStreamException e) {
            return new ProviderStreamException(e.provider(), secrets.redact(e.error(), List.of()));
        }
        if (error instanceof ProtocolException e) {
            return new ProtocolException(e.reason(), Objects.requireNonNullElse(secrets.redact(e.detail(), List.of()), ""),
                    e.line(), e.byteOffset(), null);
        }
        return error;
    }

    private static @Nullable String requestId(HttpHeaders h) {
        String id = h.get("x-request-id");
        if (id == null) {
            id = h.get("request-id");
        }
        return id != null ? id : h.get("x-amzn-requestid");
    }

    private static RuminateException incomplete(Throwable e) {
        return new IncompleteStreamException("the connection closed while the response body was being read ("
                + e.getMessage() + ")", e);
    }

    /** A failure before the response arrived: a read timeout here means no first byte in time. */
    RuminateException failure(String method, URI uri, Throwable e, List<ApiKey> sent) {
        if (e instanceof ReadTimeoutException) {
            return timeout(StreamTimeoutException.Phase.FIRST_EVENT);
        }
        if (e instanceof ConnectTimeoutException) {
            // the limit is the client's own CONNECT_TIMEOUT_MILLIS (Netty's default when unset)
            Object millis = client.configuration().options().get(ChannelOption.CONNECT_TIMEOUT_MILLIS);
            Duration limit = Duration.ofMillis(millis instanceof Integer m ? m : DEFAULT_CONNECT_TIMEOUT_MILLIS);
            return new StreamTimeoutException(StreamTimeoutException.Phase.CONNECT, limit);
        }
        return transportError(method, uri, e, sent);
    }

    private RuminateException timeout(StreamTimeoutException.Phase phase) {
        return new StreamTimeoutException(phase, Objects.requireNonNull(readTimeout, "readTimeout"));
    }

    private RuminateException transportError(String method, URI uri, Throwable e, List<ApiKey> sent) {
        String detail = method + " " + safe(uri) + " failed: " + (poolExhausted(e)
                ? "the client's connection pool to " + uri.getHost() + " is exhausted (all its connections are in use"
                        + " and no more requests may wait for one, or the wait timed out); raise the pool's limits"
                        + " (ruminate.providers.<name>.connections.max, pending-max and pending-timeout, or the"
                        + " ConnectionProvider given to the builder's httpClient): "
                : "") + e;
        if (!secrets.appearIn(detail, sent)) {
            return new TransportException(detail, e);
        }
        // The cause would print the secret with any stack trace: a stand-in with the redacted text and
        // the original stack trace takes its place.
        Exception standIn = new Exception(secrets.redact(e.toString(), sent));
        standIn.setStackTrace(e.getStackTrace());
        return new TransportException(Objects.requireNonNull(secrets.redact(detail, sent)), standIn);
    }

    /**
     * True for Reactor Netty's refusals to lend a connection: its pool's {@code PoolAcquireTimeoutException}
     * and {@code PoolAcquirePendingLimitException}, matched by name because Reactor Netty shades them
     * into an internal package.
     */
    static boolean poolExhausted(Throwable e) {
        String name = e.getClass().getSimpleName();
        return name.equals("PoolAcquireTimeoutException") || name.equals("PoolAcquirePendingLimitException");
    }

    /** Drops user info and query (which may hold credentials) from a URI shown in a message. */
    static String safe(URI uri) {
        StringBuilder sb = new StringBuilder();
        if (uri.getScheme() != null) {
            sb.append(uri.getScheme()).append("://");
        }
        if (uri.getHost() != null) {
            sb.append(uri.getHost());
        }
        if (uri.getPort() >= 0) {
            sb.append(':').append(uri.getPort());
        }
        if (uri.getRawPath() != null) {
            sb.append(uri.getRawPath());
        }
        return sb.toString();
    }

    /** Returns the media type without parameters, lower-cased: {@code text/event-stream}. */
    static String baseType(String contentType) {
        int semicolon = contentType.indexOf(';');
        String base = semicolon >= 0 ? contentType.substring(0, semicolon) : contentType;
        return base.strip().toLowerCase(Locale.ROOT);
    }

    private static boolean isJson(String baseType) {
        return baseType.equals(JSON) || baseType.endsWith("+json");
    }

    /**
     * Describes the exchange without its key.
     *
     * @return the provider and authentication header name
     */
    @Override
    public String toString() {
        return "HttpExchange[provider=" + provider + ", auth=" + (apiKey == null ? "none" : authHeader + " (redacted)")
                + "]";
    }

    /**
     * Configures an {@link HttpExchange}. Not thread-safe; {@link #build()} returns an independent
     * immutable exchange.
     *
     * @since 0.1
     */
    public static final class Builder {
        private @Nullable Duration readTimeout;
        private final HttpClient client;
        private final String provider;
        private final List<String[]> headers = new ArrayList<>();
        private @Nullable String authHeader;
        private String authPrefix = "";
        private @Nullable ApiKey apiKey;
        private @Nullable RequestSigner signer;
        private ErrorBodyParser errorParser = ErrorBodyParser.standard();
        private int maxBodyBytes = 16 << 20;
        private Clock clock = Clock.systemUTC();

        private Builder(HttpClient client, String provider) {
            this.client = Objects.requireNonNull(client, "client");
            this.provider = Objects.requireNonNull(provider, "provider");
        }

        /**
         * Sends a key in a header, e.g. {@code ("Authorization", "Bearer ", key)} or
         * {@code ("api-key", "", key)}.
         *
         * @param headerName the header
         * @param valuePrefix what precedes the key in the header value, possibly empty
         * @param key the key
         * @return this builder
         */
        public Builder auth(String headerName, String valuePrefix, ApiKey key) {
            this.authHeader = requireHeaderText(headerName, "headerName");
            this.authPrefix = requireHeaderText(valuePrefix, "valuePrefix");
            this.apiKey = Objects.requireNonNull(key, "key");
            return this;
        }

        /**
         * Sets a signer that adds headers computed per request (an AWS Signature Version 4, a
         * token fetched or refreshed per call). Its headers are sent after all others; those it
         * makes with {@link RequestSigner#secretHeader} have their secret kept out of every error.
         *
         * @param requestSigner the signer
         * @return this builder
         */
        public Builder signer(RequestSigner requestSigner) {
            this.signer = Objects.requireNonNull(requestSigner, "requestSigner");
            return this;
        }

        /**
         * Adds a header sent with every request (not for secrets: use {@link #auth}).
         *
         * @param name the header name
         * @param value the value
         * @return this builder
         * @throws IllegalArgumentException if the name or value contains a line break
         */
        public Builder header(String name, String value) {
            headers.add(new String[] {requireHeaderText(name, "name"), requireHeaderText(value, "value")});
            return this;
        }

        /**
         * Sets how error bodies are parsed; {@link ErrorBodyParser#standard()} by default.
         *
         * @param parser the parser
         * @return this builder
         */
        public Builder errorParser(ErrorBodyParser parser) {
            this.errorParser = Objects.requireNonNull(parser, "parser");
            return this;
        }

        /**
         * Sets the largest whole body {@link HttpExchange#post} accepts; 16 MiB by default.
         *
         * @param bytes the limit
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder maxBodyBytes(int bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("maxBodyBytes must be > 0, was " + bytes);
            }
            this.maxBodyBytes = bytes;
            return this;
        }

        Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Sets the longest silence accepted while waiting for the response and between two reads of
         * its body (Reactor Netty's {@code responseTimeout}); when it passes, the call fails with
         * {@link StreamTimeoutException} ({@code FIRST_EVENT} before the response arrived,
         * {@code IDLE} after) and the connection is closed. Unset: no limit.
         *
         * @param timeout the limit, positive
         * @return this builder
         * @throws IllegalArgumentException if the limit is not positive
         */
        public Builder readTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("readTimeout must be positive, was " + timeout);
            }
            this.readTimeout = timeout;
            return this;
        }

        /**
         * Builds the exchange.
         *
         * @return the immutable exchange
         */
        public HttpExchange build() {
            return new HttpExchange(this);
        }

        /** Refuses a line break, which would let a value inject a second header; shared with {@link SecretHeader}. */
        static String requireHeaderText(String text, String what) {
            Objects.requireNonNull(text, what);
            if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
                throw new IllegalArgumentException(what + " must not contain line breaks");
            }
            return text;
        }
    }
}
