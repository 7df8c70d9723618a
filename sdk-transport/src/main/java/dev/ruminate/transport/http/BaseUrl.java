package dev.ruminate.transport.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The root URL of a provider's API, normalised one way for every provider: an absolute
 * {@code http} or {@code https} URL with a host, its path without trailing slashes, and its query
 * (Azure's {@code ?api-version=…}, say) kept and sent after every endpoint path. A fragment or
 * user info in the URL is refused: credentials go in the key or signer, where they are redacted,
 * never in a URL that might be printed.
 *
 * <p>{@link #toString()} shows scheme, host, port and path only, never the query.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class BaseUrl {

    private final URI uri;
    /** Scheme, authority and path, without trailing slashes. */
    private final String root;
    private final @Nullable String query;

    private BaseUrl(URI uri, String root, @Nullable String query) {
        this.uri = uri;
        this.root = root;
        this.query = query;
    }

    /**
     * Parses and normalises a base URL.
     *
     * @param url an absolute {@code http} or {@code https} URL, e.g. {@code https://api.deepseek.com/v1/}
     * @return the base URL
     * @throws IllegalArgumentException if it is not a valid absolute http(s) URL with a host, or
     *     has user info or a fragment
     */
    public static BaseUrl of(String url) {
        Objects.requireNonNull(url, "url");
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the base URL is not a valid URI: " + e.getReason(), e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException("the base URL must be an absolute http or https URL with a host, was "
                    + shown(uri));
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("the base URL must not carry user info: give credentials as a key");
        }
        if (uri.getRawFragment() != null) {
            throw new IllegalArgumentException("the base URL must not have a fragment");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        int end = path.length();
        while (end > 0 && path.charAt(end - 1) == '/') {
            end--;
        }
        String root = scheme + "://" + uri.getRawAuthority() + path.substring(0, end);
        return new BaseUrl(uri, root, uri.getRawQuery());
    }

    /** The URL for a message: without user info, query or fragment, which may hold secrets. */
    private static String shown(URI uri) {
        if (uri.getRawAuthority() == null) {
            return (uri.getScheme() == null ? "" : uri.getScheme() + ":")
                    + (uri.getRawSchemeSpecificPart() == null || uri.getScheme() == null ? "" : "…");
        }
        String host = uri.getHost() != null ? uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "")
                : uri.getRawAuthority().substring(uri.getRawAuthority().indexOf('@') + 1);
        return uri.getScheme() + "://" + host + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    /**
     * Chooses the configured base URL, else a provider's default.
     *
     * @param configured the URL the user set, or null
     * @param fallback the provider's default, or null when it has none
     * @param provider the provider's name, for the error message
     * @return the base URL
     * @throws IllegalStateException if neither is set
     * @throws IllegalArgumentException as {@link #of(String)}
     */
    public static BaseUrl of(@Nullable String configured, @Nullable String fallback, String provider) {
        String url = configured != null ? configured : fallback;
        if (url == null) {
            throw new IllegalStateException(provider + " has no default base URL: give one with baseUrl(...)");
        }
        return of(url);
    }

    /**
     * Returns an endpoint below this root: the path appended, then the path's own query, then the
     * base URL's query.
     *
     * @param path the endpoint path, starting with {@code /}, already percent-encoded, with an
     *     optional query ({@code /models/m:streamGenerateContent?alt=sse})
     * @return the endpoint
     * @throws IllegalArgumentException if the path does not start with {@code /}
     */
    public URI resolve(String path) {
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("an endpoint path starts with '/', was " + path);
        }
        String joined = root + path;
        if (query != null) {
            joined += (path.indexOf('?') >= 0 ? "&" : "?") + query;
        }
        return URI.create(joined);
    }

    /**
     * Returns the URL as given, normalised by {@link URI}; it may hold a query.
     *
     * @return the URI
     */
    public URI uri() {
        return uri;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BaseUrl b && b.root.equals(root) && Objects.equals(b.query, query);
    }

    @Override
    public int hashCode() {
        return root.hashCode() * 31 + Objects.hashCode(query);
    }

    /** Scheme, host, port and path: never the query, which may carry a key. */
    @Override
    public String toString() {
        return root;
    }
}
