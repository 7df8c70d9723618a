package dev.ruminate.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP request the emulator received, kept so that a test can check what the client sent.
 *
 * <p>{@link #toString()} hides credentials: the values of the {@code Authorization},
 * {@code Proxy-Authorization}, {@code x-api-key}, {@code api-key} and {@code x-goog-api-key}
 * headers and of the {@code key} query parameter are printed as {@code <redacted>}, so a failing
 * assertion never prints an API key. The accessors return the real values.
 *
 * <pre>{@code
 * RecordedRequest sent = emulator.requests().get(0);
 * assertThat(sent.path()).isEqualTo("/v1/chat/completions");
 * assertThat(sent.header("authorization")).isEqualTo("Bearer test-key");
 * assertThat(sent.body()).contains("\"stream\":true");
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param method the HTTP method, upper case ({@code POST})
 * @param path the request target as received: path and query string ({@code /v1/models?limit=2})
 * @param headers the headers by name; lookups ignore case, and repeated headers keep their values in order
 * @param body the body decoded as UTF-8 (malformed input replaced), empty when there was none
 * @param rejectedBy the name of the {@linkplain AcceptanceRule acceptance rule} that refused the request, or
 *     {@code null} when it was served normally (or the emulator was not {@linkplain ProviderEmulator#checking checking})
 * @since 0.1
 */
public record RecordedRequest(String method, String path, Map<String, List<String>> headers, String body,
        @Nullable String rejectedBy) {

    private static final String REDACTED = "<redacted>";
    private static final List<String> SECRET_HEADERS =
            List.of("authorization", "proxy-authorization", "x-api-key", "api-key", "x-goog-api-key", "x-amz-security-token");
    private static final List<String> SECRET_QUERY_PARAMETERS = List.of("key", "api-key", "api_key");

    /**
     * Validates and copies the values; the header map becomes case-insensitive and unmodifiable.
     *
     * @param method the HTTP method
     * @param path the path and query
     * @param headers the headers by name
     * @param body the body text
     * @param rejectedBy the rule that refused it, or null
     */
    public RecordedRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(body, "body");
        TreeMap<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((name, values) -> copy.merge(name, List.copyOf(values), RecordedRequest::concat));
        headers = Collections.unmodifiableMap(copy);
    }

    /**
     * Records a request that no acceptance rule refused.
     *
     * @param method the HTTP method
     * @param path the path and query
     * @param headers the headers by name
     * @param body the body text
     * @since 0.1
     */
    public RecordedRequest(String method, String path, Map<String, List<String>> headers, String body) {
        this(method, path, headers, body, null);
    }

    /**
     * Returns this request as refused by a rule.
     *
     * @param rule the name of the rule that refused it
     * @return a copy with {@link #rejectedBy()} set
     * @since 0.2
     */
    public RecordedRequest rejected(String rule) {
        return new RecordedRequest(method, path, headers, body, Objects.requireNonNull(rule, "rule"));
    }

    /**
     * Returns the first value of a header.
     *
     * @param name the header name, any case
     * @return the first value, or {@code null} when the request had no such header
     * @since 0.1
     */
    public @Nullable String header(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /**
     * Describes the request with credentials redacted.
     *
     * @return method, path, headers and body, with secret values replaced by {@code <redacted>}
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("RecordedRequest[").append(method).append(' ').append(redactQuery(path));
        sb.append(", headers={");
        boolean first = true;
        for (Map.Entry<String, List<String>> header : headers.entrySet()) {
            if (!first) {
                sb.append(", ");
            }
            first = false;
            boolean secret = isSecretHeader(header.getKey());
            sb.append(header.getKey()).append('=');
            sb.append(secret ? Collections.nCopies(header.getValue().size(), REDACTED) : header.getValue());
        }
        sb.append("}, body=").append(body);
        if (rejectedBy != null) {
            sb.append(", rejectedBy=").append(rejectedBy);
        }
        return sb.append(']').toString();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    private static boolean isSecretHeader(String name) {
        for (String secret : SECRET_HEADERS) {
            if (secret.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isSecretParameter(String name) {
        for (String secret : SECRET_QUERY_PARAMETERS) {
            if (secret.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    // Gemini accepts the API key as ?key=…, so the query string needs the same care as the headers.
    private static String redactQuery(String target) {
        int query = target.indexOf('?');
        if (query < 0) {
            return target;
        }
        StringBuilder sb = new StringBuilder(target.length()).append(target, 0, query + 1);
        int start = query + 1;
        while (start <= target.length()) {
            int end = target.indexOf('&', start);
            if (end < 0) {
                end = target.length();
            }
            int equals = target.indexOf('=', start);
            if (equals >= 0 && equals < end && isSecretParameter(target.substring(start, equals))) {
                sb.append(target, start, equals + 1).append(REDACTED);
            } else {
                sb.append(target, start, end);
            }
            if (end < target.length()) {
                sb.append('&');
            }
            start = end + 1;
        }
        return sb.toString();
    }
}
