package dev.ruminate.cli;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Tells the media type of a file given to {@code --image} or {@code --document}: an image by its first
 * bytes (PNG, JPEG, GIF, WebP, HEIC/HEIF), falling back to its extension; a PDF by its first bytes;
 * text documents by extension. A file's name is the last word because a renamed download often lies,
 * and a wrong media type is a 400 from the provider. Stateless.
 */
final class MediaTypes {

    /** The image types the command tells, by extension: what the peers' APIs take between them. */
    private static final Map<String, String> IMAGE_EXTENSIONS = Map.of(
            "png", "image/png", "jpg", "image/jpeg", "jpeg", "image/jpeg", "gif", "image/gif", "webp", "image/webp",
            "heic", "image/heic", "heif", "image/heif");

    /** The text document types, by extension (a text file has no magic bytes). */
    private static final Map<String, String> TEXT_EXTENSIONS = Map.of(
            "txt", "text/plain", "text", "text/plain", "md", "text/markdown", "markdown", "text/markdown",
            "csv", "text/csv", "html", "text/html", "htm", "text/html");

    static final String PDF = "application/pdf";

    /** What {@code --image} takes, for error messages. */
    static final String IMAGE_KINDS = "a PNG, JPEG, GIF, WebP or HEIC image";

    /** What {@code --document} takes, for error messages. */
    static final String DOCUMENT_KINDS = "a PDF, or a .txt, .md, .csv or .html text document";

    private MediaTypes() {
    }

    /**
     * Returns an image's media type: by its first bytes, else by its file name's extension.
     *
     * @param data the file's bytes
     * @param fileName the file's name
     * @return the media type, or null when it is none of the image types the command tells
     */
    static @Nullable String image(byte[] data, String fileName) {
        String sniffed = sniffImage(data);
        return sniffed != null ? sniffed : IMAGE_EXTENSIONS.get(extension(fileName));
    }

    /**
     * Returns a document's media type: PDF by its first bytes; a text type by extension.
     *
     * @param data the file's bytes
     * @param fileName the file's name
     * @return the media type, or null when it is none of the document types the command tells
     */
    static @Nullable String document(byte[] data, String fileName) {
        if (startsWith(data, 0, "%PDF-".getBytes(StandardCharsets.US_ASCII))) {
            return PDF;
        }
        return TEXT_EXTENSIONS.get(extension(fileName));
    }

    /**
     * Returns the media type a URL's path names by its extension, for providers that need one with a
     * URL (Gemini's {@code fileData}, Bedrock's {@code s3Location} format).
     *
     * @param url the URL
     * @param image true for {@code --image-url}, false for {@code --document-url}
     * @return the media type, or null when the path names none the command knows
     */
    static @Nullable String fromUrl(String url, boolean image) {
        String path;
        try {
            path = URI.create(url).getPath();
        } catch (IllegalArgumentException e) {
            return null; // Media reports the malformed URL
        }
        if (path == null) {
            return null;
        }
        String ext = extension(path);
        if (image) {
            return IMAGE_EXTENSIONS.get(ext);
        }
        return ext.equals("pdf") ? PDF : TEXT_EXTENSIONS.get(ext);
    }

    private static @Nullable String sniffImage(byte[] d) {
        if (startsWith(d, 0, new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'})) {
            return "image/png";
        }
        if (startsWith(d, 0, new byte[] {(byte) 0xff, (byte) 0xd8, (byte) 0xff})) {
            return "image/jpeg";
        }
        if (startsWith(d, 0, ascii("GIF87a")) || startsWith(d, 0, ascii("GIF89a"))) {
            return "image/gif";
        }
        if (startsWith(d, 0, ascii("RIFF")) && startsWith(d, 8, ascii("WEBP"))) {
            return "image/webp";
        }
        if (startsWith(d, 4, ascii("ftyp")) && d.length >= 12) {
            // ISO base media file: the major brand says HEIC (HEVC-coded) or the generic HEIF container
            String brand = new String(d, 8, 4, StandardCharsets.US_ASCII);
            return switch (brand) {
                case "heic", "heix", "heim", "heis", "hevc", "hevx" -> "image/heic";
                case "mif1", "msf1" -> "image/heif";
                default -> null;
            };
        }
        return null;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static boolean startsWith(byte[] data, int offset, byte[] prefix) {
        if (data.length < offset + prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (data[offset + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** The lower-case extension of the last path segment, or "" when it has none. */
    static String extension(String name) {
        int slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
        String last = name.substring(slash + 1);
        int dot = last.lastIndexOf('.');
        return dot <= 0 ? "" : last.substring(dot + 1).toLowerCase(Locale.ROOT);
    }
}
