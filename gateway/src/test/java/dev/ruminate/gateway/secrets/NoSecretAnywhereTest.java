package dev.ruminate.gateway.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.AuthenticationException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.StreamTimeoutException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.json.EventJson;
import dev.ruminate.core.json.MessageJson;
import dev.ruminate.core.json.ProviderState;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.ApiFamily;
import dev.ruminate.providers.ProviderKind;
import dev.ruminate.providers.ProviderKinds;
import dev.ruminate.providers.ProviderSettings;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.GeminiScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.OllamaScript;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.testkit.ResponsesScript;
import dev.ruminate.transport.http.ApiKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;

/**
 * No secret anywhere (issue 21, part 5): every provider kind (every Chat Completions and Responses
 * profile, Anthropic, Gemini on AI Studio and on Vertex AI with a token supplier, Ollama native, and
 * Bedrock with an access key id, secret access key and session token) runs with its own
 * recognisable fake secrets through a success (streamed and whole) and every failure the emulator can
 * cause: HTTP 400, 401, 403, 429, 500 and an HTML 502 whose bodies echo the secret sent, as some
 * providers do; a 2xx of the wrong content type that echoes it; an in-stream error that echoes it; a
 * malformed stream quoting it; a truncated stream; a connection reset; a read timeout; a refused
 * connection. With DEBUG logging on for the whole JVM, no secret (nor its base64, URL-encoded or
 * JSON-escaped form, nor the SigV4 signing key derived from the AWS secret) may appear in a log line,
 * an exception (message, causes, suppressed, as a log prints it), the wire JSON of events, results and
 * failures (with and without provider state), the {@code toString} of settings, builders, providers,
 * requests, events and results, or a request as the emulator received it, except in the one header
 * that carries it.
 *
 * <p>The gateway's part (its client keys and its state key) is {@link GatewaySecretsTest}.
 */
@ExtendWith(NettyLeakCheck.class)
class NoSecretAnywhereTest {

    private static final Logger LOG = LoggerFactory.getLogger(NoSecretAnywhereTest.class);
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** Short, for the one scenario that waits for it: the stalled stream. */
    private static final Duration READ_TIMEOUT = Duration.ofMillis(250);
    private static final String ACCESS_KEY_ID = "AKIACANARY" + Long.toHexString(System.nanoTime()).toUpperCase(Locale.ROOT);
    /** Headers that legitimately carry a credential: where a secret may be, and only there. */
    private static final List<String> CREDENTIAL_HEADERS =
            List.of("authorization", "x-api-key", "api-key", "x-goog-api-key", "x-amz-security-token");

    private static final Canaries CANARIES = new Canaries();
    private static final String AWS_SECRET =
            CANARIES.register("aws-secret", "wJalrX/SECRET+canary/" + java.util.HexFormat.of().formatHex(Canaries.bytes(10)));
    private static final String AWS_SESSION = CANARIES.mint("aws-session");
    private static final String VERTEX_TOKEN = CANARIES.mint("ya29-vertex");

    private static ProviderEmulator emulator;
    private static CapturedLogs logs;

    @BeforeAll
    static void start() {
        CANARIES.register("aws-access-key-id", ACCESS_KEY_ID);
        // the SigV4 signing keys of the dates a request of this run may be signed on, checked from the first call
        java.time.LocalDate today = java.time.LocalDate.now(java.time.ZoneOffset.UTC);
        for (java.time.LocalDate day : List.of(today.minusDays(1), today, today.plusDays(1))) {
            CANARIES.registerBytes("sigv4-signing-key", signingKey(day.format(java.time.format.DateTimeFormatter.BASIC_ISO_DATE)));
        }
        logs = new CapturedLogs().attach();
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
        logs.stop();
    }

    /** One kind with its own secret: the one it sends, and thus the one a provider could echo. */
    record Case(ProviderKind kind, String sent) {
        @Override
        public String toString() {
            return kind.name();
        }
    }

    static Stream<Case> kinds() {
        return ProviderKinds.all().stream().map(kind -> new Case(kind, switch (kind.credential()) {
            case ACCESS_TOKEN -> VERTEX_TOKEN;
            case AWS_CREDENTIALS -> AWS_SESSION;
            case API_KEY, OPTIONAL_API_KEY -> CANARIES.mint("sk-" + kind.name());
        }));
    }

    private static ProviderSettings settings(Case c, URI baseUrl, @org.jspecify.annotations.Nullable Duration readTimeout) {
        ProviderSettings.Builder b = ProviderSettings.builder().baseUrl(baseUrl).readTimeout(readTimeout);
        switch (c.kind().credential()) {
            case ACCESS_TOKEN -> b.project("canary-project").location("us-central1").accessToken(() -> ApiKey.of(VERTEX_TOKEN));
            case AWS_CREDENTIALS -> b.region("us-east-1").awsCredentials(
                    () -> new AwsCredentials(ACCESS_KEY_ID, ApiKey.of(AWS_SECRET), ApiKey.of(AWS_SESSION)));
            case API_KEY, OPTIONAL_API_KEY -> b.apiKey(ApiKey.of(c.sent()));
        }
        return b.build();
    }

    /** The provider, and the {@code toString} of everything it was built from. */
    private static ChatProvider provider(Case c, URI baseUrl, @org.jspecify.annotations.Nullable Duration readTimeout) {
        ProviderSettings settings = settings(c, baseUrl, readTimeout);
        AtomicReference<String> builder = new AtomicReference<>("");
        ChatProvider provider = c.kind().create(settings, b -> builder.set(b.toString()));
        CANARIES.assertClean(c + " settings", settings.toString());
        CANARIES.assertClean(c + " builder", builder.get());
        CANARIES.assertClean(c + " kind", c.kind().toString());
        CANARIES.assertClean(c + " provider", provider.toString());
        return provider;
    }

    private static ChatRequest request() {
        return ChatRequest.builder("canary-model").system("Be brief.").user("Hi").build();
    }

    /** The family's scripted answer: streamed, or whole. */
    private static EmulatorResponse success(ApiFamily family, boolean streamed) {
        return switch (family) {
            case CHAT_COMPLETIONS -> {
                ChatCompletionsScript s = ChatCompletionsScript.create().content("Hi there").usage(3, 2, 0);
                yield streamed ? s.toResponse() : s.toCompletionResponse();
            }
            case RESPONSES -> {
                ResponsesScript s = ResponsesScript.create().reasoning("rs_1", "enc-blob", "Thinking.").text("Hi there");
                yield streamed ? s.toResponse() : s.toJsonResponse();
            }
            case ANTHROPIC -> {
                AnthropicScript s = AnthropicScript.create().thinking("Thinking.", "sig-1").text("Hi there");
                yield streamed ? s.toResponse() : s.toMessageResponse();
            }
            case GEMINI -> {
                GeminiScript s = GeminiScript.create().thought("Thinking.").text("Hi there", "sig-1");
                yield streamed ? s.toResponse() : s.toJsonResponse();
            }
            case OLLAMA -> {
                OllamaScript s = OllamaScript.create().thinking("Thinking.").content("Hi there");
                yield streamed ? s.toResponse() : s.toJsonResponse();
            }
            case BEDROCK -> {
                BedrockScript s = BedrockScript.create().reasoning("Thinking.", "sig-1").text("Hi there");
                yield streamed ? s.toResponse() : EmulatorResponse.json(200, s.toConverseJson());
            }
        };
    }

    /** A stream that fails in-band with an error whose message quotes the secret. */
    private static EmulatorResponse inStreamError(ApiFamily family, String echoed) {
        String said = "credentials " + echoed + " are not valid";
        return switch (family) {
            case CHAT_COMPLETIONS -> EmulatorResponse.sse("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"so\"}}]}\n\n"
                    + "data: {\"error\":{\"message\":\"" + said + "\",\"type\":\"server_error\",\"code\":\"" + echoed + "\"}}\n\n");
            case RESPONSES -> ResponsesScript.create().text("so far").failed("invalid_api_key", said).toResponse();
            case ANTHROPIC -> AnthropicScript.create().text("so far").error("authentication_error", said).toResponse();
            case GEMINI -> GeminiScript.create().text("so far").finishReason(null).errorAtEnd(401, "UNAUTHENTICATED", said)
                    .toResponse();
            case OLLAMA -> OllamaScript.create().content("so far").error(said).toResponse();
            case BEDROCK -> BedrockScript.create().text("so far").exceptionAtEnd("accessDeniedException", said).toResponse();
        };
    }

    /** A body that breaks the family's framing or JSON where it quotes the secret. */
    private static EmulatorResponse malformed(ApiFamily family, String echoed, boolean streamed) {
        if (!streamed) {
            return EmulatorResponse.json(200, "{\"id\":\"" + echoed + "\",\"oops\":[" + echoed);
        }
        return switch (family) {
            case OLLAMA -> EmulatorResponse.bytes("application/x-ndjson",
                    ("{\"message\":{\"content\":\"" + echoed + "\"},\n").getBytes(StandardCharsets.UTF_8));
            case BEDROCK -> EmulatorResponse.bytes("application/vnd.amazon.eventstream",
                    ("\u0000\u0000\u0000\u0030garbage " + echoed + " garbage").getBytes(StandardCharsets.UTF_8));
            default -> EmulatorResponse.sse("data: {\"id\":\"" + echoed + "\",\"oops\":[" + echoed + "\n\n");
        };
    }

    /** An error body that quotes what was sent, in every common shape, as OpenAI's "Incorrect API key provided: …" does. */
    private static String echoBody(String echoed) {
        String said = "Incorrect API key provided: " + echoed + ". You can find your API key at https://example.com.";
        return "{\"error\":{\"message\":\"" + said + "\",\"type\":\"invalid_request_error\",\"param\":\"" + echoed
                + "\",\"code\":\"" + echoed + "\",\"status\":\"UNAUTHENTICATED\"},\"message\":\"" + said
                + "\",\"type\":\"error\"}";
    }

    /** Every failure the emulator can make; each one is answered twice (streamed, then whole). */
    private static List<Function<Boolean, EmulatorResponse>> failures(ApiFamily family, String echoed) {
        List<Function<Boolean, EmulatorResponse>> all = new ArrayList<>();
        // #0 to #5
        for (int status : new int[] {400, 401, 403, 404, 500, 503}) {
            all.add(streamed -> EmulatorResponse.httpError(status, echoBody(echoed)));
        }
        all.add(streamed -> EmulatorResponse.rateLimited(7, echoBody(echoed)));
        all.add(streamed -> EmulatorResponse.html(502, "<html><head><title>Bad gateway for " + echoed
                + "</title></head><body>" + echoed + "</body></html>"));
        all.add(streamed -> EmulatorResponse.bytes("text/plain", ("denied: " + echoed).getBytes(StandardCharsets.UTF_8)));
        // #9 (ERROR_AS_SUCCESS): an error object in a 2xx answer; whole, without a content type, it goes to the decoder
        all.add(streamed -> EmulatorResponse.json(200, echoBody(echoed)).contentType(streamed ? "application/json" : null));
        all.add(streamed -> malformed(family, echoed, streamed));
        all.add(streamed -> {
            EmulatorResponse ok = success(family, streamed);
            return EmulatorResponse.bytes(String.valueOf(ok.contentType()), Arrays.copyOf(ok.body(), ok.body().length / 2));
        });
        all.add(streamed -> {
            EmulatorResponse ok = success(family, streamed);
            return ok.resetAfter(ok.body().length / 2);
        });
        // #13, #14: the secret where an excerpt is cut (an error body's 4 KiB; a payload's 200 characters), so
        // that all but its last few characters would be shown
        int shown = echoed.length() - Canaries.CUT / 2;
        all.add(streamed -> EmulatorResponse.bytes("text/plain",
                ("x".repeat(4096 - shown) + echoed + " and more").getBytes(StandardCharsets.UTF_8)).status(500));
        all.add(streamed -> {
            String payload = "{\"id\":\"" + "x".repeat(200 - 7 - shown) + echoed + "\",\"oops\":[" + echoed;
            return !streamed ? EmulatorResponse.json(200, payload)
                    : family == ApiFamily.OLLAMA ? EmulatorResponse.bytes("application/x-ndjson",
                            (payload + "\n").getBytes(StandardCharsets.UTF_8))
                    : EmulatorResponse.sse("data: " + payload + "\n\n");
        });
        return all;
    }

    /** The index of the 2xx error object among {@link #failures}. */
    private static final int ERROR_AS_SUCCESS = 9;
    private static final int UNAUTHORIZED = 1;

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void succeedsAndFailsWithoutShowingASecret(Case c) {
        ApiFamily family = c.kind().api();
        ChatProvider provider = provider(c, emulator.baseUrl(), null);
        int first = emulator.requests().size();

        for (boolean streamed : new boolean[] {true, false}) {
            emulator.enqueue(success(family, streamed));
            List<ChatEvent> events = events(provider, streamed);
            ChatResult result = ChatReducer.defaults().reduce(Flux.fromIterable(events)).block(WAIT);
            assertThat(result).isNotNull();
            assertThat(result.message().text()).as(c + " answered").contains("Hi there");
            checkEventsAndResult(c + (streamed ? " stream" : " whole"), events, result);
        }
        List<Function<Boolean, EmulatorResponse>> failures = failures(family, c.sent());
        for (int i = 0; i < failures.size(); i++) {
            for (boolean streamed : new boolean[] {true, false}) {
                String where = c + (streamed ? " stream" : " whole") + " failure #" + i;
                emulator.enqueue(failures.get(i).apply(streamed));
                if (i == ERROR_AS_SUCCESS && !streamed) {
                    // a decoder may read an error object as an (empty) answer; what it makes must be clean
                    checkEitherOutcome(where, provider);
                    continue;
                }
                RuminateException e = call(where, provider, streamed);
                if (i == UNAUTHORIZED) {
                    assertThat(e).as(where).isInstanceOf(AuthenticationException.class);
                    assertThat(e.getMessage()).as(where + ": the echo was there, and redacted").contains("[REDACTED]");
                }
                checkFailure(where, e);
            }
        }
        emulator.enqueue(inStreamError(family, c.sent()));
        checkFailure(c + " in-stream error", call(c + " in-stream error", provider, true));

        List<RecordedRequest> sent = emulator.requests();
        assertThat(sent.size() - first).as("every call reached the emulator").isEqualTo(2 + 2 * failures(family, c.sent()).size() + 1);
        for (RecordedRequest r : sent.subList(first, sent.size())) {
            checkRecorded(c, r);
        }
        checkLogs();
    }

    /** One kind per family, and Vertex: the read timeout is waited for, so not for every profile. */
    static Stream<Case> families() {
        java.util.Set<Object> seen = new java.util.HashSet<>();
        return kinds().filter(c -> seen.add(c.kind().credential() == ProviderKind.Credential.ACCESS_TOKEN ? "vertex"
                : c.kind().api()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void aStalledStreamShowsNoSecret(Case c) {
        ChatProvider slow = provider(c, emulator.baseUrl(), READ_TIMEOUT);
        EmulatorResponse ok = success(c.kind().api(), true);
        emulator.enqueue(ok.stallAfter(ok.body().length / 2));
        RuminateException e = call(c + " stalled", slow, true);
        assertThat(e).isInstanceOf(StreamTimeoutException.class);
        checkFailure(c + " stalled", e);
        checkLogs();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aRefusedConnectionShowsNoSecret(Case c) throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        ChatProvider refused = provider(c, URI.create("http://127.0.0.1:" + closedPort), null);
        checkFailure(c + " refused stream", call(c + " refused stream", refused, true));
        checkFailure(c + " refused whole", call(c + " refused whole", refused, false));
        checkLogs();
    }

    @Test
    void debugLoggingWasOnAndTheCheckFindsEachFormOfASecret() {
        // the check itself can fail: every form of a registered secret is found, and a DEBUG line was captured
        String secret = CANARIES.mint("sk-self-check");
        try {
            LOG.debug("plain {} and {} and {}", secret, java.util.Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8)),
                java.net.URLEncoder.encode(AWS_SECRET, StandardCharsets.UTF_8));
            assertThat(CANARIES.foundIn(logs.text())).contains("sk-self-check", "sk-self-check (base64)", "aws-secret (url-encoded)");
            assertThat(logs.debugLinesFrom(NoSecretAnywhereTest.class.getName())).isPositive();
        } finally {
            // the self-check's own lines hold a secret on purpose; no other check may see them
            logs.clear();
        }
        emulator.enqueue(success(ApiFamily.ANTHROPIC, true));
        events(provider(new Case(ProviderKinds.get("anthropic"), CANARIES.mint("sk-anthropic-debug")), emulator.baseUrl(), null),
                true);
        assertThat(logs.debugLinesFrom("reactor.netty")).as("Reactor Netty logged at DEBUG").isPositive();
        checkLogs();
    }

    private static void checkEitherOutcome(String where, ChatProvider provider) {
        List<ChatEvent> events;
        try {
            events = events(provider, false);
        } catch (RuminateException e) {
            checkFailure(where, e);
            return;
        }
        ChatResult result = ChatReducer.defaults().reduce(Flux.fromIterable(events)).block(WAIT);
        checkEventsAndResult(where, events, Objects.requireNonNull(result));
    }

    private static List<ChatEvent> events(ChatProvider provider, boolean streamed) {
        List<ChatEvent> events = (streamed ? provider.stream(request()) : provider.completeAsEvents(request()))
                .collectList().block(WAIT);
        return events == null ? List.of() : events;
    }

    private static RuminateException call(String where, ChatProvider provider, boolean streamed) {
        List<ChatEvent> events;
        try {
            events = events(provider, streamed);
        } catch (RuminateException e) {
            return e;
        }
        throw new AssertionError(where + ": the call succeeded with " + events.size() + " events");
    }

    private static void checkEventsAndResult(String where, List<ChatEvent> events, ChatResult result) {
        for (ChatEvent e : events) {
            CANARIES.assertClean(where + " event toString", e.toString());
            CANARIES.assertClean(where + " event JSON", EventJson.write(e));
        }
        for (ProviderState state : ProviderState.values()) {
            String frames = String.valueOf(EventJson.toSse(Flux.fromIterable(events), state)
                    .collectList().block(WAIT));
            CANARIES.assertClean(where + " SSE frames " + state, frames);
            CANARIES.assertClean(where + " result JSON " + state, MessageJson.write(result, state));
            CANARIES.assertClean(where + " message JSON " + state, MessageJson.write(result.message(), state));
        }
        CANARIES.assertClean(where + " result toString", result.toString());
        CANARIES.assertClean(where + " request toString", request().toString());
    }

    /** The exception as every consumer sees it: its text, a log line of it, its wire JSON, its parsed parts. */
    private static void checkFailure(String where, RuminateException e) {
        LOG.debug("call failed: {}", where, e);
        LOG.warn("call failed: {}", e.toString());
        StringWriter printed = new StringWriter();
        e.printStackTrace(new PrintWriter(printed));
        StringBuilder all = new StringBuilder(printed.toString());
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append('\n').append(t).append('\n').append(t.getMessage()).append('\n').append(t.getLocalizedMessage());
            for (Throwable s : t.getSuppressed()) {
                all.append('\n').append(s);
            }
        }
        if (e instanceof ProviderHttpException http) {
            all.append('\n').append(http.bodyExcerpt()).append('\n').append(http.error());
        }
        if (e instanceof ProviderStreamException stream) {
            all.append('\n').append(stream.error());
        }
        all.append('\n').append(EventJson.errorFrame(e));
        CANARIES.assertClean(where + " (" + e.getClass().getSimpleName() + ")", all.toString());
    }

    /** A request as received: the secret in its credential header only, and never the AWS secret or signing key. */
    private static void checkRecorded(Case c, RecordedRequest r) {
        CANARIES.assertClean(c + " recorded request toString", r.toString());
        CANARIES.assertClean(c + " request path", r.path());
        CANARIES.assertClean(c + " request body", r.body());
        for (Map.Entry<String, List<String>> header : r.headers().entrySet()) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            String value = String.join(",", header.getValue());
            if (!CREDENTIAL_HEADERS.contains(name)) {
                CANARIES.assertClean(c + " header " + name, value);
            }
        }
        if (c.kind().credential() == ProviderKind.Credential.AWS_CREDENTIALS) {
            String date = String.valueOf(r.header("x-amz-date"));
            CANARIES.registerBytes("sigv4-signing-key", signingKey(date.substring(0, 8)));
            String authorization = String.valueOf(r.header("authorization"));
            assertThat(authorization).as("SigV4 names the access key id").contains("Credential=" + ACCESS_KEY_ID + "/");
            CANARIES.assertClean(c + " SigV4 Authorization without its key id", authorization.replace(ACCESS_KEY_ID, "AKID"));
            assertThat(String.valueOf(r.header("x-amz-security-token"))).isEqualTo(AWS_SESSION);
        } else {
            String carried = String.valueOf(r.header("authorization")) + r.header("x-api-key") + r.header("api-key")
                    + r.header("x-goog-api-key");
            assertThat(Canaries.holds(carried, c.sent())).as(c + " sent its secret in a credential header").isTrue();
            CANARIES.assertClean(c + " credential headers without the secret sent", carried.replace(c.sent(), "SENT"));
        }
    }

    /** SigV4's signing key for a date, region us-east-1 and service bedrock: derived from the secret, never shown. */
    private static byte[] signingKey(String yyyymmdd) {
        byte[] k = hmac(("AWS4" + AWS_SECRET).getBytes(StandardCharsets.UTF_8), yyyymmdd);
        k = hmac(k, "us-east-1");
        k = hmac(k, "bedrock");
        return hmac(k, "aws4_request");
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Checks the lines logged since the last check, then forgets them (each line is checked once). */
    private static void checkLogs() {
        CANARIES.assertClean("the DEBUG log", logs.text());
        logs.clear();
    }
}
