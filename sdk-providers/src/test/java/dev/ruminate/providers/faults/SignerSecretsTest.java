package dev.ruminate.providers.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.AuthenticationException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.TransportException;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.gemini.GeminiProvider;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.GeminiScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.transport.http.ApiKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Secrets that reach the wire through a request signer (a Vertex AI bearer token; an AWS session
 * token, next to a secret access key that never leaves the client) appear in no error, however
 * the call fails, and in no {@code toString}: a provider that echoes them in an error body, in an
 * in-stream error, a transport failure, and the recorded request the test kit shows.
 *
 * <p>Each check prints what a log line would: the error's {@code toString} with its whole stack
 * trace, causes included, and for HTTP errors the body excerpt and the parsed error.
 */
@ExtendWith(NettyLeakCheck.class)
class SignerSecretsTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String TOKEN = "ya29.a0AfB_vertex-token-3c1e9f";
    private static final String SECRET_KEY = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYSECRETKEY";
    private static final String SESSION = "IQoJb3JpZ2luX2VjEJr-session-7d41";
    private static final AwsCredentials CREDENTIALS =
            new AwsCredentials("AKIDEXAMPLE", ApiKey.of(SECRET_KEY), ApiKey.of(SESSION));

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    /** A provider that signs with secrets, the model it is asked for, and the secret it sends. */
    record Signed(String name, Function<String, ChatProvider> atBaseUrl, String model, String sent) {

        ChatProvider at(String baseUrl) {
            return atBaseUrl.apply(baseUrl);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Signed> signed() {
        return Stream.of(
                new Signed("vertex", url -> GeminiProvider.vertex("p", "us-central1").baseUrl(url)
                        .accessToken(() -> ApiKey.of(TOKEN)).build(), "gemini-2.5-pro", TOKEN),
                new Signed("bedrock", url -> BedrockProvider.builder("us-east-1").baseUrl(url)
                        .credentials(CREDENTIALS).build(), "anthropic.claude-sonnet-4-5-v1:0", SESSION));
    }

    static Stream<Arguments> statusesThatEcho() {
        return signed().flatMap(s -> Stream.of(401, 403, 500).map(status -> Arguments.of(s, status)));
    }

    /** An error body quoting what was sent (the secret access key is never sent, so never echoed). */
    private static String echo(String sent) {
        String said = "credentials Bearer " + sent + " are not valid";
        return "{\"error\":{\"code\":401,\"message\":\"" + said + "\",\"status\":\"UNAUTHENTICATED\"},"
                + "\"message\":\"" + said + "\"}";
    }

    private static RuminateException failure(ChatProvider provider, String model, boolean streamed) {
        ChatRequest request = ChatRequest.builder(model).user("Hi").build();
        try {
            ChatReducer.defaults().reduce(streamed ? provider.stream(request) : provider.completeAsEvents(request)).block(WAIT);
        } catch (RuminateException e) {
            return e;
        }
        throw new AssertionError("the call succeeded");
    }

    /** What a log line of the error would show. */
    private static String printed(Throwable e) {
        StringWriter out = new StringWriter();
        out.append(String.valueOf(e)).append('\n');
        e.printStackTrace(new PrintWriter(out));
        if (e instanceof ProviderHttpException http) {
            out.append(http.bodyExcerpt()).append('\n').append(String.valueOf(http.error()));
        }
        if (e instanceof ProviderStreamException stream) {
            out.append(String.valueOf(stream.error()));
        }
        return out.toString();
    }

    private static void assertNoSecret(String text) {
        assertThat(text).doesNotContain(TOKEN).doesNotContain(SESSION).doesNotContain(SECRET_KEY);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("statusesThatEcho")
    void anErrorBodyThatEchoesTheSecretsIsReportedWithoutThem(Signed signed, int status) {
        emulator.enqueue(EmulatorResponse.httpError(status, echo(signed.sent())));
        emulator.enqueue(EmulatorResponse.httpError(status, echo(signed.sent())));
        ChatProvider provider = signed.at(emulator.baseUrl().toString());

        RuminateException streamed = failure(provider, signed.model(), true);
        RuminateException whole = failure(provider, signed.model(), false);

        assertThat(streamed).isInstanceOf(status == 500 ? ProviderHttpException.class : AuthenticationException.class);
        assertThat(streamed.getMessage()).contains("[REDACTED]");
        assertNoSecret(printed(streamed));
        assertNoSecret(printed(whole));
    }

    @Test
    void anInStreamErrorThatEchoesTheTokenIsReportedWithoutIt() {
        emulator.enqueue(GeminiScript.create().text("so far").finishReason(null)
                .errorAtEnd(401, "UNAUTHENTICATED", "token " + TOKEN + " expired").toResponse());
        Signed vertex = signed().filter(s -> s.name().equals("vertex")).findFirst().orElseThrow();

        RuminateException e = failure(vertex.at(emulator.baseUrl().toString()), vertex.model(), true);

        assertThat(e).isInstanceOf(ProviderStreamException.class).hasMessageContaining("[REDACTED]");
        assertNoSecret(printed(e));
    }

    @Test
    void anInStreamExceptionThatEchoesTheSessionTokenIsReportedWithoutIt() {
        emulator.enqueue(BedrockScript.create().text("so far")
                .exceptionAtEnd("accessDeniedException", "session " + SESSION + " expired").toResponse());
        Signed bedrock = signed().filter(s -> s.name().equals("bedrock")).findFirst().orElseThrow();

        RuminateException e = failure(bedrock.at(emulator.baseUrl().toString()), bedrock.model(), true);

        assertThat(e).isInstanceOf(ProviderStreamException.class).hasMessageContaining("[REDACTED]");
        assertNoSecret(printed(e));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("signed")
    void aTransportFailureCarriesNoSecret(Signed signed) throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }

        RuminateException e = failure(signed.at("http://127.0.0.1:" + closedPort), signed.model(), true);

        assertThat(e).isInstanceOf(TransportException.class);
        assertNoSecret(printed(e));
    }

    @Test
    void aSignerThatFailsOnASecretItCannotSendCarriesNoSecret() {
        // a token with a character no header may hold: the signer's header is refused as it is written
        String bad = TOKEN + "\u0000";
        ChatProvider vertex = GeminiProvider.vertex("p", "us-central1").baseUrl(emulator.baseUrl().toString())
                .accessToken(ApiKey.of(bad)).build();
        ChatProvider bedrock = BedrockProvider.builder("us-east-1").baseUrl(emulator.baseUrl().toString())
                .credentials(new AwsCredentials("AKIDEXAMPLE", ApiKey.of(SECRET_KEY), ApiKey.of(SESSION + "\u0000")))
                .build();
        int before = emulator.requests().size();

        RuminateException fromVertex = failure(vertex, "gemini-2.5-pro", true);
        RuminateException fromBedrock = failure(bedrock, "anthropic.claude-sonnet-4-5-v1:0", true);

        assertNoSecret(printed(fromVertex));
        assertNoSecret(printed(fromBedrock));
        assertThat(emulator.requests()).hasSize(before);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("signed")
    void neitherTheProviderNorWhatItWasBuiltFromPrintsASecret(Signed signed) {
        ChatProvider provider = signed.at(emulator.baseUrl().toString());
        GeminiProvider fixedToken = GeminiProvider.vertex("p", "us-central1").accessToken(ApiKey.of(TOKEN)).build();

        assertNoSecret(provider.toString());
        assertNoSecret(fixedToken.toString());
        assertNoSecret(CREDENTIALS.toString());
        assertNoSecret(String.valueOf(List.of(CREDENTIALS.secretAccessKey(), CREDENTIALS.sessionToken())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("signed")
    void theRecordedRequestShowsNoSecretThoughItHoldsThem(Signed signed) {
        emulator.enqueue(signed.name().equals("vertex") ? GeminiScript.create().text("ok").toResponse()
                : BedrockScript.create().text("ok").toResponse());
        ChatReducer.defaults().reduce(signed.at(emulator.baseUrl().toString())
                .stream(ChatRequest.builder(signed.model()).user("Hi").build())).block(WAIT);

        List<RecordedRequest> requests = emulator.requests();
        RecordedRequest sent = requests.get(requests.size() - 1);

        assertThat(sent.header(signed.name().equals("vertex") ? "authorization" : "x-amz-security-token"))
                .contains(signed.name().equals("vertex") ? TOKEN : SESSION);
        assertNoSecret(sent.toString());
    }
}
