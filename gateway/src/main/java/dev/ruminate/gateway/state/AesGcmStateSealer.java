package dev.ruminate.gateway.state;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.json.MessageJson;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.serving.ClientRequestException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * Seals state with AES-256-GCM from the JDK, under a current key, and opens what any of the
 * configured keys sealed (the current one and older ones kept for rotation).
 *
 * <p>A sealed value is {@code rgw1.<keyId>.<payload>}, the payload being
 * {@code base64url-no-padding(nonce ‖ ciphertext ‖ tag)} with a fresh random 96-bit nonce per seal
 * and a 128-bit tag. The associated data is {@code rgw1.<keyId>.}: the format version and the key id
 * are authenticated, so neither can be swapped. The plaintext is one encoding byte ({@code 0}: as
 * is, {@code 1}: raw DEFLATE, used when it is shorter), then two lines of JSON: a header
 * {@code {"route":…,"issued_at":<epoch seconds>}}, and the parts as an assistant message (provider
 * and model included) in {@link MessageJson}'s server form, which keeps every part's
 * {@code provider_state} byte for byte. {@code issuedAt} therefore comes back whole seconds.
 *
 * <p>Inflation happens only after the tag checked out: what is inflated is what this gateway
 * deflated, so a client cannot send a decompression bomb.
 *
 * <p>{@link #open} rejects, as a 400 {@code invalid_request_error} with code
 * {@value #CODE}, a value not in the format, sealed under a key id this sealer does not hold,
 * altered or truncated (bad base64 or failed tag), older than {@code maxAge} (or dated more than
 * {@link #CLOCK_SKEW} ahead, which another instance's clock may be), or holding what this version
 * cannot read. The message says which, and names no key, no plaintext and no part of the value.
 *
 * <p>Immutable and thread-safe. {@link #toString()} shows key ids, never key material.
 *
 * @since 0.2
 */
public final class AesGcmStateSealer implements StateSealer {

    /** The error code of every failure to open: OpenAI's for an unreadable {@code encrypted_content}. */
    public static final String CODE = "invalid_encrypted_content";

    /** The default maximum age of a sealed state. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofDays(30);

    /** How far ahead of this instance's clock an issue time may be: another instance's clock may run ahead. */
    public static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

    private static final String VERSION = "rgw1";
    private static final String PREFIX = VERSION + ".";
    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_-]{1,32}");
    private static final int KEY_BYTES = 32;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final String TRANSFORMATION = "AES/GCM/NoPadding";

    private final SealingKey current;
    private final Map<String, SealingKey> keys;
    private final Duration maxAge;
    private final Clock clock;
    private final SecureRandom random;

    private AesGcmStateSealer(Builder b) {
        if (b.current == null) {
            throw new IllegalStateException("a current key is required: currentKey(keyId, base64Key)");
        }
        this.current = b.current;
        Map<String, SealingKey> all = new LinkedHashMap<>();
        all.put(current.id(), current);
        for (SealingKey k : b.older) {
            if (all.putIfAbsent(k.id(), k) != null) {
                throw new IllegalArgumentException("key id '" + k.id() + "' is given twice");
            }
        }
        this.keys = Map.copyOf(all);
        this.maxAge = b.maxAge;
        this.clock = b.clock;
        this.random = b.random;
    }

    /**
     * Starts a sealer; a current key is required.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public boolean looksSealed(String encryptedContent) {
        return encryptedContent.startsWith(PREFIX);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Seals under the current key; the state's {@code issuedAt} is kept to the second.
     */
    @Override
    public String seal(SealedState state) {
        Objects.requireNonNull(state, "state");
        byte[] plaintext = encode(state);
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        byte[] sealed;
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, current, nonce);
            sealed = new byte[NONCE_BYTES + cipher.getOutputSize(plaintext.length)];
            System.arraycopy(nonce, 0, sealed, 0, NONCE_BYTES);
            cipher.doFinal(plaintext, 0, plaintext.length, sealed, NONCE_BYTES);
        } catch (GeneralSecurityException e) {
            // AES-GCM with a 256-bit key is in every JDK: reaching this is a broken runtime, not bad input
            throw new IllegalStateException("AES-GCM sealing failed", e);
        }
        return current.aad() + Base64.getUrlEncoder().withoutPadding().encodeToString(sealed);
    }

    @Override
    public SealedState open(String encryptedContent) {
        Objects.requireNonNull(encryptedContent, "encryptedContent");
        if (!looksSealed(encryptedContent)) {
            throw failure("encrypted_content is not state sealed by this gateway");
        }
        int dot = encryptedContent.indexOf('.', PREFIX.length());
        if (dot < 0) {
            throw failure("encrypted_content is altered or truncated: it is not in the sealed format");
        }
        SealingKey key = keys.get(encryptedContent.substring(PREFIX.length(), dot));
        if (key == null) {
            throw failure("encrypted_content was sealed under a key this gateway does not hold"
                    + " (another gateway's, or one retired)");
        }
        String payload = encryptedContent.substring(dot + 1);
        byte[] sealed;
        try {
            sealed = Base64.getUrlDecoder().decode(payload);
        } catch (IllegalArgumentException e) {
            throw failure("encrypted_content is altered or truncated: it is not valid base64url");
        }
        // the decoder ignores a last character's unused bits and accepts padding: only the one
        // encoding this sealer writes is accepted, so that no altered value opens
        if (!Base64.getUrlEncoder().withoutPadding().encodeToString(sealed).equals(payload)) {
            throw failure("encrypted_content is altered or truncated: it is not the sealed encoding");
        }
        if (sealed.length < NONCE_BYTES + TAG_BITS / 8) {
            throw failure("encrypted_content is altered or truncated: it is too short");
        }
        byte[] plaintext;
        try {
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, key, Arrays.copyOf(sealed, NONCE_BYTES));
            plaintext = cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
        } catch (AEADBadTagException e) {
            throw failure("encrypted_content is altered or truncated: its authentication failed");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM opening failed", e);
        }
        SealedState state = decode(plaintext);
        Instant now = clock.instant();
        if (state.issuedAt().isBefore(now.minus(maxAge))) {
            throw failure("encrypted_content has expired: it was sealed more than " + describe(maxAge)
                    + " ago; send the conversation without it");
        }
        if (state.issuedAt().isAfter(now.plus(CLOCK_SKEW))) {
            throw failure("encrypted_content is not valid yet: it is dated in the future");
        }
        return state;
    }

    /**
     * Describes the sealer: key ids and maximum age, never key material.
     *
     * @return the description
     */
    @Override
    public String toString() {
        return "AesGcmStateSealer[currentKey=" + current.id() + ", keys=" + keys.keySet().stream().sorted().toList()
                + ", maxAge=" + maxAge + "]";
    }

    /** A maximum age in words, in the largest whole unit. */
    private static String describe(Duration age) {
        if (age.toSeconds() % 86_400 == 0) {
            return plural(age.toDays(), "day");
        }
        if (age.toSeconds() % 3_600 == 0) {
            return plural(age.toHours(), "hour");
        }
        if (age.toSeconds() % 60 == 0) {
            return plural(age.toMinutes(), "minute");
        }
        return plural(Math.max(1, age.toSeconds()), "second");
    }

    private static String plural(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }

    private static Cipher cipher(int mode, SealingKey key, byte[] nonce) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance(TRANSFORMATION);
        cipher.init(mode, key.spec(), new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD(key.aad().getBytes(StandardCharsets.US_ASCII));
        return cipher;
    }

    private static byte[] encode(SealedState state) {
        AssistantMessage message = new AssistantMessage(state.parts(), state.provider(), state.model(),
                FinishReason.STOP, null, Usage.UNKNOWN);
        String json = SealedJson.header(state.route(), state.issuedAt().getEpochSecond()) + "\n"
                + MessageJson.write(message);
        return Compression.encode(json.getBytes(StandardCharsets.UTF_8));
    }

    private static SealedState decode(byte[] plaintext) {
        String json;
        try {
            json = new String(Compression.decode(plaintext), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw unreadable();
        }
        int newline = json.indexOf('\n');
        if (newline < 0) {
            throw unreadable();
        }
        SealedJson.Header header = SealedJson.readHeader(json.substring(0, newline));
        if (header == null) {
            throw unreadable();
        }
        Message message;
        try {
            message = MessageJson.read(json.substring(newline + 1));
        } catch (ProtocolException e) {
            throw unreadable();
        }
        if (!(message instanceof AssistantMessage a) || a.provider() == null) {
            throw unreadable();
        }
        return new SealedState(header.route(), a.provider(), a.model(), Instant.ofEpochSecond(header.issuedAt()),
                a.parts());
    }

    private static ClientRequestException unreadable() {
        // authentic, so sealed by a gateway holding the key, but not in a shape this version reads
        return failure("encrypted_content could not be read: it holds state this gateway version does not understand");
    }

    private static ClientRequestException failure(String message) {
        return ClientRequestException.invalid(message, null, CODE);
    }

    /** A key id with its AES key; the associated data of its seals is derived from the id. */
    private record SealingKey(String id, SecretKeySpec spec) {

        String aad() {
            return PREFIX + id + ".";
        }

        @Override
        public String toString() {
            return "SealingKey[" + id + "]";
        }

        static SealingKey of(String id, String base64Key) {
            Objects.requireNonNull(id, "keyId");
            Objects.requireNonNull(base64Key, "base64Key");
            if (!KEY_ID.matcher(id).matches()) {
                throw new IllegalArgumentException("a key id is 1 to 32 characters of A-Z, a-z, 0-9, '_' and '-'");
            }
            byte[] material;
            try {
                material = Base64.getDecoder().decode(base64Key.strip());
            } catch (IllegalArgumentException e) {
                // the message of the cause could quote the material: it is dropped
                throw new IllegalArgumentException("key '" + id + "' is not base64 (standard alphabet)");
            }
            try {
                if (material.length != KEY_BYTES) {
                    throw new IllegalArgumentException("key '" + id + "' must be 32 bytes (AES-256), base64 encoded;"
                            + " it has " + material.length + " bytes");
                }
                return new SealingKey(id, new SecretKeySpec(material, "AES"));
            } finally {
                Arrays.fill(material, (byte) 0);
            }
        }
    }

    /**
     * Configures an {@link AesGcmStateSealer}. Not thread-safe; {@link #build()} may be called more
     * than once.
     */
    public static final class Builder {

        private @Nullable SealingKey current;
        private final List<SealingKey> older = new ArrayList<>();
        private Duration maxAge = DEFAULT_MAX_AGE;
        private Clock clock = Clock.systemUTC();
        // the nonce source: thread-safe and self-seeding
        private final SecureRandom random = new SecureRandom();

        private Builder() {
        }

        /**
         * Sets the key that seals (and opens).
         *
         * @param keyId the key's id, written in clear into each sealed value: 1 to 32 characters of
         *     {@code A-Z a-z 0-9 _ -}
         * @param base64Key 32 random bytes, standard base64
         * @return this builder
         * @throws IllegalArgumentException when the id is not in that form, or the key is not base64
         *     of exactly 32 bytes; the message names the id, never the material
         */
        public Builder currentKey(String keyId, String base64Key) {
            this.current = SealingKey.of(keyId, base64Key);
            return this;
        }

        /**
         * Adds an older key, accepted for opening only: state sealed before a rotation stays
         * readable until it expires.
         *
         * @param keyId the key's id, as for {@link #currentKey}
         * @param base64Key 32 bytes, standard base64
         * @return this builder
         * @throws IllegalArgumentException as {@link #currentKey}
         */
        public Builder olderKey(String keyId, String base64Key) {
            older.add(SealingKey.of(keyId, base64Key));
            return this;
        }

        /**
         * Sets how old a sealed state may be when it comes back; {@link #DEFAULT_MAX_AGE} by default:
         * a stateless client's conversation may be resumed weeks later, and a leaked or retired
         * key's seals stop counting within that bound.
         *
         * @param maxAge positive
         * @return this builder
         */
        public Builder maxAge(Duration maxAge) {
            if (maxAge.isNegative() || maxAge.isZero()) {
                throw new IllegalArgumentException("maxAge must be positive: " + maxAge);
            }
            this.maxAge = maxAge;
            return this;
        }

        /**
         * Sets the clock expiry is checked against (tests fix it); the system UTC clock by default.
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Builds the sealer.
         *
         * @return the sealer
         * @throws IllegalStateException when no current key was set
         * @throws IllegalArgumentException when a key id is given twice
         */
        public AesGcmStateSealer build() {
            return new AesGcmStateSealer(this);
        }
    }
}
