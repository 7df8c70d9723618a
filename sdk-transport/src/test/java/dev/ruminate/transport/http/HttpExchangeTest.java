package dev.ruminate.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.AuthenticationException;
import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.RateLimitException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.StreamTimeoutException;
import dev.ruminate.core.error.TransportException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.test.StepVerifier;

/** Exercises {@link HttpExchange} against a real Reactor Netty server on a loopback port. */
class HttpExchangeTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String KEY = "sk-test-5f3a9c2e71d04b8f";
    private static final String SSE = "text/event-stream";

    private static final AtomicReference<BiFunction<HttpServerRequest, HttpServerResponse, Publisher<Void>>> HANDLER =
            new AtomicReference<>();
    private static DisposableServer server;

    @BeforeAll
    static void startServer() {
        server = HttpServer.create().host("127.0.0.1").port(0)
                .handle((req, res) -> HANDLER.get().apply(req, res))
                .bindNow();
    }

    @AfterAll
    static void stopServer() {
        server.disposeNow();
    }

    private static URI uri() {
        return URI.create("http://127.0.0.1:" + server.port() + "/v1/chat/completions");
    }

    private static HttpExchange exchange() {
        return HttpExchange.builder(HttpClient.create(), "acme")
                .auth("Authorization", "Bearer ", ApiKey.of(KEY))
                .header("X-Title", "ruminate-tests")
                .build();
    }

    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String utf8(ByteBuf buf) {
        return buf.toString(StandardCharsets.UTF_8);
    }

    private static void respond(int status, String contentType, String body, String... headerPairs) {
        HANDLER.set((req, res) -> {
            res.status(status);
            if (contentType != null) {
                res.header(HttpHeaderNames.CONTENT_TYPE, contentType);
            }
            for (int i = 0; i < headerPairs.length; i += 2) {
                res.header(headerPairs[i], headerPairs[i + 1]);
            }
            return res.sendString(Mono.just(body));
        });
    }

    private static Throwable streamError() {
        AtomicReference<Throwable> error = new AtomicReference<>();
        StepVerifier.create(exchange().stream(uri(), json("{}"), SSE).map(HttpExchangeTest::utf8))
                .expectErrorSatisfies(error::set)
                .verify(WAIT);
        return error.get();
    }

    @Test
    void sendsTheBodyWithJsonAuthAndConfiguredHeaders() {
        Sinks.One<HttpHeaders> headers = Sinks.one();
        Sinks.One<String> body = Sinks.one();
        HANDLER.set((req, res) -> req.receive().aggregate().asString().flatMap(text -> {
            headers.tryEmitValue(req.requestHeaders());
            body.tryEmitValue(text);
            return res.header(HttpHeaderNames.CONTENT_TYPE, SSE).sendString(Mono.just("data: ok\n\n")).then();
        }));

        StepVerifier.create(exchange().stream(uri(), json("{\"model\":\"m\"}"), SSE).map(HttpExchangeTest::utf8))
                .expectNext("data: ok\n\n")
                .verifyComplete();

        HttpHeaders sent = headers.asMono().block(WAIT);
        assertThat(sent.get("Authorization")).isEqualTo("Bearer " + KEY);
        assertThat(sent.get("Content-Type")).isEqualTo("application/json");
        assertThat(sent.get("Accept")).isEqualTo(SSE);
        assertThat(sent.get("X-Title")).isEqualTo("ruminate-tests");
        assertThat(body.asMono().block(WAIT)).isEqualTo("{\"model\":\"m\"}");
    }

    @Test
    void aSignerSeesTheHeadersAndBodyAsSentAndItsHeadersAreAddedPerRequest() {
        List<HttpHeaders> received = new CopyOnWriteArrayList<>();
        HANDLER.set((req, res) -> req.receive().aggregate().asString().flatMap(text -> {
            received.add(req.requestHeaders());
            return res.header(HttpHeaderNames.CONTENT_TYPE, "application/json").sendString(Mono.just("{}")).then();
        }));
        List<List<Map.Entry<String, String>>> seen = new CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        RequestSigner signer = (method, uri, headers, body) -> {
            seen.add(headers);
            String digest = method + " " + uri.getPath() + " " + new String(body, StandardCharsets.UTF_8);
            return Mono.just(List.of(Map.entry("X-Signature", digest), Map.entry("X-Token", "t" + calls.incrementAndGet())));
        };
        HttpExchange signed = HttpExchange.builder(HttpClient.create(), "aws").header("X-Title", "t").signer(signer).build();

        signed.post(uri(), json("{\"a\":1}")).block(WAIT);
        signed.post(uri(), json("{\"a\":2}")).block(WAIT);

        assertThat(seen.get(0)).containsExactly(Map.entry("Host", "127.0.0.1:" + server.port()),
                Map.entry("Content-Type", "application/json"), Map.entry("Accept", "application/json"),
                Map.entry("X-Title", "t"));
        assertThat(received).hasSize(2);
        assertThat(received.get(0).get("Host")).isEqualTo("127.0.0.1:" + server.port());
        assertThat(received.get(0).get("X-Signature")).isEqualTo("POST /v1/chat/completions {\"a\":1}");
        assertThat(received.get(0).get("X-Token")).isEqualTo("t1");
        assertThat(received.get(1).get("X-Signature")).isEqualTo("POST /v1/chat/completions {\"a\":2}");
        assertThat(received.get(1).get("X-Token")).isEqualTo("t2");
    }

    @Test
    void aFailingSignerFailsTheCallTypedWithoutSendingIt() {
        AtomicInteger requests = new AtomicInteger();
        HANDLER.set((req, res) -> {
            requests.incrementAndGet();
            return res.sendString(Mono.just("{}"));
        });
        HttpExchange expired = HttpExchange.builder(HttpClient.create(), "aws")
                .signer((method, uri, headers, body) -> Mono.error(new IllegalStateException("credentials expired")))
                .build();
        HttpExchange typed = HttpExchange.builder(HttpClient.create(), "aws")
                .signer((method, uri, headers, body) -> Mono.error(
                        new AuthenticationException("aws", 401, ProviderError.UNKNOWN, null, "no credentials")))
                .build();

        StepVerifier.create(expired.stream(uri(), json("{}"), SSE))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(TransportException.class)
                        .hasMessageContaining("credentials expired"))
                .verify(WAIT);
        StepVerifier.create(typed.post(uri(), json("{}"))).expectError(AuthenticationException.class).verify(WAIT);
        assertThat(requests).hasValue(0);
    }

    @Test
    void azureStyleKeyHeaderHasNoPrefix() {
        Sinks.One<String> apiKeyHeader = Sinks.one();
        HANDLER.set((req, res) -> {
            apiKeyHeader.tryEmitValue(String.valueOf(req.requestHeaders().get("api-key")));
            return res.header(HttpHeaderNames.CONTENT_TYPE, "application/json").sendString(Mono.just("{}"));
        });
        HttpExchange azure = HttpExchange.builder(HttpClient.create(), "azure")
                .auth("api-key", "", ApiKey.of(KEY)).build();

        StepVerifier.create(azure.post(uri(), json("{}")).map(String::new)).expectNext("{}").verifyComplete();
        assertThat(apiKeyHeader.asMono().block(WAIT)).isEqualTo(KEY);
    }

    @Test
    void toleratesMediaTypeParametersAndCase() {
        respond(200, "Text/Event-Stream; charset=utf-8", "data: a\n\ndata: b\n\n");
        StepVerifier.create(exchange().stream(uri(), json("{}"), SSE).map(HttpExchangeTest::utf8).reduce(String::concat))
                .expectNext("data: a\n\ndata: b\n\n")
                .verifyComplete();
    }

    @Test
    void badRequestIsAProviderHttpExceptionWithTheParsedErrorAndRequestId() {
        respond(400, "application/json",
                "{\"error\":{\"message\":\"Unknown parameter\",\"type\":\"invalid_request_error\","
                        + "\"param\":\"reasoning_content\",\"code\":\"unknown_parameter\"}}",
                "x-request-id", "req_123");

        Throwable error = streamError();

        assertThat(error).isExactlyInstanceOf(ProviderHttpException.class);
        ProviderHttpException http = (ProviderHttpException) error;
        assertThat(http.status()).isEqualTo(400);
        assertThat(http.requestId()).isEqualTo("req_123");
        assertThat(http.error().type()).isEqualTo("invalid_request_error");
        assertThat(http.error().code()).isEqualTo("unknown_parameter");
        assertThat(http.error().message()).isEqualTo("Unknown parameter");
        assertThat(http.error().param()).isEqualTo("reasoning_content");
        assertThat(http.isRetryable()).isFalse();
        assertThat(http.getMessage()).contains("acme", "400", "Unknown parameter", "req_123");
    }

    @ParameterizedTest
    @ValueSource(ints = {401, 403})
    void authenticationFailures(int status) {
        respond(status, "application/json", "{\"error\":{\"message\":\"Invalid API key\",\"type\":\"auth\"}}",
                "request-id", "r-9");

        Throwable error = streamError();

        assertThat(error).isInstanceOf(AuthenticationException.class);
        AuthenticationException auth = (AuthenticationException) error;
        assertThat(auth.status()).isEqualTo(status);
        assertThat(auth.requestId()).isEqualTo("r-9");
        assertThat(auth.error().message()).isEqualTo("Invalid API key");
    }

    @Test
    void rateLimitWithDeltaSeconds() {
        respond(429, "application/json", "{\"error\":{\"message\":\"slow down\",\"type\":\"rate_limit_exceeded\"}}",
                "Retry-After", "7");

        Throwable error = streamError();

        assertThat(error).isInstanceOf(RateLimitException.class);
        RateLimitException rate = (RateLimitException) error;
        assertThat(rate.retryAfter()).isEqualTo(Duration.ofSeconds(7));
        assertThat(rate.isRetryable()).isTrue();
        assertThat(rate.error().type()).isEqualTo("rate_limit_exceeded");
    }

    @Test
    void rateLimitWithoutRetryAfterFallsBackToTheResetHeaders() {
        respond(429, "application/json", "{\"error\":{\"message\":\"Rate limit reached\"}}",
                "x-ratelimit-reset-requests", "2s", "x-ratelimit-reset-tokens", "1m30s");
        Throwable error = streamError();
        assertThat(error).isInstanceOf(RateLimitException.class);
        assertThat(((RateLimitException) error).retryAfter()).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void aConnectTimeoutIsItsOwnTypedPhaseWithTheClientsLimit() {
        HttpExchange exchange = HttpExchange.builder(HttpClient.create()
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 1500), "acme").build();

        RuminateException e = exchange.failure("POST", uri(),
                new ConnectTimeoutException("connection timed out: /10.0.0.1:443"), List.of());

        assertThat(e).isInstanceOf(StreamTimeoutException.class);
        assertThat(((StreamTimeoutException) e).phase()).isEqualTo(StreamTimeoutException.Phase.CONNECT);
        assertThat(((StreamTimeoutException) e).limit()).isEqualTo(Duration.ofMillis(1500));
        assertThat(e.isRetryable()).isTrue();
    }

    @Test
    void aTransportFailureNamesTheMethodThatFailed() {
        HttpExchange exchange = HttpExchange.builder(HttpClient.create(), "acme").build();

        RuminateException get = exchange.failure("GET", uri(), new java.io.IOException("reset"), List.of());
        RuminateException post = exchange.failure("POST", uri(), new java.io.IOException("reset"), List.of());

        assertThat(get).isInstanceOf(TransportException.class);
        assertThat(get.getMessage()).startsWith("GET ").doesNotContain("POST");
        assertThat(post.getMessage()).startsWith("POST ");
    }

    @Test
    void rateLimitWithHttpDate() {
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(120));
        respond(429, "application/json", "{\"error\":\"too many requests\"}", "Retry-After", date);

        RateLimitException rate = (RateLimitException) streamError();

        // The date has second precision and time passes between formatting and parsing.
        assertThat(rate.retryAfter()).isBetween(Duration.ofSeconds(100), Duration.ofSeconds(121));
        assertThat(rate.error().message()).isEqualTo("too many requests");
    }

    @Test
    void serverErrorIsRetryableAndKeepsRetryAfter() {
        respond(503, "application/json", "{\"message\":\"overloaded\",\"type\":\"server_error\",\"code\":503}",
                "Retry-After", "2");

        ProviderHttpException http = (ProviderHttpException) streamError();

        assertThat(http.status()).isEqualTo(503);
        assertThat(http.isRetryable()).isTrue();
        assertThat(http.retryAfter()).isEqualTo(Duration.ofSeconds(2));
        assertThat(http.error().code()).isEqualTo("503");
        assertThat(http.error().message()).isEqualTo("overloaded");
    }

    @Test
    void htmlErrorPageBecomesAnErrorWithThePageTitle() {
        String page = "<html>\n<head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1>"
                + "</center><hr><center>cloudflare</center></body>\n</html>\n";
        respond(502, "text/html", page);

        ProviderHttpException http = (ProviderHttpException) streamError();

        assertThat(http.status()).isEqualTo(502);
        assertThat(http.error().message()).isEqualTo("502 Bad Gateway");
        assertThat(http.bodyExcerpt()).startsWith("<html>");
    }

    @Test
    void wrongContentTypeOnSuccessIsAProtocolErrorWithAnExcerpt() {
        respond(200, "text/html; charset=utf-8", "<html><body>Please log in to the captive portal</body></html>");

        Throwable error = streamError();

        assertThat(error).isInstanceOf(ProtocolException.class);
        ProtocolException protocol = (ProtocolException) error;
        assertThat(protocol.reason()).isEqualTo(ProtocolException.Reason.UNEXPECTED_CONTENT_TYPE);
        assertThat(protocol.getMessage()).contains("text/event-stream", "text/html", "captive portal");
    }

    @Test
    void jsonErrorObjectAnsweringAStreamingCallIsAProviderError() {
        respond(200, "application/json", "{\"error\":{\"message\":\"model not found\",\"type\":\"invalid_request_error\"}}");

        Throwable error = streamError();

        assertThat(error).isExactlyInstanceOf(ProviderHttpException.class);
        assertThat(((ProviderHttpException) error).error().message()).isEqualTo("model not found");
    }

    @Test
    void jsonThatIsNotAnErrorAnsweringAStreamingCallIsAProtocolError() {
        respond(200, "application/json", "{\"id\":\"c1\",\"object\":\"chat.completion\",\"choices\":[]}");

        Throwable error = streamError();

        assertThat(error).isInstanceOf(ProtocolException.class);
        assertThat(((ProtocolException) error).reason()).isEqualTo(ProtocolException.Reason.UNEXPECTED_CONTENT_TYPE);
        assertThat(error.getMessage()).contains("chat.completion");
    }

    @Test
    void theKeyNeverAppearsInErrorsEvenWhenTheProviderEchoesIt() {
        HANDLER.set((req, res) -> res.status(401).header(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .sendString(Mono.just("{\"error\":{\"message\":\"Incorrect API key provided: "
                        + req.requestHeaders().get("Authorization") + "\",\"type\":\"invalid_api_key\",\"param\":\""
                        + KEY + "\"}}")));

        AuthenticationException auth = (AuthenticationException) streamError();

        assertThat(auth.toString()).doesNotContain(KEY);
        assertThat(auth.getMessage()).doesNotContain(KEY).contains("[REDACTED]");
        assertThat(auth.bodyExcerpt()).doesNotContain(KEY);
        assertThat(auth.error().message()).doesNotContain(KEY);
        assertThat(auth.error().param()).doesNotContain(KEY);
        assertThat(exchange().toString()).doesNotContain(KEY);
    }

    @Test
    void anEchoedKeyCutByTheExcerptsLimitLeavesNoStartOfIt() {
        // the key straddles the 4 KiB excerpt limit: a cut before redaction would keep all but its last 4 characters
        String body = "x".repeat(4096 - (KEY.length() - 4)) + KEY + " and more";
        respond(500, "text/plain", body);

        ProviderHttpException e = (ProviderHttpException) streamError();

        assertThat(e.bodyExcerpt()).doesNotContain(KEY.substring(0, KEY.length() - 4)).endsWith("x[REDACTED] and more");
        assertThat(e.bodyExcerpt().getBytes(StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(4096);
        assertThat(e.getMessage()).doesNotContain(KEY.substring(0, 8));
    }

    @Test
    void aSignersSecretHeaderIsSentAndNeverAppearsInErrorsOrItsToString() {
        String token = "ya29.signer-secret-81c4";
        HANDLER.set((req, res) -> res.status(401).header(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .sendString(Mono.just("{\"error\":{\"message\":\"rejected "
                        + req.requestHeaders().get("Authorization") + "\"}}")));
        Map.Entry<String, String> header = RequestSigner.secretHeader("Authorization", "Bearer ", ApiKey.of(token));
        HttpExchange signed = HttpExchange.builder(HttpClient.create(), "vertex")
                .signer((method, uri, headers, body) -> Mono.just(List.of(header)))
                .build();
        AtomicReference<Throwable> error = new AtomicReference<>();

        StepVerifier.create(signed.stream(uri(), json("{}"), SSE)).expectErrorSatisfies(error::set).verify(WAIT);

        AuthenticationException auth = (AuthenticationException) error.get();
        assertThat(auth.getMessage()).contains("rejected Bearer [REDACTED]");
        assertThat(auth.bodyExcerpt() + auth.error()).doesNotContain(token);
        assertThat(header.getValue()).isEqualTo("Bearer " + token);
        assertThat(header.toString()).doesNotContain(token).contains("Authorization");
    }

    @Test
    void aSignerThatFailsQuotingASecretItSignedWithBeforeIsReportedWithoutIt() {
        String token = "ya29.rotated-away-55e0";
        HANDLER.set((req, res) -> res.header(HttpHeaderNames.CONTENT_TYPE, SSE).sendString(Mono.just("data: ok\n\n")));
        AtomicInteger calls = new AtomicInteger();
        HttpExchange signed = HttpExchange.builder(HttpClient.create(), "vertex")
                .signer((method, uri, headers, body) -> calls.incrementAndGet() == 1
                        ? Mono.just(List.of(RequestSigner.secretHeader("Authorization", "Bearer ", ApiKey.of(token))))
                        : Mono.error(new IllegalStateException("refreshing " + token + " failed")))
                .build();
        signed.stream(uri(), json("{}"), SSE).map(HttpExchangeTest::utf8).blockLast(WAIT);
        AtomicReference<Throwable> error = new AtomicReference<>();

        StepVerifier.create(signed.stream(uri(), json("{}"), SSE)).expectErrorSatisfies(error::set).verify(WAIT);

        StringWriter printed = new StringWriter();
        error.get().printStackTrace(new PrintWriter(printed));
        assertThat(error.get()).isInstanceOf(TransportException.class).hasMessageContaining("refreshing [REDACTED] failed");
        assertThat(printed.toString()).doesNotContain(token).contains("IllegalStateException");
    }

    @Test
    void readsAtMost64KibOfAnErrorBody() {
        String huge = "x".repeat(1 << 20);
        respond(500, "text/plain", huge);
        AtomicInteger parsedLength = new AtomicInteger(-1);
        HttpExchange counting = HttpExchange.builder(HttpClient.create(), "acme")
                .errorParser(body -> {
                    parsedLength.set(body.length);
                    return ErrorBodyParser.standard().parse(body);
                })
                .build();

        StepVerifier.create(counting.stream(uri(), json("{}"), SSE))
                .expectError(ProviderHttpException.class)
                .verify(WAIT);

        assertThat(parsedLength.get()).isEqualTo(HttpExchange.ERROR_BODY_LIMIT);
    }

    @Test
    void cancellingTheStreamClosesTheConnection() {
        Sinks.Empty<Void> closed = Sinks.empty();
        HANDLER.set((req, res) -> {
            res.withConnection(c -> c.onDispose(closed::tryEmitEmpty));
            return res.header(HttpHeaderNames.CONTENT_TYPE, SSE)
                    .sendString(Flux.just("data: 1\n\n").concatWith(Flux.never()));
        });

        StepVerifier.create(exchange().stream(uri(), json("{}"), SSE).map(HttpExchangeTest::utf8))
                .expectNext("data: 1\n\n")
                .thenCancel()
                .verify(WAIT);

        StepVerifier.create(closed.asMono()).expectComplete().verify(WAIT);
    }

    @Test
    void connectionClosedMidStreamIsAnIncompleteStream() {
        Sinks.Empty<Void> closeNow = Sinks.empty();
        HANDLER.set((req, res) -> res.header(HttpHeaderNames.CONTENT_TYPE, SSE)
                .sendString(Flux.just("data: 1\n\n").concatWith(closeNow.asMono()
                        .then(Mono.fromRunnable(() -> res.withConnection(c -> c.channel().close())))
                        .thenMany(Flux.never()))));

        StepVerifier.create(exchange().stream(uri(), json("{}"), SSE).map(HttpExchangeTest::utf8))
                .expectNext("data: 1\n\n")
                .then(closeNow::tryEmitEmpty)
                .expectError(IncompleteStreamException.class)
                .verify(WAIT);
    }

    @Test
    void refusedConnectionIsATransportErrorWithoutQueryOrUserInfo() {
        DisposableServer gone = HttpServer.create().host("127.0.0.1").port(0)
                .handle((req, res) -> res.send()).bindNow();
        int port = gone.port();
        gone.disposeNow();
        URI target = URI.create("http://user:secret@127.0.0.1:" + port + "/v1/chat?key=" + KEY);

        AtomicReference<Throwable> error = new AtomicReference<>();
        StepVerifier.create(exchange().stream(target, json("{}"), SSE))
                .expectErrorSatisfies(error::set)
                .verify(WAIT);

        assertThat(error.get()).isInstanceOf(TransportException.class);
        assertThat(error.get().getMessage()).contains("127.0.0.1:" + port + "/v1/chat")
                .doesNotContain(KEY).doesNotContain("secret");
        assertThat(((TransportException) error.get()).isRetryable()).isTrue();
    }

    @Test
    void postReadsTheWholeJsonBody() {
        String body = "{\"id\":\"c1\",\"choices\":[" + "{\"x\":1},".repeat(5000) + "{}]}";
        respond(200, "application/json; charset=utf-8", body);

        StepVerifier.create(exchange().post(uri(), json("{}")).map(b -> new String(b, StandardCharsets.UTF_8)))
                .expectNext(body)
                .verifyComplete();
    }

    @Test
    void postMapsStatusAndContentTypeErrors() {
        respond(500, "application/json", "{\"error\":{\"message\":\"boom\"}}");
        StepVerifier.create(exchange().post(uri(), json("{}")))
                .expectErrorSatisfies(e -> assertThat(e).isExactlyInstanceOf(ProviderHttpException.class)
                        .hasMessageContaining("boom"))
                .verify(WAIT);

        respond(200, "text/html", "<html><title>Login</title></html>");
        StepVerifier.create(exchange().post(uri(), json("{}")))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ProtocolException.class)
                        .hasMessageContaining("application/json"))
                .verify(WAIT);
    }

    @Test
    void postRejectsABodyOverTheLimit() {
        respond(200, "application/json", "{\"pad\":\"" + "y".repeat(10_000) + "\"}");
        HttpExchange small = HttpExchange.builder(HttpClient.create(), "acme").maxBodyBytes(1000).build();

        StepVerifier.create(small.post(uri(), json("{}")))
                .expectErrorSatisfies(e -> assertThat(((ProtocolException) e).reason())
                        .isEqualTo(ProtocolException.Reason.LINE_TOO_LONG))
                .verify(WAIT);
    }

    @Test
    void builderRejectsHeaderInjection() {
        HttpExchange.Builder builder = HttpExchange.builder(HttpClient.create(), "acme");
        assertThatThrownBy(() -> builder.header("X-A", "v\r\nX-B: evil")).isInstanceOf(IllegalArgumentException.class);
    }
}
