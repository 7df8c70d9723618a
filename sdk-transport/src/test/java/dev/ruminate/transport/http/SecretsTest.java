package dev.ruminate.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The redaction of secrets from error texts: whole, and where an excerpt was cut inside one (marked
 * with {@code …}), the start of it that was left.
 */
class SecretsTest {

    private static final String KEY = "sk-SECRET-canary-0f1e2d3c4b5a6978";
    private final Secrets secrets = new Secrets(ApiKey.of(KEY));

    @Test
    void aWholeSecretIsReplaced() {
        assertThat(secrets.redact("Incorrect API key provided: " + KEY + ".", List.of()))
                .isEqualTo("Incorrect API key provided: [REDACTED].");
    }

    @Test
    void theStartOfASecretWhereAnExcerptWasCutIsReplaced() {
        String cut = "data: {\"key\":\"" + KEY.substring(0, KEY.length() - 5) + "…";

        assertThat(secrets.redact(cut, List.of())).isEqualTo("data: {\"key\":\"[REDACTED]…");
        assertThat(secrets.appearIn(cut, List.of())).isTrue();
        // each cut mark is looked at, and what follows is kept
        assertThat(secrets.redact("a " + KEY.substring(0, 10) + "… b " + KEY.substring(0, 6) + "… c", List.of()))
                .isEqualTo("a [REDACTED]… b [REDACTED]… c");
    }

    @Test
    void aSecretOfARequestCutShortIsReplacedToo() {
        ApiKey token = ApiKey.of("ya29.token-canary-1234");
        assertThat(new Secrets(null).redact("Bearer ya29.token-ca…", List.of(token))).isEqualTo("Bearer [REDACTED]…");
    }

    @Test
    void fewerCharactersThanTheShortestCutAndTextWithoutACutAreKept() {
        String threeChars = "the answer was cut at sk-…";
        String notCut = "ends with the start sk-SECRET";

        assertThat(secrets.redact(threeChars, List.of())).isEqualTo(threeChars);
        assertThat(secrets.redact(notCut, List.of())).isEqualTo(notCut);
        assertThat(secrets.redact("an ellipsis… after ordinary text…", List.of())).isEqualTo("an ellipsis… after ordinary text…");
        assertThat(secrets.appearIn(notCut, List.of())).isFalse();
    }
}
