package dev.ruminate.providers.gemini;

import dev.ruminate.core.error.UnsupportedInputException.Reason;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.providers.spi.UnsupportedInput;
import dev.ruminate.providers.internal.MediaInputs;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import tools.jackson.core.JsonGenerator;

/**
 * Images and documents in Gemini's form, checked before anything is written: a user message's media
 * become parts before its text, {@code {"inlineData":{"mimeType","data"}}} for bytes (standard
 * base64) and {@code {"fileData":{"mimeType","fileUri"}}} for a URL (a Files API URI, {@code gs://}
 * on Vertex AI, or a web URL where the API fetches them), which Gemini requires a media type on.
 *
 * <p>Accepted types (Google's image and document understanding docs): images {@code image/png},
 * {@code image/jpeg}, {@code image/webp}, {@code image/heic}, {@code image/heif}; documents
 * {@code application/pdf} (read with vision) and the text types Gemini reads as text
 * ({@code text/plain}, {@code text/html}, {@code text/css}, {@code text/csv}, {@code text/markdown},
 * {@code text/xml}, {@code text/rtf}, {@code text/javascript}, {@code application/x-javascript},
 * {@code text/x-python}, {@code application/x-python}). Inline bytes are limited to
 * {@link #INLINE_LIMIT} per request, counted base64-encoded as they travel (Google's documented
 * 20 MB request limit for inline data; larger files go through the Files API, by URI).
 *
 * <p>Media in tool results are refused: Gemini 3's multimodal function responses
 * ({@code functionResponse.parts}) are not written yet, their wire form not verified here.
 *
 * <p>Every refusal is an {@link UnsupportedInput} naming the message and media by their 0-based
 * index in the request as encoded, with the media type, never the bytes or the URL.
 *
 * <p>Stateless; thread-safe.
 */
final class GeminiMedia {

    /** The most inline data, base64-encoded, one request may carry: 20 MiB. */
    static final long INLINE_LIMIT = 20L * 1024 * 1024;

    static final Set<String> IMAGE_TYPES = Set.of("image/png", "image/jpeg", "image/webp", "image/heic", "image/heif");

    static final Set<String> DOCUMENT_TYPES = Set.of("application/pdf", "text/plain", "text/html", "text/css",
            "text/csv", "text/markdown", "text/xml", "text/rtf", "text/javascript", "application/x-javascript",
            "text/x-python", "application/x-python");

    private GeminiMedia() {
    }

    /**
     * Checks every medium of the request against what Gemini takes.
     *
     * @throws UnsupportedInput for a medium in a tool result, a URL without a media type, a media
     *     type Gemini does not read, or inline data over the limit
     */
    static void check(List<Message> messages) {
        long inline = 0;
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (m instanceof ToolResultMessage r && !r.media().isEmpty()) {
                Media media = r.media().get(0);
                throw new UnsupportedInput(Reason.KIND, where(i, 0, media) + ": media in a tool result are not sent to "
                        + "Gemini by this SDK yet (Gemini 3's multimodal function responses are not supported); put them "
                        + "in a user message");
            }
            if (m instanceof UserMessage u) {
                for (int k = 0; k < u.media().size(); k++) {
                    Media media = u.media().get(k);
                    String type = media.mediaType();
                    if (type == null) {
                        throw new UnsupportedInput(Reason.SOURCE, where(i, k, media) + ": Gemini needs the media type of "
                                + "a file given by URL (fileData.mimeType); give one");
                    }
                    // the wire has no kind, only the type: a document given as image/png is an image to Gemini
                    Set<String> accepted = media.kind() == Media.Kind.IMAGE ? IMAGE_TYPES : DOCUMENT_TYPES;
                    if (!IMAGE_TYPES.contains(type) && !DOCUMENT_TYPES.contains(type)) {
                        throw new UnsupportedInput(Reason.MEDIA_TYPE, where(i, k, media) + ": Gemini does not read "
                                + kind(media) + "s of this type (it takes " + String.join(", ", accepted.stream().sorted().toList())
                                + ")");
                    }
                    if (media.hasData()) {
                        inline += MediaInputs.base64Size(media);
                        if (inline > INLINE_LIMIT) {
                            throw new UnsupportedInput(Reason.TOO_LARGE, where(i, k, media) + ": the request's inline "
                                    + "media reach " + inline + " bytes base64-encoded, over Gemini's " + INLINE_LIMIT
                                    + "-byte limit for inline data; upload large files with the Files API and give their URI");
                        }
                    }
                }
            }
        }
    }

    /** Writes a medium as one part of a user content. */
    static void write(JsonGenerator g, Media media) {
        String type = Objects.requireNonNull(media.mediaType(), "checked before");
        g.writeStartObject();
        if (media.hasData()) {
            g.writeObjectPropertyStart("inlineData");
            g.writeStringProperty("mimeType", type);
            g.writeStringProperty("data", media.base64());
        } else {
            g.writeObjectPropertyStart("fileData");
            g.writeStringProperty("mimeType", type);
            g.writeStringProperty("fileUri", String.valueOf(media.url()));
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private static String where(int message, int index, Media media) {
        String type = media.mediaType();
        return "message " + message + ", media " + index + " (" + kind(media) + " " + (type == null ? "without a media type" : type)
                + (media.hasData() ? ", " + media.size() + " bytes" : ", by URL") + ")";
    }

    private static String kind(Media media) {
        return media.kind().name().toLowerCase(Locale.ROOT);
    }
}
