package dev.ruminate.transport.http;

import dev.ruminate.core.error.ProviderError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The secrets an exchange has sent, so that none of them is repeated in an error it reports: its
 * API key, and the secrets of the headers its signer added to recent requests ({@link SecretHeader}).
 *
 * <p>A signer's secrets change (a token is refreshed, credentials rotate), and an error that
 * echoes one may be raised after the exchange has handed the body over (a decoder quoting an
 * in-stream error), so the last {@value #REMEMBERED} distinct ones are remembered; the secrets of
 * the request at hand are passed to each call as well, so that they are covered whatever else
 * happens meanwhile.
 *
 * <p>Thread-safe: the memory is replaced atomically, never modified in place.
 */
final class Secrets {

    /** How many distinct signer secrets are remembered: more than a rotation's overlap needs. */
    static final int REMEMBERED = 8;
    private static final String REDACTED = "[REDACTED]";

    private final @Nullable ApiKey apiKey;
    private final AtomicReference<List<ApiKey>> recent = new AtomicReference<>(List.of());

    Secrets(@Nullable ApiKey apiKey) {
        this.apiKey = apiKey;
    }

    /**
     * Returns the secrets of one signed request's headers, remembering them.
     *
     * @param headers the headers the signer returned
     * @return their secrets, possibly none
     */
    List<ApiKey> remember(List<Map.Entry<String, String>> headers) {
        List<ApiKey> found = new ArrayList<>(1);
        for (Map.Entry<String, String> header : headers) {
            if (header instanceof SecretHeader s) {
                found.add(s.secret());
            }
        }
        for (ApiKey secret : found) {
            recent.updateAndGet(known -> with(known, secret));
        }
        return found;
    }

    private static List<ApiKey> with(List<ApiKey> known, ApiKey secret) {
        String value = value(secret);
        List<ApiKey> next = new ArrayList<>(REMEMBERED);
        next.add(secret);
        for (ApiKey k : known) {
            if (next.size() == REMEMBERED) {
                break;
            }
            if (!value(k).equals(value)) {
                next.add(k);
            }
        }
        return List.copyOf(next);
    }

    /** Whether a text holds any known secret, or one of the request's. */
    boolean appearIn(@Nullable String text, List<ApiKey> request) {
        if (text == null) {
            return false;
        }
        for (String secret : values(request)) {
            if (text.contains(secret)) {
                return true;
            }
        }
        return false;
    }

    /** Replaces every known secret, and the request's, with {@code [REDACTED]}. */
    @Nullable String redact(@Nullable String text, List<ApiKey> request) {
        if (text == null) {
            return null;
        }
        String out = text;
        for (String secret : values(request)) {
            out = out.replace(secret, REDACTED);
        }
        return out;
    }

    ProviderError redact(ProviderError error, List<ApiKey> request) {
        return new ProviderError(redact(error.type(), request), redact(error.code(), request),
                redact(error.message(), request), redact(error.param(), request));
    }

    /** The secret values, longest first: a secret that contains another must go whole. */
    private List<String> values(List<ApiKey> request) {
        List<String> out = new ArrayList<>();
        if (apiKey != null) {
            out.add(value(apiKey));
        }
        for (ApiKey k : request) {
            out.add(value(k));
        }
        for (ApiKey k : recent.get()) {
            out.add(value(k));
        }
        out.sort((a, b) -> Integer.compare(b.length(), a.length()));
        return out;
    }

    /** The one place redaction reads a secret: to find and replace its echoes. */
    private static String value(ApiKey secret) {
        return secret.reveal();
    }
}
