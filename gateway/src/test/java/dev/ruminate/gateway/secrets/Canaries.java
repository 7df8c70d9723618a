package dev.ruminate.gateway.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Recognisable fake secrets, each a unique string, and the check that none of them appears in a
 * text in any form it could take there: as is, base64 (standard and URL-safe), URL-encoded,
 * JSON-escaped ({@code \/}) and, for derived keys registered as bytes, hex.
 *
 * <p>Thread-safe: secrets may be registered while a check runs (a SigV4 signing key is derived per
 * request date).
 */
final class Canaries {

    private static final SecureRandom RANDOM = new SecureRandom();
    /** Each form a secret may take in a text, by what it is, to name it when found. */
    private final Map<String, String> forms = new ConcurrentHashMap<>();

    /** How much of a secret's end may be missing for what is left to count as the secret: a cut excerpt. */
    static final int CUT = 8;

    /**
     * A new secret, {@code <prefix>-SECRET-canary-<random>}, registered with its forms and with its start
     * (all but its last {@value #CUT} characters): an excerpt cut inside the secret shows that much.
     */
    String mint(String prefix) {
        String secret = register(prefix, prefix + "-SECRET-canary-" + HexFormat.of().formatHex(bytes(8)));
        forms.putIfAbsent(secret.substring(0, secret.length() - CUT), prefix + " (cut short)");
        return secret;
    }

    /** Registers a secret of a fixed shape (an AWS secret key, with its {@code /} and {@code +}). */
    String register(String name, String secret) {
        Map<String, String> of = new LinkedHashMap<>();
        of.put(secret, name);
        // a form that equals another (a secret without '/' is its own JSON escape) keeps the first name
        of.putIfAbsent(Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8)), name + " (base64)");
        of.putIfAbsent(Base64.getUrlEncoder().withoutPadding().encodeToString(secret.getBytes(StandardCharsets.UTF_8)),
                name + " (base64url)");
        of.putIfAbsent(URLEncoder.encode(secret, StandardCharsets.UTF_8), name + " (url-encoded)");
        of.putIfAbsent(secret.replace("/", "\\/"), name + " (json-escaped)");
        forms.putAll(of);
        return secret;
    }

    /** Registers a key that is bytes (a derived signing key, an AES key): its hex and base64 forms. */
    void registerBytes(String name, byte[] key) {
        forms.put(HexFormat.of().formatHex(key), name + " (hex)");
        forms.put(Base64.getEncoder().encodeToString(key), name + " (base64)");
        forms.put(Base64.getUrlEncoder().withoutPadding().encodeToString(key), name + " (base64url)");
    }

    static byte[] bytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    /** The secrets found in a text, by name; empty when it is clean. */
    List<String> foundIn(String text) {
        List<String> found = new ArrayList<>();
        forms.forEach((form, name) -> {
            if (text.contains(form)) {
                found.add(name);
            }
        });
        return found;
    }

    /** Fails, naming the place and the secret but printing neither the text nor the secret, if the text holds one. */
    void assertClean(String where, String text) {
        assertThat(foundIn(text)).as("a secret in %s", where).isEmpty();
    }

    /** True when a text holds this one secret as is: for checks that it did reach where it must. */
    static boolean holds(String text, String secret) {
        return text.contains(secret);
    }
}
