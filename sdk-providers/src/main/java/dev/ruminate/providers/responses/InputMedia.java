package dev.ruminate.providers.responses;

import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.core.message.Media;
import java.util.Base64;
import java.util.Locale;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * Reads a client's {@code input_image} and {@code input_file} content parts into {@link Media}, for
 * {@link ResponsesInput}: an image by {@code image_url} (a base64 {@code data:} URL of an image type,
 * or an http(s) URL), a file by {@code file_data} (a base64 {@code data:} URL, with its
 * {@code filename}) or {@code file_url}. What has no neutral form is refused, never dropped:
 * {@code file_id} (a file stored at OpenAI that only OpenAI can resolve), other URL schemes, data that
 * is not base64. The image's {@code detail} is not carried ({@link Media} has no such setting; the
 * upstream's default applies).
 *
 * <p>Errors name the part's path and what is wrong, never its data or URL. Stateless and thread-safe.
 */
final class InputMedia {

    private InputMedia() {
    }

    /** Tells whether a content part type is one this reader turns into media. */
    static boolean isMedia(@Nullable String type) {
        return "input_image".equals(type) || "input_file".equals(type);
    }

    /**
     * Reads one {@code input_image} or {@code input_file} part.
     *
     * @param part the part
     * @param fail makes the error for a place and what is wrong with it
     * @return the media
     */
    static Media read(JsonTree.Obj part, BiFunction<String, String, RuntimeException> fail) {
        boolean image = "input_image".equals(part.string("type"));
        if (part.has("file_id")) {
            throw fail.apply(part.where("file_id"), "is a stored file reference, which this service cannot pass on;"
                    + " give the " + (image ? "image_url" : "file_data or file_url") + " instead");
        }
        if (image) {
            String url = part.string("image_url");
            if (url == null) {
                throw fail.apply(part.where("image_url"), "is required");
            }
            if (isData(url)) {
                Decoded d = decode(url, part.where("image_url"), fail);
                if (!d.type.startsWith("image/")) {
                    throw fail.apply(part.where("image_url"), "must be a data URL with an image MIME type");
                }
                return Media.image(d.bytes, d.type);
            }
            return Media.imageUrl(httpUrl(url, part.where("image_url"), fail), null);
        }
        String name = part.string("filename");
        if (name != null && name.isBlank()) {
            name = null;
        }
        String data = part.string("file_data");
        if (data != null) {
            if (!isData(data)) {
                throw fail.apply(part.where("file_data"), "must be a base64 data URL (data:<type>;base64,...)");
            }
            Decoded d = decode(data, part.where("file_data"), fail);
            return Media.document(d.bytes, d.type, name);
        }
        String url = part.string("file_url");
        if (url == null) {
            throw fail.apply(part.where("file_data"), "or file_url is required");
        }
        return Media.documentUrl(httpUrl(url, part.where("file_url"), fail), null, name);
    }

    private static boolean isData(String url) {
        return url.regionMatches(true, 0, "data:", 0, 5);
    }

    private record Decoded(String type, byte[] bytes) {
    }

    private static Decoded decode(String url, String where, BiFunction<String, String, RuntimeException> fail) {
        int comma = url.indexOf(',');
        String header = comma < 0 ? "" : url.substring(5, comma).toLowerCase(Locale.ROOT);
        if (comma < 0 || !header.endsWith(";base64")) {
            throw fail.apply(where, "must be a base64 data URL (data:<type>;base64,...)");
        }
        int semi = header.indexOf(';');
        String type = header.substring(0, semi).trim();
        int slash = type.indexOf('/');
        if (slash <= 0 || slash == type.length() - 1) {
            throw fail.apply(where, "must name a MIME type (data:<type>;base64,...)");
        }
        byte[] bytes;
        try {
            bytes = Base64.getMimeDecoder().decode(url.substring(comma + 1));
        } catch (IllegalArgumentException e) {
            throw fail.apply(where, "is not valid base64");
        }
        if (bytes.length == 0) {
            throw fail.apply(where, "holds no data");
        }
        return new Decoded(type, bytes);
    }

    private static String httpUrl(String url, String where, BiFunction<String, String, RuntimeException> fail) {
        String lower = url.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("https://") && !lower.startsWith("http://")) {
            throw fail.apply(where, "must be an http(s) URL or a base64 data URL");
        }
        java.net.URI uri;
        try {
            uri = java.net.URI.create(url);
        } catch (IllegalArgumentException e) {
            throw fail.apply(where, "is not a valid URL");
        }
        if (uri.getHost() == null) {
            throw fail.apply(where, "must be an absolute http(s) URL");
        }
        return url;
    }
}
