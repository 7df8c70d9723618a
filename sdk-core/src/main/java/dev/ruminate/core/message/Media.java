package dev.ruminate.core.message;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An image or a document given to the model in a {@link UserMessage} or a
 * {@link ToolResultMessage}: either by URL, for the provider to fetch, or by its bytes with a media
 * type. Each provider family encodes it in its own form (an {@code image_url} part, an Anthropic
 * {@code image} or {@code document} block, Gemini {@code inlineData} or {@code fileData}, Bedrock
 * {@code image} or {@code document} content, Ollama {@code images}) and refuses, before any request is
 * made, a kind, media type, source or size its API does not take, with an
 * {@link dev.ruminate.core.error.UnsupportedInputException}.
 *
 * <p>Immutable and thread-safe: the bytes are copied in and copied out. {@link #toString()} shows the
 * kind, the media type, the size and the URL's scheme and host, never the bytes or a URL's path and
 * query (which may carry a signed token).
 *
 * @since 0.3
 */
public final class Media {

    /** What the media is. */
    public enum Kind {
        /** A picture: {@code image/png}, {@code image/jpeg}, {@code image/gif}, {@code image/webp} and others. */
        IMAGE,
        /** A document: {@code application/pdf}, {@code text/plain} and others, per provider. */
        DOCUMENT
    }

    private final Kind kind;
    private final @Nullable String mediaType;
    private final @Nullable URI url;
    private final byte @Nullable [] data;
    private final @Nullable String name;

    private Media(Kind kind, @Nullable String mediaType, @Nullable URI url, byte @Nullable [] data, @Nullable String name) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.mediaType = mediaType == null ? null : normalized(mediaType);
        this.url = url;
        this.data = data;
        this.name = name;
        if (name != null && name.isBlank()) {
            throw new IllegalArgumentException("a media name must not be blank");
        }
    }

    /**
     * An image given by its bytes.
     *
     * @param data the encoded image (copied)
     * @param mediaType its media type, such as {@code image/png}
     * @return the media
     * @throws IllegalArgumentException if the data is empty or the media type is not an image type
     */
    public static Media image(byte[] data, String mediaType) {
        requireType(mediaType, "image/");
        return new Media(Kind.IMAGE, mediaType, null, copyNonEmpty(data), null);
    }

    /**
     * An image the provider fetches from a URL ({@code https:}, or a provider's own scheme such as
     * {@code gs:} or {@code s3:}).
     *
     * @param url the URL
     * @param mediaType its media type, or null to leave it to the provider (some require it)
     * @return the media
     * @throws IllegalArgumentException if the URL is not absolute, or the media type is not an image type
     */
    public static Media imageUrl(String url, @Nullable String mediaType) {
        if (mediaType != null) {
            requireType(mediaType, "image/");
        }
        return new Media(Kind.IMAGE, mediaType, absolute(url), null, null);
    }

    /**
     * A document given by its bytes.
     *
     * @param data the document (copied)
     * @param mediaType its media type, such as {@code application/pdf}
     * @param name a file name for the model and for APIs that want one, or null
     * @return the media
     * @throws IllegalArgumentException if the data is empty or the media type is malformed
     */
    public static Media document(byte[] data, String mediaType, @Nullable String name) {
        requireType(mediaType, "");
        return new Media(Kind.DOCUMENT, mediaType, null, copyNonEmpty(data), name);
    }

    /**
     * A document the provider fetches from a URL.
     *
     * @param url the URL
     * @param mediaType its media type, or null to leave it to the provider (some require it)
     * @param name a file name, or null
     * @return the media
     * @throws IllegalArgumentException if the URL is not absolute or the media type is malformed
     */
    public static Media documentUrl(String url, @Nullable String mediaType, @Nullable String name) {
        if (mediaType != null) {
            requireType(mediaType, "");
        }
        return new Media(Kind.DOCUMENT, mediaType, absolute(url), null, name);
    }

    /**
     * Returns what the media is.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * Returns the media type, lower case without parameters, such as {@code image/png}.
     *
     * @return the media type; null only for a URL given without one
     */
    public @Nullable String mediaType() {
        return mediaType;
    }

    /**
     * Returns the URL the provider fetches the media from.
     *
     * @return the URL, or null for media given by its bytes
     */
    public @Nullable URI url() {
        return url;
    }

    /**
     * Tells whether the media is given by its bytes (else by URL).
     *
     * @return true for bytes
     */
    public boolean hasData() {
        return data != null;
    }

    /**
     * Returns a copy of the bytes.
     *
     * @return the bytes, or null for media given by URL
     */
    public byte @Nullable [] data() {
        return data == null ? null : data.clone();
    }

    /**
     * Returns the number of bytes, what size limits are checked against.
     *
     * @return the size, 0 for media given by URL
     */
    public int size() {
        return data == null ? 0 : data.length;
    }

    /**
     * Returns the bytes in standard base64 with padding, the form every JSON API takes them in.
     *
     * @return the base64 text
     * @throws IllegalStateException for media given by URL
     */
    public String base64() {
        if (data == null) {
            throw new IllegalStateException("media given by URL has no bytes");
        }
        return Base64.getEncoder().encodeToString(data);
    }

    /**
     * Returns the bytes as a {@code data:} URL ({@code data:image/png;base64,…}), the form OpenAI's
     * APIs take inline media in.
     *
     * @return the data URL
     * @throws IllegalStateException for media given by URL
     */
    public String dataUrl() {
        return "data:" + mediaType + ";base64," + base64();
    }

    /**
     * Returns the file name given with a document.
     *
     * @return the name, or null
     */
    public @Nullable String name() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Media m && kind == m.kind && Objects.equals(mediaType, m.mediaType) && Objects.equals(url, m.url)
                && Arrays.equals(data, m.data) && Objects.equals(name, m.name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, mediaType, url, Arrays.hashCode(data), name);
    }

    @Override
    public String toString() {
        String source = url != null ? url.getScheme() + "://" + (url.getHost() == null ? "" : url.getHost()) + "/…"
                : size() + " bytes";
        return "Media[" + kind.name().toLowerCase(Locale.ROOT) + " " + (mediaType == null ? "?" : mediaType) + ", " + source
                + (name != null ? ", " + name : "") + "]";
    }

    private static byte[] copyNonEmpty(byte[] data) {
        Objects.requireNonNull(data, "data");
        if (data.length == 0) {
            throw new IllegalArgumentException("media bytes must not be empty");
        }
        return data.clone();
    }

    private static URI absolute(String url) {
        Objects.requireNonNull(url, "url");
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            // not chained: the parser's message quotes the whole URL, whose query may hold a signed token
            String why = e.getCause() instanceof URISyntaxException s ? " (" + s.getReason() + " at index " + s.getIndex() + ")"
                    : "";
            throw new IllegalArgumentException("not a URL: the media URL could not be parsed" + why);
        }
        if (!uri.isAbsolute() || "data".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("a media URL must be absolute (give inline bytes with Media.image or "
                    + "Media.document, not a data: URL)");
        }
        return uri;
    }

    private static void requireType(String mediaType, String prefix) {
        Objects.requireNonNull(mediaType, "mediaType");
        String t = normalized(mediaType);
        int slash = t.indexOf('/');
        if (slash <= 0 || slash == t.length() - 1 || t.indexOf('/', slash + 1) >= 0 || !t.startsWith(prefix)) {
            throw new IllegalArgumentException("not " + (prefix.isEmpty() ? "a media type" : "an " + prefix + "* media type")
                    + ": " + mediaType);
        }
    }

    private static String normalized(String mediaType) {
        int semi = mediaType.indexOf(';');
        return (semi >= 0 ? mediaType.substring(0, semi) : mediaType).trim().toLowerCase(Locale.ROOT);
    }
}
