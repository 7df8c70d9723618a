package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.auth.oauth2.GoogleCredentials;
import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.testing.LoopbackEndpoint;
import dev.ruminate.providers.testing.LoopbackEndpoint.Answer;
import dev.ruminate.providers.testing.SystemProperties;
import dev.ruminate.testkit.GeminiScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.transport.http.ApiKey;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link GoogleCredentialsTokens} against Google's real auth library: a service account key made in
 * the test (its JWT assertion verified with the public key) and user credentials, both exchanging
 * at a loopback OAuth token endpoint, followed by Vertex requests to the Gemini emulator carrying
 * the endpoint's tokens; a token about to expire is refreshed before the next request.
 */
@ExtendWith(NettyLeakCheck.class)
class GoogleCredentialsTokensTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ChatRequest REQUEST = ChatRequest.builder("gemini-3-pro-preview").user("Hi").build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static ProviderEmulator gemini;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        gemini = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        gemini.close();
    }

    private static RecordedRequest send(Mono<ApiKey> tokens) {
        gemini.enqueue(GeminiScript.create().text("ok").toResponse());
        GeminiProvider vertex = GeminiProvider.vertex("my-project", "us-central1")
                .baseUrl(gemini.baseUrl() + "/v1/projects/my-project/locations/us-central1/publishers/google")
                .accessToken(tokens).build();
        ChatReducer.defaults().reduce(vertex.stream(REQUEST)).block(WAIT);
        List<RecordedRequest> all = gemini.requests();
        return all.get(all.size() - 1);
    }

    private static Map<String, String> form(String body) {
        Map<String, String> fields = new HashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            fields.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return fields;
    }

    /** A token endpoint issuing ya29.token-N, the first one expiring within the library's refresh margin. */
    private static LoopbackEndpoint tokenEndpoint(AtomicInteger issued) {
        return new LoopbackEndpoint(request -> {
            int n = issued.incrementAndGet();
            return Answer.json("{\"access_token\":\"ya29.token-%d\",\"expires_in\":%d,\"token_type\":\"Bearer\"}"
                    .formatted(n, n == 1 ? 60 : 3600));
        });
    }

    @Test
    void aServiceAccountKeyIsExchangedAtItsTokenUriAndRefreshedBeforeExpiry() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair keys = generator.generateKeyPair();
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        AtomicInteger issued = new AtomicInteger();
        try (LoopbackEndpoint oauth = tokenEndpoint(issued)) {
            String json = JSON.writeValueAsString(Map.of(
                    "type", "service_account",
                    "project_id", "my-project",
                    "private_key_id", "key-1",
                    "private_key", pem,
                    "client_email", "ruminate@my-project.iam.gserviceaccount.com",
                    "client_id", "1234567890",
                    "token_uri", oauth.uri() + "/token"));
            GoogleCredentials credentials = GoogleCredentials.fromStream(
                    new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
            Mono<ApiKey> tokens = GoogleCredentialsTokens.from(credentials);

            assertThat(send(tokens).header("Authorization")).isEqualTo("Bearer ya29.token-1");
            // the first token expires in a minute, inside the library's margin: refreshed before this request
            assertThat(send(tokens).header("Authorization")).isEqualTo("Bearer ya29.token-2");
            assertThat(send(tokens).header("Authorization")).isEqualTo("Bearer ya29.token-2");
            assertThat(issued).hasValue(2);

            // the exchange is a JWT bearer grant signed with the account's key, for the cloud-platform scope
            Map<String, String> grant = form(oauth.seen().get(0).body());
            assertThat(grant.get("grant_type")).isEqualTo("urn:ietf:params:oauth:grant-type:jwt-bearer");
            String[] jwt = grant.get("assertion").split("\\.");
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initVerify(keys.getPublic());
            rsa.update((jwt[0] + "." + jwt[1]).getBytes(StandardCharsets.US_ASCII));
            assertThat(rsa.verify(Base64.getUrlDecoder().decode(jwt[2]))).isTrue();
            JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(jwt[1]));
            assertThat(claims.get("iss").asString()).isEqualTo("ruminate@my-project.iam.gserviceaccount.com");
            assertThat(claims.get("scope").asString()).isEqualTo(GoogleCredentialsTokens.CLOUD_PLATFORM_SCOPE);
        }
    }

    @Test
    void applicationDefaultCredentialsFromGcloudsUserCredentialsFile() throws IOException {
        AtomicInteger issued = new AtomicInteger();
        try (LoopbackEndpoint oauth = tokenEndpoint(issued);
             SystemProperties properties = new SystemProperties()) {
            // where gcloud auth application-default login writes them, under the home directory
            Path gcloud = Files.createDirectories(dir.resolve(".config/gcloud"));
            Files.writeString(gcloud.resolve("application_default_credentials.json"), JSON.writeValueAsString(Map.of(
                    "type", "authorized_user",
                    "client_id", "client-id.apps.googleusercontent.com",
                    "client_secret", "client-secret-6d6d",
                    "refresh_token", "refresh-token-9e9e",
                    "token_uri", oauth.uri() + "/token")));
            properties.set("user.home", dir.toString());
            Mono<ApiKey> tokens = GoogleCredentialsTokens.applicationDefault();

            assertThat(send(tokens).header("Authorization")).isEqualTo("Bearer ya29.token-1");
            assertThat(send(tokens).header("Authorization")).isEqualTo("Bearer ya29.token-2");

            Map<String, String> grant = form(oauth.seen().get(0).body());
            assertThat(grant).containsEntry("grant_type", "refresh_token")
                    .containsEntry("refresh_token", "refresh-token-9e9e")
                    .containsEntry("client_id", "client-id.apps.googleusercontent.com");
        }
    }

    @Test
    void aRefusedRefreshFailsTypedWithoutARequestOrASecret() throws IOException {
        try (LoopbackEndpoint oauth = new LoopbackEndpoint(request ->
                new Answer(400, "application/json", "{\"error\":\"invalid_grant\",\"error_description\":\"Bad Request\"}"))) {
            GoogleCredentials credentials = GoogleCredentials.fromStream(new ByteArrayInputStream(JSON.writeValueAsString(Map.of(
                    "type", "authorized_user",
                    "client_id", "client-id.apps.googleusercontent.com",
                    "client_secret", "client-secret-6d6d",
                    "refresh_token", "refresh-token-9e9e",
                    "token_uri", oauth.uri() + "/token")).getBytes(StandardCharsets.UTF_8)));
            int before = gemini.requests().size();

            assertThatThrownBy(() -> send(GoogleCredentialsTokens.from(credentials)))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("no access token")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("refresh-token-9e9e", "client-secret-6d6d"));
            assertThat(gemini.requests()).hasSize(before);
        }
    }
}
