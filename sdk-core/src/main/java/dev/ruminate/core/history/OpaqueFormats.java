package dev.ruminate.core.history;

import org.jspecify.annotations.Nullable;

/**
 * Well-formedness checks for opaque values, shared by the families' {@link OpaqueRules}. Each
 * returns why a value is malformed, or null when it is well formed. A reason never quotes the value
 * (not even one character of it): it names lengths and positions only.
 *
 * <p>These are syntactic checks: a well-formed value may still be rejected by its provider (only
 * the provider can verify a signature). They catch what storage and transport break: a truncated
 * or concatenated value, a flipped character, an empty string.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.2
 */
public final class OpaqueFormats {

    private OpaqueFormats() {
    }

    /**
     * Checks that a value is not empty.
     *
     * @param value the value
     * @return the problem, or null
     */
    public static @Nullable String nonEmpty(String value) {
        return value.isEmpty() ? "empty" : null;
    }

    /**
     * Checks standard base64 (RFC 4648 §4: {@code A–Z a–z 0–9 + /}), padded: not empty, a length
     * that is a multiple of 4, at most two {@code =} and only at the end.
     *
     * @param value the value
     * @return the problem, or null
     */
    public static @Nullable String standardBase64(String value) {
        return base64(value, false);
    }

    /**
     * Checks padded base64 in either alphabet: standard ({@code + /}) or URL-safe ({@code - _}),
     * one alphabet per value.
     *
     * @param value the value
     * @return the problem, or null
     */
    public static @Nullable String standardOrUrlSafeBase64(String value) {
        return base64(value, true);
    }

    /**
     * Checks an encrypted reasoning blob whose format varies by server: not empty, and, when it is
     * a Fernet token (it starts {@code gAAAA}, as OpenAI's {@code encrypted_content} does), padded
     * URL-safe base64 as every Fernet token is. Other servers' blobs (xAI's unpadded base64,
     * DeepSeek's and Bedrock Mantle's own forms) are only required to be non-empty.
     *
     * @param value the value
     * @return the problem, or null
     */
    public static @Nullable String encryptedBlob(String value) {
        if (value.isEmpty()) {
            return "empty";
        }
        return value.startsWith("gAAAA") ? base64(value, true) : null;
    }

    private static @Nullable String base64(String value, boolean urlSafeAllowed) {
        if (value.isEmpty()) {
            return "empty";
        }
        int n = value.length();
        int pad = 0;
        while (pad < 2 && pad < n && value.charAt(n - 1 - pad) == '=') {
            pad++;
        }
        boolean standard = false;
        boolean urlSafe = false;
        for (int i = 0; i < n - pad; i++) {
            char c = value.charAt(i);
            if (c == '+' || c == '/') {
                standard = true;
            } else if (c == '-' || c == '_') {
                if (!urlSafeAllowed) {
                    return "not standard base64: a URL-safe character at position " + i;
                }
                urlSafe = true;
            } else if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9')) {
                return "not base64: an invalid character at position " + i + " of " + n;
            }
        }
        if (standard && urlSafe) {
            return "not base64: mixes the standard and URL-safe alphabets";
        }
        if (n % 4 != 0) {
            return "not padded base64: length " + n + " is not a multiple of 4 (truncated or cut)";
        }
        return null;
    }
}
