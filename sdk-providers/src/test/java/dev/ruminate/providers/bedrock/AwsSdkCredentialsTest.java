package dev.ruminate.providers.bedrock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.testing.LoopbackEndpoint;
import dev.ruminate.providers.testing.LoopbackEndpoint.Answer;
import dev.ruminate.providers.testing.SystemProperties;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.transport.http.ApiKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

/**
 * {@link AwsSdkCredentials} against the real AWS SDK chain: shared config and credentials files in a
 * temporary directory, and loopback stand-ins for STS, the container credentials endpoint and the
 * instance metadata service, each followed by a signed request to the Bedrock emulator whose
 * signature is recomputed from the secret the chain should have found.
 *
 * <p>The chain reads its settings from system properties, set per test and restored after
 * ({@link SystemProperties}); this module's tests do not run in parallel.
 */
@ExtendWith(NettyLeakCheck.class)
class AwsSdkCredentialsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ChatRequest REQUEST = ChatRequest.builder("us.anthropic.claude-sonnet-4-20250514-v1:0")
            .user("Hi").build();
    private static final Instant NOW = Instant.parse("2026-11-26T07:00:00Z");

    private static ProviderEmulator bedrock;

    @TempDir
    Path dir;
    private SystemProperties properties;

    @BeforeAll
    static void start() {
        bedrock = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        bedrock.close();
    }

    @BeforeEach
    void isolate() throws IOException {
        // Empty profile files and no instance metadata unless a test says otherwise: nothing of the machine's.
        properties = new SystemProperties()
                .set("aws.configFile", write("config", "").toString())
                .set("aws.sharedCredentialsFile", write("credentials", "").toString())
                .set("aws.disableEc2Metadata", "true")
                .set("aws.region", "us-east-1");
    }

    @AfterEach
    void restore() {
        properties.close();
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    /** Sends one request with credentials from the source; returns what reached Bedrock. */
    private static RecordedRequest send(Mono<AwsCredentials> credentials) {
        bedrock.enqueue(BedrockScript.create().text("ok").toResponse());
        BedrockProvider provider = BedrockProvider.builder("us-east-1").baseUrl(bedrock.baseUrl().toString())
                .credentials(credentials).clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();
        ChatReducer.defaults().reduce(provider.stream(REQUEST)).block(WAIT);
        List<RecordedRequest> all = bedrock.requests();
        return all.get(all.size() - 1);
    }

    /** Checks the request was signed with exactly these credentials: key id, token, and a signature from the secret. */
    private static void assertSignedWith(RecordedRequest sent, AwsCredentials expected) {
        String authorization = sent.header("Authorization");
        assertThat(authorization).contains("Credential=" + expected.accessKeyId() + "/");
        ApiKey token = expected.sessionToken();
        assertThat(sent.header("X-Amz-Security-Token")).isEqualTo(token == null ? null : token.reveal());
        String signed = authorization.substring(authorization.indexOf("SignedHeaders=") + "SignedHeaders=".length(),
                authorization.indexOf(", Signature="));
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        for (String name : signed.split(";")) {
            headers.add(Map.entry(name, sent.header(name)));
        }
        String recomputed = new SigV4Signer("us-east-1", "bedrock").sign("POST", sent.path(), null, headers,
                sent.body().getBytes(StandardCharsets.UTF_8), expected, NOW).authorization();
        assertThat(authorization).isEqualTo(recomputed);
    }

    private static AwsCredentials credentials(String id, String secret, String token) {
        return new AwsCredentials(id, ApiKey.of(secret), ApiKey.of(token));
    }

    @Test
    void staticKeysOfTheProfileNamedByAwsProfile() throws IOException {
        write("credentials", """
                [default]
                aws_access_key_id = AKIDDEFAULTWRONG
                aws_secret_access_key = default-secret
                [bedrock-dev]
                aws_access_key_id = AKIDPROFILE1
                aws_secret_access_key = profile-secret-3b1f
                aws_session_token = profile-token-77a2
                """);
        properties.set("aws.profile", "bedrock-dev");

        assertSignedWith(send(AwsSdkCredentials.defaultChain()),
                credentials("AKIDPROFILE1", "profile-secret-3b1f", "profile-token-77a2"));
    }

    @Test
    void aNamedProfileWithoutSessionTokenSignsWithoutOne() throws IOException {
        write("credentials", """
                [other]
                aws_access_key_id = AKIDOTHER
                aws_secret_access_key = other-secret-9c0d
                """);

        assertSignedWith(send(AwsSdkCredentials.profile("other")), AwsCredentials.of("AKIDOTHER", "other-secret-9c0d"));
    }

    @Test
    void assumesTheRoleOfAProfileThroughSts() throws IOException {
        String expiration = NOW.plus(1, ChronoUnit.HOURS).toString();
        try (LoopbackEndpoint sts = new LoopbackEndpoint(request -> new Answer(200, "text/xml", """
                <AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
                  <AssumeRoleResult>
                    <Credentials>
                      <AccessKeyId>ASIAASSUMED1</AccessKeyId>
                      <SecretAccessKey>assumed-secret-5e6f</SecretAccessKey>
                      <SessionToken>assumed-token-1a2b</SessionToken>
                      <Expiration>%s</Expiration>
                    </Credentials>
                    <AssumedRoleUser>
                      <AssumedRoleId>AROATEST:ruminate</AssumedRoleId>
                      <Arn>arn:aws:sts::123456789012:assumed-role/bedrock-invoke/ruminate</Arn>
                    </AssumedRoleUser>
                  </AssumeRoleResult>
                  <ResponseMetadata><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId></ResponseMetadata>
                </AssumeRoleResponse>
                """.formatted(expiration)))) {
            write("config", """
                    [profile invoker]
                    role_arn = arn:aws:iam::123456789012:role/bedrock-invoke
                    source_profile = base
                    region = us-east-1
                    """);
            write("credentials", """
                    [base]
                    aws_access_key_id = AKIDBASE
                    aws_secret_access_key = base-secret-4d4d
                    """);
            properties.set("aws.endpointUrlSts", sts.uri().toString());

            assertSignedWith(send(AwsSdkCredentials.profile("invoker")),
                    credentials("ASIAASSUMED1", "assumed-secret-5e6f", "assumed-token-1a2b"));
            // STS was asked with the source profile's keys, for the profile's role
            LoopbackEndpoint.Seen assume = sts.seen().get(0);
            assertThat(assume.body()).contains("Action=AssumeRole")
                    .contains("RoleArn=arn%3Aaws%3Aiam%3A%3A123456789012%3Arole%2Fbedrock-invoke");
            assertThat(assume.header("Authorization")).contains("Credential=AKIDBASE/");
        }
    }

    @Test
    void containerCredentialsAreRefreshedBeforeTheyExpire() {
        AtomicInteger fetches = new AtomicInteger();
        Instant now = Instant.now();
        try (LoopbackEndpoint container = new LoopbackEndpoint(request -> {
            int n = fetches.incrementAndGet();
            // the first credentials expire within the SDK's refresh window, the second in an hour
            Instant expiration = n == 1 ? now.plus(2, ChronoUnit.MINUTES) : now.plus(1, ChronoUnit.HOURS);
            return Answer.json("""
                    {"AccessKeyId":"ASIACONTAINER%d","SecretAccessKey":"container-secret-%d",
                     "Token":"container-token-%d","Expiration":"%s"}""".formatted(n, n, n, expiration));
        })) {
            properties.set("aws.containerCredentialsFullUri", container.uri() + "/v2/credentials/task")
                    .set("aws.containerAuthorizationToken", "container-auth-token");
            Mono<AwsCredentials> chain = AwsSdkCredentials.defaultChain();

            assertSignedWith(send(chain), credentials("ASIACONTAINER1", "container-secret-1", "container-token-1"));
            assertSignedWith(send(chain), credentials("ASIACONTAINER2", "container-secret-2", "container-token-2"));
            assertSignedWith(send(chain), credentials("ASIACONTAINER2", "container-secret-2", "container-token-2"));

            assertThat(fetches).hasValue(2);
            assertThat(container.seen().get(0).path()).isEqualTo("/v2/credentials/task");
            assertThat(container.seen().get(0).header("Authorization")).isEqualTo("container-auth-token");
        }
    }

    @Test
    void instanceMetadataCredentialsWithAnImdsV2Token() {
        String expiration = Instant.now().plus(1, ChronoUnit.HOURS).toString();
        try (LoopbackEndpoint imds = new LoopbackEndpoint(request -> {
            String path = request.path();
            if (request.method().equals("PUT") && path.equals("/latest/api/token")) {
                return new Answer(200, "text/plain", "imds-session-token");
            }
            if (!"imds-session-token".equals(request.header("X-aws-ec2-metadata-token"))) {
                return new Answer(401, "text/plain", "");
            }
            if (path.equals("/latest/meta-data/iam/security-credentials/")) {
                return new Answer(200, "text/plain", "bedrock-instance-role");
            }
            if (path.equals("/latest/meta-data/iam/security-credentials/bedrock-instance-role")) {
                return Answer.json("""
                        {"Code":"Success","LastUpdated":"%s","Type":"AWS-HMAC","AccessKeyId":"ASIAINSTANCE1",
                         "SecretAccessKey":"instance-secret-8f8f","Token":"instance-token-2c2c","Expiration":"%s"}"""
                        .formatted(Instant.now(), expiration));
            }
            return Answer.notFound();
        })) {
            properties.set("aws.disableEc2Metadata", "false")
                    .set("aws.ec2MetadataServiceEndpoint", imds.uri().toString());

            assertSignedWith(send(AwsSdkCredentials.defaultChain()),
                    credentials("ASIAINSTANCE1", "instance-secret-8f8f", "instance-token-2c2c"));
            assertThat(imds.seen().get(0).method()).isEqualTo("PUT");
            assertThat(imds.seen().get(0).header("X-aws-ec2-metadata-token-ttl-seconds")).isNotNull();
        }
    }

    @Test
    void noCredentialsAnywhereFailsTypedWithoutARequestOrASecret() throws IOException {
        write("credentials", """
                [broken]
                aws_access_key_id = AKIDBROKEN
                """);
        int before = bedrock.requests().size();
        BedrockProvider provider = BedrockProvider.builder("us-east-1").baseUrl(bedrock.baseUrl().toString())
                .credentials(AwsSdkCredentials.profile("missing-profile")).build();

        assertThatThrownBy(() -> ChatReducer.defaults().reduce(provider.stream(REQUEST)).block(WAIT))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("no AWS credentials");
        assertThat(bedrock.requests()).hasSize(before);
    }

    @Test
    void theRegionChainReadsTheSystemPropertyThenTheProfile() throws IOException {
        write("config", """
                [profile eu]
                region = eu-west-3
                """);
        assertThat(AwsSdkCredentials.defaultRegion()).isEqualTo("us-east-1");

        properties.close();
        properties = new SystemProperties().set("aws.configFile", dir.resolve("config").toString())
                .set("aws.sharedCredentialsFile", dir.resolve("credentials").toString())
                .set("aws.disableEc2Metadata", "true");
        assertThat(AwsSdkCredentials.region("eu")).isEqualTo("eu-west-3");
    }

    @Test
    void theConvertedCredentialsShowNoSecret() throws IOException {
        write("credentials", """
                [shown]
                aws_access_key_id = AKIDSHOWN
                aws_secret_access_key = shown-secret-0000
                aws_session_token = shown-token-1111
                """);
        AwsCredentials resolved = AwsSdkCredentials.profile("shown").block(WAIT);

        assertThat(resolved.accessKeyId()).isEqualTo("AKIDSHOWN");
        assertThat(resolved.toString()).doesNotContain("shown-secret-0000", "shown-token-1111", "AKIDSHOWN");
        assertThat(resolved.secretAccessKey().reveal()).isEqualTo("shown-secret-0000");
    }
}
