package dev.ruminate.providers.bedrock;

import dev.ruminate.transport.http.RequestSigner;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * Signs HTTP requests with AWS Signature Version 4 (header-based, {@code AWS4-HMAC-SHA256}).
 *
 * <p>The canonical URI is built from the path as it goes on the wire: dot segments and repeated
 * slashes are removed (as every AWS service but S3 expects), then each segment is URI-encoded. A
 * wire path is already percent-encoded, so its escapes are encoded again: a Bedrock model id
 * {@code …-v1:0} is {@code …-v1%3A0} on the wire and {@code …-v1%253A0} in the canonical URI, as
 * bedrock-runtime computes it. The query is decoded and re-encoded per parameter, then sorted by
 * name and value, so a repeated name keeps all its values. Header values are trimmed with inner
 * runs of whitespace collapsed, repeated names joined with commas; every header given is signed.
 *
 * <p>The signer adds {@code X-Amz-Date} when the request lacks it, and
 * {@code X-Amz-Security-Token} when the credentials hold a session token the request lacks; both
 * are signed. The secret access key is used for the HMAC only and never appears in the results
 * (the authorization value holds the key id, scope and signature). The session token must be sent:
 * it goes out as a {@linkplain dev.ruminate.transport.http.RequestSigner#secretHeader secret header},
 * and the canonical request that contains it is left out of {@link Signed#toString()}.
 *
 * <p>Immutable and thread-safe.
 */
final class SigV4Signer {

    static final String ALGORITHM = "AWS4-HMAC-SHA256";
    private static final DateTimeFormatter AMZ_DATE =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final char[] HEX_UPPER = "0123456789ABCDEF".toCharArray();

    private final String region;
    private final String service;

    SigV4Signer(String region, String service) {
        this.region = requireToken(region, "region");
        this.service = requireToken(service, "service");
    }

    /**
     * What signing produced.
     *
     * @param addedHeaders the headers to send in addition to the request's own, in order
     *     ({@code X-Amz-Date}, {@code X-Amz-Security-Token} when added, {@code Authorization})
     * @param canonicalRequest the canonical request, for diagnostics and tests
     * @param stringToSign the string to sign
     * @param authorization the {@code Authorization} header value
     */
    record Signed(List<Map.Entry<String, String>> addedHeaders, String canonicalRequest, String stringToSign,
                  String authorization) {

        /** Leaves out the canonical request, which holds the session token as a signed header. */
        @Override
        public String toString() {
            return "Signed[addedHeaders=" + addedHeaders + ", authorization=" + authorization + "]";
        }
    }

    /**
     * Signs a request.
     *
     * @param method the HTTP method
     * @param path the path as sent on the wire, starting with {@code /} (empty means {@code /})
     * @param rawQuery the query after {@code ?} as sent, or null for none
     * @param headers the headers that will be sent (including {@code Host}), in order; all are signed
     * @param body the body bytes
     * @param credentials the credentials
     * @param now the signing time
     * @return the headers to add and the signature's intermediate values
     */
    Signed sign(String method, String path, @Nullable String rawQuery, List<Map.Entry<String, String>> headers,
                byte[] body, AwsCredentials credentials, Instant now) {
        Objects.requireNonNull(credentials, "credentials");
        List<Map.Entry<String, String>> all = new ArrayList<>(headers);
        List<Map.Entry<String, String>> added = new ArrayList<>(3);
        String amzDate = headerValue(all, "x-amz-date");
        if (amzDate == null) {
            amzDate = AMZ_DATE.format(now);
            added.add(Map.entry("X-Amz-Date", amzDate));
        }
        if (credentials.sessionToken() != null && headerValue(all, "x-amz-security-token") == null) {
            added.add(RequestSigner.secretHeader("X-Amz-Security-Token", "", credentials.sessionToken()));
        }
        all.addAll(added);

        TreeMap<String, String> canonicalHeaders = canonicalHeaders(all);
        String signedHeaders = String.join(";", canonicalHeaders.keySet());
        StringBuilder creq = new StringBuilder(256)
                .append(method).append('\n')
                .append(canonicalUri(path)).append('\n')
                .append(canonicalQuery(rawQuery)).append('\n');
        canonicalHeaders.forEach((name, value) -> creq.append(name).append(':').append(value).append('\n'));
        creq.append('\n').append(signedHeaders).append('\n').append(hex(sha256(body)));
        String canonicalRequest = creq.toString();

        String date = amzDate.substring(0, 8);
        String scope = date + "/" + region + "/" + service + "/aws4_request";
        String stringToSign = ALGORITHM + "\n" + amzDate + "\n" + scope + "\n"
                + hex(sha256(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
        byte[] key = hmac(("AWS4" + credentials.secretAccessKey().reveal()).getBytes(StandardCharsets.UTF_8), date);
        key = hmac(key, region);
        key = hmac(key, service);
        key = hmac(key, "aws4_request");
        String signature = hex(hmac(key, stringToSign));
        String authorization = ALGORITHM + " Credential=" + credentials.accessKeyId() + "/" + scope
                + ", SignedHeaders=" + signedHeaders + ", Signature=" + signature;
        added.add(Map.entry("Authorization", authorization));
        return new Signed(List.copyOf(added), canonicalRequest, stringToSign, authorization);
    }

    /** Normalizes a wire path and URI-encodes each of its segments. */
    static String canonicalUri(String path) {
        if (path.isEmpty()) {
            return "/";
        }
        List<String> segments = new ArrayList<>();
        for (String segment : path.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (!segments.isEmpty()) {
                    segments.remove(segments.size() - 1);
                }
                continue;
            }
            segments.add(segment);
        }
        boolean trailingSlash = path.endsWith("/") && !segments.isEmpty();
        StringBuilder sb = new StringBuilder(path.length() + 16);
        for (String segment : segments) {
            sb.append('/');
            uriEncode(segment, sb);
        }
        if (sb.length() == 0 || trailingSlash) {
            sb.append('/');
        }
        return sb.toString();
    }

    /** Decodes each parameter of a raw query, re-encodes it, and sorts by name, then value. */
    static String canonicalQuery(@Nullable String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return "";
        }
        List<String[]> params = new ArrayList<>();
        for (String pair : rawQuery.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            params.add(new String[] {uriEncode(percentDecode(name)), uriEncode(percentDecode(value))});
        }
        params.sort(Comparator.<String[], String>comparing(p -> p[0]).thenComparing(p -> p[1]));
        StringBuilder sb = new StringBuilder(rawQuery.length() + 16);
        for (String[] p : params) {
            if (sb.length() > 0) {
                sb.append('&');
            }
            sb.append(p[0]).append('=').append(p[1]);
        }
        return sb.toString();
    }

    private static TreeMap<String, String> canonicalHeaders(List<Map.Entry<String, String>> headers) {
        TreeMap<String, String> out = new TreeMap<>();
        for (Map.Entry<String, String> h : headers) {
            String name = h.getKey().trim().toLowerCase(Locale.ROOT);
            String value = collapseWhitespace(h.getValue());
            out.merge(name, value, (a, b) -> a + "," + b);
        }
        return out;
    }

    private static String collapseWhitespace(String value) {
        StringBuilder sb = new StringBuilder(value.length());
        boolean space = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                space = sb.length() > 0;
            } else {
                if (space) {
                    sb.append(' ');
                    space = false;
                }
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static @Nullable String headerValue(List<Map.Entry<String, String>> headers, String lowerName) {
        for (Map.Entry<String, String> h : headers) {
            if (h.getKey().trim().toLowerCase(Locale.ROOT).equals(lowerName)) {
                return h.getValue().trim();
            }
        }
        return null;
    }

    /** Encodes everything but the unreserved characters {@code A-Z a-z 0-9 - _ . ~}, byte by byte of UTF-8. */
    static String uriEncode(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 8);
        uriEncode(text, sb);
        return sb.toString();
    }

    private static void uriEncode(String text, StringBuilder sb) {
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || c == '.' || c == '~') {
                sb.append((char) c);
            } else {
                sb.append('%').append(HEX_UPPER[c >> 4]).append(HEX_UPPER[c & 0xf]);
            }
        }
    }

    /** Decodes {@code %XX} escapes as UTF-8; a malformed escape stays as it is. */
    private static String percentDecode(String text) {
        if (text.indexOf('%') < 0) {
            return text;
        }
        byte[] raw = text.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[raw.length];
        int n = 0;
        for (int i = 0; i < raw.length; i++) {
            int hi;
            int lo;
            if (raw[i] == '%' && i + 2 < raw.length && (hi = Character.digit(raw[i + 1], 16)) >= 0
                    && (lo = Character.digit(raw[i + 2], 16)) >= 0) {
                out[n++] = (byte) ((hi << 4) | lo);
                i += 2;
            } else {
                out[n++] = raw[i];
            }
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every Java platform has HmacSHA256", e);
        }
    }

    private static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = HEX[bytes[i] & 0xf];
        }
        return new String(out);
    }

    private static String requireToken(String value, String what) {
        Objects.requireNonNull(value, what);
        if (value.isBlank() || value.indexOf('/') >= 0) {
            throw new IllegalArgumentException(what + " must be a non-blank name without '/', was '" + value + "'");
        }
        return value;
    }
}
