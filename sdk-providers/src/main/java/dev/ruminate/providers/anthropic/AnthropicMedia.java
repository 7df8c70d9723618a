package dev.ruminate.providers.anthropic;

import dev.ruminate.core.error.UnsupportedInputException.Reason;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Message;
import dev.ruminate.providers.spi.UnsupportedInput;
import dev.ruminate.providers.internal.MediaInputs;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import tools.jackson.core.JsonGenerator;

/**
 * Images and documents as Messages API content blocks, in user messages and in {@code tool_result}
 * content: an image as {@code {"type":"image","source":{"type":"base64","media_type","data"}}} or
 * {@code {"source":{"type":"url","url"}}}; a PDF as a {@code document} block with a base64 or URL
 * source; a {@code text/plain} document as a {@code document} block with a
 * {@code {"type":"text","media_type":"text/plain","data":"<the text>"}} source; a document's name as
 * its {@code title}.
 *
 * <p>{@link #check} refuses, before anything is written, what the API does not take: image types
 * other than JPEG, PNG, GIF and WebP, an image over 5 MB, more than 100 images, documents other than
 * PDF and plain text (a URL only for a PDF), a text document that is not UTF-8, a URL that is not
 * {@code http:} or {@code https:}, and media whose base64 form adds up to more than the API's
 * 32 MB request limit.
 *
 * <p>Stateless and thread-safe.
 */
final class AnthropicMedia {

    /** The largest image the API takes, in bytes. */
    static final long MAX_IMAGE_BYTES = 5L * 1024 * 1024;
    /** The most images in one request. */
    static final int MAX_IMAGES = 100;
    /** The largest request body, which the media's base64 form must fit in. */
    static final long MAX_REQUEST_BYTES = 32L * 1024 * 1024;

    private static final Set<String> IMAGE_TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp");
    private static final String PDF = "application/pdf";
    private static final String TEXT = "text/plain";

    private AnthropicMedia() {
    }

    /**
     * Refuses the media the API does not take.
     *
     * @param messages the conversation
     * @throws UnsupportedInput naming the message and media index, kind and type of the first refused
     */
    static void check(List<Message> messages) {
        int images = 0;
        long encoded = 0;
        for (int i = 0; i < messages.size(); i++) {
            List<Media> media = MediaInputs.of(messages.get(i));
            for (int k = 0; k < media.size(); k++) {
                Media m = media.get(k);
                String where = MediaInputs.where(i, k, m);
                checkOne(m, where);
                if (m.kind() == Media.Kind.IMAGE) {
                    images++;
                }
                encoded += m.hasData() && !TEXT.equals(m.mediaType()) ? MediaInputs.base64Size(m) : m.size();
            }
        }
        if (images > MAX_IMAGES) {
            throw new UnsupportedInput(Reason.TOO_LARGE, images + " images: Anthropic takes at most " + MAX_IMAGES
                    + " per request");
        }
        if (encoded > MAX_REQUEST_BYTES) {
            throw new UnsupportedInput(Reason.TOO_LARGE, "the media come to " + encoded + " bytes in base64: Anthropic "
                    + "takes requests of at most 32 MB");
        }
    }

    private static void checkOne(Media m, String where) {
        URI url = m.url();
        if (url != null) {
            String scheme = Objects.requireNonNullElse(url.getScheme(), "").toLowerCase(Locale.ROOT);
            if (!scheme.equals("https") && !scheme.equals("http")) {
                throw new UnsupportedInput(Reason.SOURCE, where + " is given by a " + scheme
                        + ": URL; Anthropic fetches only http and https URLs (give the bytes instead)");
            }
        }
        String type = m.mediaType();
        if (m.kind() == Media.Kind.IMAGE) {
            if (type != null && !IMAGE_TYPES.contains(type)) {
                throw new UnsupportedInput(Reason.MEDIA_TYPE, where + ": Anthropic takes images as image/jpeg, image/png, "
                        + "image/gif or image/webp");
            }
            if (m.size() > MAX_IMAGE_BYTES) {
                throw new UnsupportedInput(Reason.TOO_LARGE, where + " has " + m.size()
                        + " bytes: Anthropic takes images of at most 5 MB");
            }
            return;
        }
        if (url != null) {
            if (type != null && !type.equals(PDF)) {
                throw new UnsupportedInput(Reason.MEDIA_TYPE, where + ": Anthropic fetches only PDF documents by URL");
            }
            return;
        }
        if (!PDF.equals(type) && !TEXT.equals(type)) {
            throw new UnsupportedInput(Reason.MEDIA_TYPE, where + ": Anthropic takes documents as application/pdf or "
                    + "text/plain");
        }
        if (TEXT.equals(type)) {
            text(m, where);
        }
    }

    /**
     * Writes one media block.
     *
     * @param g the generator, in a content array
     * @param m the media, {@linkplain #check checked}
     */
    static void write(JsonGenerator g, Media m) {
        g.writeStartObject();
        writeFields(g, m);
        g.writeEndObject();
    }

    /**
     * Writes the fields of one media block, inside its object.
     *
     * @param g the generator, in the block's object
     * @param m the media, {@linkplain #check checked}
     */
    static void writeFields(JsonGenerator g, Media m) {
        boolean image = m.kind() == Media.Kind.IMAGE;
        g.writeStringProperty("type", image ? "image" : "document");
        g.writeObjectPropertyStart("source");
        URI url = m.url();
        if (url != null) {
            g.writeStringProperty("type", "url");
            g.writeStringProperty("url", url.toString());
        } else if (TEXT.equals(m.mediaType())) {
            g.writeStringProperty("type", "text");
            g.writeStringProperty("media_type", TEXT);
            g.writeStringProperty("data", text(m, "a text document"));
        } else {
            g.writeStringProperty("type", "base64");
            g.writeStringProperty("media_type", Objects.requireNonNull(m.mediaType(), "media type of bytes"));
            g.writeStringProperty("data", m.base64());
        }
        g.writeEndObject();
        String name = m.name();
        if (!image && name != null) {
            g.writeStringProperty("title", name);
        }
    }

    private static String text(Media m, String where) {
        byte[] data = Objects.requireNonNull(m.data(), "data");
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(data)).toString();
        } catch (CharacterCodingException e) {
            throw new UnsupportedInput(Reason.MEDIA_TYPE, where + " is not UTF-8 text");
        }
    }
}
