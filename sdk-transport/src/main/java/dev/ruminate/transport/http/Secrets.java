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
    /**
     * The shortest start of a secret removed where an excerpt was cut inside it: fewer characters are
     * a key's public prefix ({@code sk-}) at most, and removing them would blank ordinary text.
     */
    static final int SHORTEST_CUT = 4;
    private static final String REDACTED = "[REDACTED]";
    /** What marks the place where an excerpt was cut ({@code Excerpts.oneLine}, the decoders' payload excerpts). */
    private static final char CUT_MARK = '\u2026';

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

    /** Whether a text holds any known secret, or one of the request's, whole or cut short by an excerpt. */
    boolean appearIn(@Nullable String text, List<ApiKey> request) {
        return text != null && !text.equals(redact(text, request));
    }

    /**
     * Replaces every known secret, and the request's, with {@code [REDACTED]}; and where an excerpt was
     * cut inside one (the text before a {@code …} ends with the start of a secret), that start too.
     */
    @Nullable String redact(@Nullable String text, List<ApiKey> request) {
        if (text == null) {
            return null;
        }
        List<String> values = values(request);
        String out = text;
        for (String secret : values) {
            out = out.replace(secret, REDACTED);
        }
        return redactCutShort(out, values);
    }

    /** Replaces the start of a secret that ends where an excerpt was cut, at each cut mark. */
    private static String redactCutShort(String text, List<String> secrets) {
        int at = text.indexOf(CUT_MARK);
        if (at < 0 || secrets.isEmpty()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int from = 0;
        for (; at >= 0; at = text.indexOf(CUT_MARK, at + 1)) {
            int start = cutStart(text, from, at, secrets);
            out.append(text, from, start);
            if (start < at) {
                out.append(REDACTED);
            }
            from = at;
        }
        return out.append(text, from, text.length()).toString();
    }

    /** Where the longest start of a secret that ends at {@code end} begins (not before {@code from}); {@code end} if none does. */
    private static int cutStart(String text, int from, int end, List<String> secrets) {
        int start = end;
        for (String secret : secrets) {
            for (int length = Math.min(secret.length() - 1, end - from); length >= SHORTEST_CUT; length--) {
                if (text.regionMatches(end - length, secret, 0, length)) {
                    start = Math.min(start, end - length);
                    break;
                }
            }
        }
        return start;
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
