package dev.ruminate.providers.bedrock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.providers.testing.Recorded;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The signer against AWS's published Signature Version 4 suite (all 34 cases, see
 * {@code vectors/sigv4/README.md}), and against what the suite does not cover: Bedrock's
 * double-encoded model ids.
 */
class SigV4SignerTest {

    private static final AwsCredentials SUITE =
            AwsCredentials.of("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
    private static final String SUITE_TOKEN = "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267";
    private static final Instant SUITE_TIME = Instant.parse("2015-08-30T12:36:00Z");
    private static final SigV4Signer SIGNER = new SigV4Signer("us-east-1", "service");

    static Stream<String> cases() {
        Path root = Recorded.root().getParent().resolve("vectors/sigv4");
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".req"))
                    .map(p -> root.relativize(p.getParent()).toString().replace('\\', '/'))
                    .sorted()
                    .toList()
                    .stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String file(String caseDir, String extension) {
        Path dir = Recorded.root().getParent().resolve("vectors/sigv4").resolve(caseDir);
        try {
            return Files.readString(dir.resolve(dir.getFileName() + extension), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theSuiteHasAllItsCases() {
        assertThat(cases()).hasSize(34);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void signsEachCaseOfTheSuiteExactly(String caseDir) {
        RawRequest request = RawRequest.parse(file(caseDir, ".req"));
        AwsCredentials credentials = caseDir.equals("get-vanilla-with-session-token")
                ? new AwsCredentials(SUITE.accessKeyId(), SUITE.secretAccessKey(), ApiKey.of(SUITE_TOKEN))
                : SUITE;

        SigV4Signer.Signed signed = SIGNER.sign(request.method, request.path, request.query, request.headers,
                request.body, credentials, SUITE_TIME);

        assertThat(signed.canonicalRequest()).isEqualTo(file(caseDir, ".creq"));
        assertThat(signed.stringToSign()).isEqualTo(file(caseDir, ".sts"));
        assertThat(signed.authorization()).isEqualTo(file(caseDir, ".authz"));
    }

    @Test
    void addsTheSessionTokenAndTheDateWhenTheRequestLacksThem() {
        SigV4Signer.Signed signed = SIGNER.sign("GET", "/", null, List.of(Map.entry("Host", "example.amazonaws.com")),
                new byte[0], new AwsCredentials(SUITE.accessKeyId(), SUITE.secretAccessKey(), ApiKey.of(SUITE_TOKEN)),
                SUITE_TIME);

        assertThat(signed.addedHeaders()).extracting(Map.Entry::getKey)
                .containsExactly("X-Amz-Date", "X-Amz-Security-Token", "Authorization");
        assertThat(signed.addedHeaders().get(0).getValue()).isEqualTo("20150830T123600Z");
        assertThat(signed.addedHeaders().get(1).getValue()).isEqualTo(SUITE_TOKEN);
        assertThat(signed.authorization()).contains("SignedHeaders=host;x-amz-date;x-amz-security-token,");
    }

    @Test
    void encodesABedrockModelIdTwiceInTheCanonicalUri() {
        // ':' is %3A on the wire; bedrock-runtime encodes the wire path again when it checks the signature
        assertThat(SigV4Signer.canonicalUri("/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream"))
                .isEqualTo("/model/us.anthropic.claude-sonnet-4-20250514-v1%253A0/converse-stream");
        assertThat(SigV4Signer.canonicalUri("/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123%3Ainference-profile%2Fx/converse"))
                .isEqualTo("/model/arn%253Aaws%253Abedrock%253Aus-east-1%253A123%253Ainference-profile%252Fx/converse");
    }

    @Test
    void theSecretNeverAppearsInWhatSigningReturns() {
        SigV4Signer.Signed signed = SIGNER.sign("POST", "/", null, List.of(Map.entry("Host", "h")), new byte[0],
                new AwsCredentials("AKIDEXAMPLE", ApiKey.of("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), null), SUITE_TIME);
        assertThat(signed.toString()).doesNotContain("wJalrXUtnFEMI");
        SigV4Signer.Signed withSession = SIGNER.sign("POST", "/", null, List.of(Map.entry("Host", "h")), new byte[0],
                new AwsCredentials("AKIDEXAMPLE", ApiKey.of("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
                        ApiKey.of("session-token-c0ffee")), SUITE_TIME);
        assertThat(withSession.toString()).doesNotContain("session-token-c0ffee");
        assertThat(withSession.addedHeaders().get(1).getValue()).isEqualTo("session-token-c0ffee");
        assertThat(SUITE.toString()).doesNotContain("wJalrXUtnFEMI").doesNotContain("AKIDEXAMPLE");
    }

    /** A request of the suite's {@code .req} format: raw request line, {@code Name:value} headers, body. */
    private static final class RawRequest {
        String method;
        String path;
        String query;
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        byte[] body;

        static RawRequest parse(String text) {
            RawRequest r = new RawRequest();
            String[] lines = text.split("\n", -1);
            String requestLine = lines[0];
            r.method = requestLine.substring(0, requestLine.indexOf(' '));
            String target = requestLine.substring(r.method.length() + 1, requestLine.lastIndexOf(' '));
            int q = target.indexOf('?');
            r.path = q < 0 ? target : target.substring(0, q);
            r.query = q < 0 ? null : target.substring(q + 1);
            int i = 1;
            for (; i < lines.length && !lines[i].isEmpty(); i++) {
                String line = lines[i];
                if (Character.isWhitespace(line.charAt(0))) {
                    Map.Entry<String, String> last = r.headers.remove(r.headers.size() - 1);
                    r.headers.add(Map.entry(last.getKey(), last.getValue() + "\n" + line));
                } else {
                    int colon = line.indexOf(':');
                    r.headers.add(Map.entry(line.substring(0, colon), line.substring(colon + 1)));
                }
            }
            String body = i + 1 < lines.length ? String.join("\n", java.util.Arrays.copyOfRange(lines, i + 1, lines.length)) : "";
            r.body = body.getBytes(StandardCharsets.UTF_8);
            return r;
        }
    }
}
