package dev.ruminate.providers.spi;

import dev.ruminate.core.message.Origin;
import dev.ruminate.transport.http.BaseUrl;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Computes the parts of an {@link Origin} that the pipeline derives: the endpoint identity of a
 * base URL and the account fingerprint of a credential. Stateless and thread-safe.
 */
final class Origins {

    /**
     * Prefixed to the material before hashing, so that a fingerprint is never the plain SHA-256 of a
     * key (which a table of leaked keys could look up) and a later scheme can change the label.
     */
    private static final byte[] LABEL = "ruminate-account-v1\0".getBytes(StandardCharsets.UTF_8);
    private static final int HEX_DIGITS = 16;

    private Origins() {
    }

    /**
     * Returns the endpoint identity: host (lower case), explicit port and path, without scheme,
     * query (Azure's {@code api-version} is not an identity), user info or trailing slashes.
     */
    static String endpoint(BaseUrl base) {
        URI uri = base.uri();
        String host = String.valueOf(uri.getHost()).toLowerCase(Locale.ROOT);
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        int end = path.length();
        while (end > 0 && path.charAt(end - 1) == '/') {
            end--;
        }
        return host + (uri.getPort() >= 0 ? ":" + uri.getPort() : "") + path.substring(0, end);
    }

    /**
     * Returns the account fingerprint of a credential's identity material: the first 16 hex digits
     * of SHA-256 over a fixed label and the material's UTF-8 bytes; null for null material.
     */
    static @Nullable String fingerprint(@Nullable String material) {
        if (material == null) {
            return null;
        }
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // every Java platform must provide SHA-256
            throw new IllegalStateException("SHA-256 is not available", e);
        }
        sha.update(LABEL);
        byte[] digest = sha.digest(material.getBytes(StandardCharsets.UTF_8));
        StringBuilder hex = new StringBuilder(HEX_DIGITS);
        for (int i = 0; i < HEX_DIGITS / 2; i++) {
            hex.append(Character.forDigit((digest[i] >> 4) & 0xf, 16)).append(Character.forDigit(digest[i] & 0xf, 16));
        }
        return hex.toString();
    }
}
