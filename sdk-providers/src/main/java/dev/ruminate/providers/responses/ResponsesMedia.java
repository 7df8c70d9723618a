package dev.ruminate.providers.responses;

import dev.ruminate.core.error.UnsupportedInputException.Reason;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.providers.spi.UnsupportedInput;
import dev.ruminate.providers.internal.MediaInputs;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Images and documents in a Responses request: the checks made before anything is sent, and the
 * content parts they become.
 *
 * <p>An image is {@code {"type": "input_image", "image_url": <data URL or https URL>, "detail":
 * "auto"}}; a document {@code {"type": "input_file", "filename": …, "file_data": <data URL>}} or
 * {@code {"type": "input_file", "file_url": <https URL>}}. OpenAI's limits (its vision and file
 * input guides): images in PNG, JPEG, GIF or WebP, at most {@value #MAX_IMAGE_MB} MB each, at most
 * {@value #MAX_IMAGES} images and {@value #MAX_TOTAL_MB} MB of media per request (counted on the
 * base64 form inline bytes take in the body); files as PDF or one of the text types
 * {@link #DOCUMENT_TYPES} lists. A
 * server whose {@link ResponsesCapabilities} lack a kind, a media type outside these lists, a URL that
 * is not http(s), or a size over a limit is refused with an {@link UnsupportedInput} naming the
 * message and media by index (in the request's messages, from 0) and the media type, never the
 * bytes or the URL.
 *
 * <p>Stateless and thread-safe.
 */
final class ResponsesMedia {

    /** The largest image, in MB (MiB). */
    static final int MAX_IMAGE_MB = 20;
    /** The most media bytes in one request, in MB (MiB). */
    static final int MAX_TOTAL_MB = 50;
    /** The most images in one request. */
    static final int MAX_IMAGES = 500;

    private static final long MB = 1024L * 1024;
    private static final Set<String> IMAGE_TYPES = Set.of("image/png", "image/jpeg", "image/gif", "image/webp");

    /**
     * Document types {@code input_file} takes, with the file name extension a nameless document gets:
     * PDF, and the plain-text formats OpenAI reads as text (UNVERIFIED beyond PDF against a recording).
     */
    static final Map<String, String> DOCUMENT_TYPES = Map.of("application/pdf", "pdf", "text/plain", "txt",
            "text/markdown", "md", "text/csv", "csv", "text/html", "html", "application/json", "json");

    private ResponsesMedia() {
    }

    /**
     * Checks every medium of the messages the request sends, before anything is written.
     *
     * @param capabilities what the server takes
     * @param messages the request's messages
     * @param first the index of the first message sent (earlier ones are held by the server)
     * @throws UnsupportedInput for the first medium the server does not take
     */
    static void check(ResponsesCapabilities capabilities, List<Message> messages, int first) {
        int images = 0;
        long total = 0;
        for (int m = first; m < messages.size(); m++) {
            Message message = messages.get(m);
            List<Media> media = MediaInputs.of(message);
            if (!media.isEmpty() && message instanceof ToolResultMessage && !capabilities.toolResultMedia()) {
                throw new UnsupportedInput(Reason.KIND, where(m, 0, media.get(0))
                        + ": this server takes no images or files in tool results");
            }
            for (int i = 0; i < media.size(); i++) {
                Media medium = media.get(i);
                check(capabilities, medium, m, i);
                if (medium.kind() == Media.Kind.IMAGE && ++images > MAX_IMAGES) {
                    throw new UnsupportedInput(Reason.TOO_LARGE, where(m, i, medium) + ": more than " + MAX_IMAGES
                            + " images in one request");
                }
                // the limit is on the request payload, where inline bytes go in base64
                total += MediaInputs.base64Size(medium);
                if (total > MAX_TOTAL_MB * MB) {
                    throw new UnsupportedInput(Reason.TOO_LARGE, where(m, i, medium) + ": the request's media exceed "
                            + MAX_TOTAL_MB + " MB");
                }
            }
        }
    }

    private static void check(ResponsesCapabilities capabilities, Media medium, int m, int i) {
        String type = medium.mediaType();
        boolean image = medium.kind() == Media.Kind.IMAGE;
        if (image ? !capabilities.images() : !capabilities.documents()) {
            throw new UnsupportedInput(Reason.KIND, where(m, i, medium) + ": this server takes no "
                    + (image ? "images" : "documents (input_file)"));
        }
        if (type != null && !(image ? IMAGE_TYPES.contains(type) : DOCUMENT_TYPES.containsKey(type))) {
            throw new UnsupportedInput(Reason.MEDIA_TYPE, where(m, i, medium) + ": " + (image
                    ? "images must be image/png, image/jpeg, image/gif or image/webp"
                    : "documents must be application/pdf or text (plain, markdown, csv, html, json)"));
        }
        URI url = medium.url();
        if (url != null) {
            String scheme = url.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("https") && !scheme.equals("http")) {
                throw new UnsupportedInput(Reason.SOURCE, where(m, i, medium) + ": a " + scheme
                        + ": URL; this API fetches http(s) URLs only (give the bytes instead)");
            }
        }
        if (image && medium.size() > MAX_IMAGE_MB * MB) {
            throw new UnsupportedInput(Reason.TOO_LARGE, where(m, i, medium) + ": " + medium.size()
                    + " bytes, over the " + MAX_IMAGE_MB + " MB an image may have");
        }
    }

    private static String where(int m, int i, Media medium) {
        return MediaInputs.where(m, i, medium);
    }

    /**
     * Writes the content parts of media, in their order.
     *
     * @param g the generator, in a content array
     * @param media the media, checked with {@link #check}
     * @param message the message's index, for a nameless document's file name
     */
    static void writeParts(JsonGenerator g, List<Media> media, int message) {
        for (int i = 0; i < media.size(); i++) {
            Media medium = media.get(i);
            g.writeStartObject();
            URI url = medium.url();
            if (medium.kind() == Media.Kind.IMAGE) {
                g.writeStringProperty("type", "input_image");
                g.writeStringProperty("image_url", url != null ? url.toString() : medium.dataUrl());
                g.writeStringProperty("detail", "auto");
            } else {
                g.writeStringProperty("type", "input_file");
                if (url != null) {
                    g.writeStringProperty("file_url", url.toString());
                } else {
                    g.writeStringProperty("filename", fileName(medium, message, i));
                    g.writeStringProperty("file_data", medium.dataUrl());
                }
            }
            g.writeEndObject();
        }
    }

    /** The document's own name, else one made from its position and type ({@code document-2-0.pdf}). */
    private static String fileName(Media medium, int message, int index) {
        String name = medium.name();
        if (name != null) {
            return name;
        }
        @Nullable String ext = DOCUMENT_TYPES.get(String.valueOf(medium.mediaType()));
        return "document-" + message + "-" + index + (ext == null ? "" : "." + ext);
    }

    /**
     * Writes text as an {@code input_text} part.
     *
     * @param g the generator, in a content array
     * @param text the text
     */
    static void writeText(JsonGenerator g, String text) {
        g.writeStartObject();
        g.writeStringProperty("type", "input_text");
        g.writeStringProperty("text", text);
        g.writeEndObject();
    }
}
