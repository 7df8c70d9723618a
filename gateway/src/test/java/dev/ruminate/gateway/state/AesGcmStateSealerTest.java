package dev.ruminate.gateway.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.gateway.testing.Seeds;
import dev.ruminate.providers.serving.ClientRequestException;
import dev.ruminate.providers.serving.OpenAiError;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AesGcmStateSealerTest {

    private static final String KEY_1 = randomKey();
    private static final String KEY_2 = randomKey();
    private static final Clock AT_ISSUE = Clock.fixed(RecordedSeals.ISSUED.plusSeconds(60), ZoneOffset.UTC);

    private static final AesGcmStateSealer SEALER = sealer("k1", KEY_1, AT_ISSUE);

    static Stream<SealedState> recorded() {
        return RecordedSeals.all().stream();
    }

    static LongStream seeds() {
        return Seeds.of(64);
    }

    @ParameterizedTest
    @MethodSource("recorded")
    void aRecordedStateComesBackEqualWithEveryOpaqueValueByteForByte(SealedState state) {
        String sealed = SEALER.seal(state);

        SealedState opened = SEALER.open(sealed);

        assertThat(opened).isEqualTo(state);
        for (int i = 0; i < state.parts().size(); i++) {
            Seals in = state.parts().get(i).seals();
            Seals out = opened.parts().get(i).seals();
            assertThat(out.signature()).isEqualTo(in.signature());
            assertThat(out.redacted()).isEqualTo(in.redacted());
            assertThat(out.encrypted()).isEqualTo(in.encrypted());
            assertThat(out.itemId()).isEqualTo(in.itemId());
        }
    }

    @Test
    void aServerToolBlockComesBackAsItWasSent() {
        // single-line block JSON is kept as is (a multi-line one would come back compacted, equal in value)
        String block = "{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_01\",\"content\":"
                + "[{\"type\":\"web_search_result\",\"url\":\"https://example.org\",\"encrypted_content\":"
                + "\"EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM2LTQ1ZWUtODQ5YS0zNjk0NWVmNTk4NTYSDO5e\"}]}";
        SealedState state = new SealedState("claude", "anthropic", null, RecordedSeals.ISSUED,
                List.of(new ServerToolPart("web_search_tool_result", "srvtoolu_01", null, block, Seals.NONE),
                        TextPart.of("")));

        SealedState opened = SEALER.open(SEALER.seal(state));

        assertThat(opened).isEqualTo(state);
        assertThat(((ServerToolPart) opened.parts().get(0)).json()).isEqualTo(block);
    }

    @ParameterizedTest
    @MethodSource("recorded")
    void theSealedFormIsVersionKeyIdAndUnpaddedBase64Url(SealedState state) {
        String sealed = SEALER.seal(state);

        assertThat(sealed).matches("rgw1\\.k1\\.[A-Za-z0-9_-]+");
        assertThat(SEALER.looksSealed(sealed)).isTrue();
        // neither the opaque values nor the text are readable in it
        for (var part : state.parts()) {
            if (part.seals().signature() != null) {
                assertThat(sealed).doesNotContain(part.seals().signature().substring(0, 16));
            }
        }
    }

    @Test
    void onlyThePrefixMakesAValueLookSealed() {
        String openAi = RecordedSeals.responsesEncrypted().parts().get(0).seals().encrypted();

        assertThat(SEALER.looksSealed(openAi)).isFalse();
        assertThat(SEALER.looksSealed("rgw1.")).isTrue();
        assertThat(SEALER.looksSealed("")).isFalse();
        assertFails(openAi, "not state sealed by this gateway");
    }

    @Test
    void everyBitOfEveryCharacterOfASmallSealedValueMatters() {
        String sealed = SEALER.seal(small("why"));

        for (int position = 0; position < sealed.length(); position++) {
            for (int bit = 0; bit < 8; bit++) {
                assertRejected(flip(sealed, position, bit));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void aBitFlippedAnywhereInARecordedSealIsRejected(long seed) {
        Random random = Seeds.random(seed);
        List<SealedState> states = RecordedSeals.all();
        String sealed = SEALER.seal(states.get(random.nextInt(states.size())));

        for (int i = 0; i < 8; i++) {
            assertRejected(flip(sealed, random.nextInt(sealed.length()), random.nextInt(8)));
        }
    }

    @Test
    void everyTruncationIsRejected() {
        String sealed = SEALER.seal(small("a thought"));

        for (int length = 0; length < sealed.length(); length++) {
            assertRejected(sealed.substring(0, length));
        }
        assertFails(sealed.substring(0, sealed.length() - 1), "altered or truncated");
    }

    @Test
    void aValueFromAnotherKeyWithTheSameIdFailsAuthentication() {
        AesGcmStateSealer other = sealer("k1", KEY_2, AT_ISSUE);

        assertFails(other.seal(small("x")), "altered or truncated: its authentication failed");
    }

    @Test
    void aValueUnderAnUnknownKeyIdSaysSo() {
        AesGcmStateSealer other = sealer("k9", KEY_2, AT_ISSUE);

        assertFails(other.seal(small("x")), "a key this gateway does not hold");
    }

    @Test
    void afterRotationTheNewKeySealsAndTheOldKeyStillOpens() {
        AesGcmStateSealer before = sealer("k1", KEY_1, AT_ISSUE);
        AesGcmStateSealer after = AesGcmStateSealer.builder()
                .currentKey("k2", KEY_2).olderKey("k1", KEY_1).clock(AT_ISSUE).build();
        SealedState state = RecordedSeals.anthropicSigned();

        String old = before.seal(state);
        String fresh = after.seal(state);

        assertThat(after.open(old)).isEqualTo(state);
        assertThat(fresh).startsWith("rgw1.k2.");
        assertThat(after.open(fresh)).isEqualTo(state);
        // an instance not yet rotated cannot read the new key's seals
        assertFails(fresh, before, "a key this gateway does not hold");
    }

    @Test
    void aStateOlderThanTheMaximumAgeHasExpired() {
        SealedState state = small("old");
        String sealed = SEALER.seal(state);
        Instant issued = state.issuedAt();

        assertThat(sealer("k1", KEY_1, at(issued.plus(Duration.ofDays(30)))).open(sealed)).isEqualTo(state);
        assertFails(sealed, sealer("k1", KEY_1, at(issued.plus(Duration.ofDays(30)).plusSeconds(1))),
                "expired: it was sealed more than 30 days ago");
        AesGcmStateSealer hourly = AesGcmStateSealer.builder()
                .currentKey("k1", KEY_1).maxAge(Duration.ofHours(1)).clock(at(issued.plusSeconds(3601))).build();
        assertFails(sealed, hourly, "expired: it was sealed more than 1 hour ago");
    }

    @Test
    void aStateDatedBeyondTheClockSkewIsRejected() {
        SealedState state = small("future");
        String sealed = SEALER.seal(state);

        assertThat(sealer("k1", KEY_1, at(state.issuedAt().minus(Duration.ofMinutes(5)))).open(sealed))
                .isEqualTo(state);
        assertFails(sealed, sealer("k1", KEY_1, at(state.issuedAt().minus(Duration.ofMinutes(6)))),
                "dated in the future");
    }

    @Test
    void issuedAtIsKeptToTheSecond() {
        SealedState state = new SealedState("r", "p", "m", RecordedSeals.ISSUED.plusMillis(1_999), List.of());

        assertThat(SEALER.open(SEALER.seal(state)).issuedAt()).isEqualTo(RecordedSeals.ISSUED.plusSeconds(1));
    }

    @Test
    void authenticPlaintextThisVersionCannotReadIsRejectedAsUnreadable() throws Exception {
        for (String plaintext : List.of("", "\u0000{\"route\":\"r\"}", "\u0000{\"route\":\"r\",\"issued_at\":1}\n[]",
                "\u0007whatever", "\u0001not deflate", "\u0000{\"route\":\"r\",\"issued_at\":1}\n{\"role\":\"user\"}")) {
            assertFails(forge(KEY_1, "k1", plaintext), "could not be read");
        }
    }

    @Test
    void keyMaterialIsNeverShown() {
        AesGcmStateSealer sealer = AesGcmStateSealer.builder()
                .currentKey("k2", KEY_2).olderKey("k1", KEY_1).clock(AT_ISSUE).build();

        assertThat(sealer.toString()).contains("k1", "k2").doesNotContain(KEY_1, KEY_2,
                KEY_1.substring(0, 8), KEY_2.substring(0, 8));
        String wrongLength = Base64.getEncoder().encodeToString(new byte[16]);
        assertThatThrownBy(() -> AesGcmStateSealer.builder().currentKey("k1", wrongLength))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be 32 bytes").hasMessageContaining("16 bytes")
                .hasMessageNotContaining(wrongLength);
        String notBase64 = KEY_1.substring(0, 20) + "!!" + KEY_1.substring(22);
        Throwable bad = catchThrowableOfType(IllegalArgumentException.class,
                () -> AesGcmStateSealer.builder().currentKey("k1", notBase64));
        assertThat(bad).hasMessageContaining("not base64").hasNoCause();
        assertThat(bad.getMessage()).doesNotContain(notBase64.substring(0, 8));
        String sealed = sealer("k3", KEY_1, AT_ISSUE).seal(small("x"));
        ClientRequestException failure = catchThrowableOfType(ClientRequestException.class,
                () -> sealer.open(sealed));
        assertThat(failure.getMessage()).doesNotContain(KEY_1, KEY_2, "k3", sealed.substring(8));
    }

    @Test
    void configurationErrorsAreClear() {
        assertThatThrownBy(() -> AesGcmStateSealer.builder().build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("current key is required");
        assertThatThrownBy(() -> AesGcmStateSealer.builder().currentKey("a.b", KEY_1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key id");
        assertThatThrownBy(() -> AesGcmStateSealer.builder().currentKey("k1", KEY_1).olderKey("k1", KEY_2).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("given twice");
        assertThatThrownBy(() -> AesGcmStateSealer.builder().maxAge(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everySealHasItsOwnNonce() {
        SealedState state = small("same");
        Set<String> sealed = new HashSet<>();
        Set<String> nonces = new HashSet<>();

        for (int i = 0; i < 2_000; i++) {
            String s = SEALER.seal(state);
            sealed.add(s);
            nonces.add(s.substring("rgw1.k1.".length(), "rgw1.k1.".length() + 16));
        }

        assertThat(sealed).hasSize(2_000);
        assertThat(nonces).hasSize(2_000);
    }

    @Test
    void theFailureNamesTheParameterWhenTheCallerGivesIt() {
        OpenAiError error = catchThrowableOfType(ClientRequestException.class,
                () -> SEALER.open("rgw1.k1.AAAA", "input[2].encrypted_content")).error();

        assertThat(error.status()).isEqualTo(400);
        assertThat(error.type()).isEqualTo("invalid_request_error");
        assertThat(error.code()).isEqualTo("invalid_encrypted_content");
        assertThat(error.param()).isEqualTo("input[2].encrypted_content");
        assertThat(SEALER.open(SEALER.seal(small("ok")), "input[0]")).isEqualTo(small("ok"));
    }

    @Test
    void longReasoningIsDeflatedAndIncompressibleStateIsNot() {
        String reasoning = ((ReasoningPart) RecordedSeals.geminiSignedCall().parts().get(0)).text();
        SealedState longText = small(reasoning.repeat(4));
        SealedState redacted = RecordedSeals.anthropicRedacted();

        int longSealed = SEALER.seal(longText).length();
        int redactedSealed = SEALER.seal(redacted).length();
        String redactedData = redacted.parts().get(0).seals().redacted();

        // the text is written twice (parts and reasoning_content) and repeats: deflated, far below it
        assertThat(longSealed).isLessThan(reasoning.length() * 4 / 2);
        // base64 data: at most the base64 of the base64, plus framing; not more because of compression
        assertThat(redactedSealed).isLessThan(redactedData.length() * 4 / 3 + 200);
    }

    private static SealedState small(String reasoning) {
        return new SealedState("route", "anthropic", "claude", RecordedSeals.ISSUED,
                List.of(new ReasoningPart(reasoning, false, null, new Seals("sig", null, null, null, null))));
    }

    private static String flip(String value, int position, int bit) {
        char[] chars = value.toCharArray();
        chars[position] = (char) (chars[position] ^ (1 << bit));
        return new String(chars);
    }

    private static void assertRejected(String value) {
        ClientRequestException e = catchThrowableOfType(ClientRequestException.class, () -> SEALER.open(value));
        assertThat(e).as("opening an altered value").isNotNull();
        assertThat(e.error().status()).isEqualTo(400);
        assertThat(e.error().code()).isEqualTo("invalid_encrypted_content");
    }

    private static void assertFails(String value, String messagePart) {
        assertFails(value, SEALER, messagePart);
    }

    private static void assertFails(String value, AesGcmStateSealer sealer, String messagePart) {
        ClientRequestException e = catchThrowableOfType(ClientRequestException.class, () -> sealer.open(value));
        assertThat(e).as("opening must fail").isNotNull();
        assertThat(e.error().status()).isEqualTo(400);
        assertThat(e.error().type()).isEqualTo("invalid_request_error");
        assertThat(e.error().code()).isEqualTo("invalid_encrypted_content");
        assertThat(e.error().param()).isNull();
        assertThat(e.getMessage()).contains(messagePart);
        if (value.length() > 12) {
            assertThat(e.getMessage()).doesNotContain(value.substring(8));
        }
    }

    /** Seals arbitrary plaintext under a key, as only a holder of the key could. */
    private static String forge(String base64Key, String keyId, String plaintext) throws Exception {
        byte[] nonce = new byte[12];
        new SecureRandom().nextBytes(nonce);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(Base64.getDecoder().decode(base64Key), "AES"),
                new GCMParameterSpec(128, nonce));
        cipher.updateAAD(("rgw1." + keyId + ".").getBytes(StandardCharsets.US_ASCII));
        byte[] body = cipher.doFinal(plaintext.getBytes(StandardCharsets.ISO_8859_1));
        byte[] all = new byte[12 + body.length];
        System.arraycopy(nonce, 0, all, 0, 12);
        System.arraycopy(body, 0, all, 12, body.length);
        return "rgw1." + keyId + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(all);
    }

    private static AesGcmStateSealer sealer(String keyId, String key, Clock clock) {
        return AesGcmStateSealer.builder().currentKey(keyId, key).clock(clock).build();
    }

    private static Clock at(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    private static String randomKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }
}
