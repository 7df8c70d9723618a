package dev.ruminate.gateway.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The gateway's keys: the bearer tokens a client may present. Only SHA-256 digests are kept; a
 * presented token is digested and compared with every key's digest in constant time, so neither the
 * time taken nor the code path tells which key, or how much of one, matched.
 *
 * <p>A key is known to the rest of the gateway (rate limits, logs) only by its
 * {@linkplain #fingerprint fingerprint}, never by its value. {@link #toString()} shows only how many
 * keys there are.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.2
 */
public final class GatewayKeys {

    private static final String BEARER = "Bearer ";

    private final List<byte[]> digests;
    private final List<String> fingerprints;

    private GatewayKeys(List<byte[]> digests, List<String> fingerprints) {
        this.digests = digests;
        this.fingerprints = fingerprints;
    }

    /**
     * Creates the keys.
     *
     * @param keys the keys; blank entries are ignored, surrounding blanks stripped
     * @return the keys
     * @throws IllegalArgumentException if no key is left
     */
    public static GatewayKeys of(Collection<String> keys) {
        List<byte[]> digests = new ArrayList<>();
        List<String> fingerprints = new ArrayList<>();
        for (String key : keys) {
            if (key == null || key.isBlank()) {
                continue;
            }
            byte[] digest = sha256(key.strip());
            digests.add(digest);
            fingerprints.add(HexFormat.of().formatHex(digest, 0, 8));
        }
        if (digests.isEmpty()) {
            throw new IllegalArgumentException("no gateway key is configured");
        }
        return new GatewayKeys(List.copyOf(digests), List.copyOf(fingerprints));
    }

    /**
     * Checks an {@code Authorization} header.
     *
     * @param authorization the header value, or null when absent
     * @return the fingerprint of the key presented, or empty when the header is absent, not a bearer
     *     token, or holds no configured key
     */
    public Optional<String> authenticate(@Nullable String authorization) {
        if (authorization == null || authorization.length() <= BEARER.length()
                || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Optional.empty();
        }
        byte[] presented = sha256(authorization.substring(BEARER.length()).strip());
        int matched = -1;
        for (int i = 0; i < digests.size(); i++) {
            // every digest is compared, whatever matched before: the time taken does not depend on which key
            boolean equal = MessageDigest.isEqual(presented, digests.get(i));
            matched = equal && matched < 0 ? i : matched;
        }
        return matched < 0 ? Optional.empty() : Optional.of(fingerprints.get(matched));
    }

    /**
     * Returns a key's fingerprint: the first 8 bytes of its SHA-256 digest, in hex. It names a key
     * in rate limits and logs and cannot be turned back into the key.
     *
     * @param key the key
     * @return the fingerprint
     */
    public static String fingerprint(String key) {
        return HexFormat.of().formatHex(sha256(key.strip()), 0, 8);
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /**
     * Describes the keys without showing any.
     *
     * @return the number of keys
     */
    @Override
    public String toString() {
        return "GatewayKeys[" + digests.size() + " keys]";
    }
}
