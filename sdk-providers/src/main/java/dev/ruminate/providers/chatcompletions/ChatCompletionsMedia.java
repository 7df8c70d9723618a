package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.error.UnsupportedInputException.Reason;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.spi.UnsupportedInput;
import dev.ruminate.providers.internal.MediaInputs;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import tools.jackson.core.JsonGenerator;

/**
 * Images and documents in Chat Completions: the checks that refuse, before anything is sent, what a
 * profile does not take, and the content parts that carry the rest.
 *
 * <p>An image is an {@code image_url} part holding a {@code data:} URL or the image's URL; a PDF is
 * a {@code file} part whose {@code file_data} is a {@code data:application/pdf;base64,…} URL (or,
 * where the profile allows it, the document's URL), with a {@code filename}. Media go before the
 * text. A tool result ({@code role: "tool"}) holds text only in this API.
 *
 * <p>Limits are OpenAI's documented ones, applied to every profile (none documents lower ones that
 * the profiles know of): an image at most 20 MB, at most 500 images and 50 MB of media bytes per
 * request, and PDFs at most 32 MB together. Image types: PNG, JPEG, GIF and WebP.
 */
final class ChatCompletionsMedia {

    /** OpenAI's image types. */
    static final Set<String> IMAGE_TYPES = Set.of("image/png", "image/jpeg", "image/gif", "image/webp");
    /** OpenAI's limit per image. */
    static final long MAX_IMAGE_BYTES = 20L * 1024 * 1024;
    /** OpenAI's limit of media payload per request (inline bytes counted in base64, as they are sent). */
    static final long MAX_REQUEST_BYTES = 50L * 1024 * 1024;
    /** OpenAI's limit of images per request. */
    static final int MAX_IMAGES = 500;
    /** OpenAI's limit of file (PDF) content per request. */
    static final long MAX_PDF_BYTES = 32L * 1024 * 1024;

    private static final String PDF = "application/pdf";

    private ChatCompletionsMedia() {
    }

    /**
     * Refuses media the profile does not take, naming it by position (message and media index of
     * the request given), kind and media type, never its bytes or URL.
     *
     * @throws UnsupportedInput for the first medium refused
     */
    static void check(CompatProfile profile, ChatRequest request) {
        List<Message> messages = request.messages();
        long total = 0;
        long pdfTotal = 0;
        int images = 0;
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (m instanceof ToolResultMessage t && !t.media().isEmpty()) {
                throw new UnsupportedInput(Reason.KIND, "message " + i + ", media 0: a tool result holds text only in Chat "
                        + "Completions (role \"tool\"), so its " + describe(t.media().get(0)) + " cannot be sent; give the "
                        + "media in a user message instead");
            }
            if (!(m instanceof UserMessage u)) {
                continue;
            }
            for (int j = 0; j < u.media().size(); j++) {
                Media media = u.media().get(j);
                String where = "message " + i + ", media " + j + ": ";
                if (media.kind() == Media.Kind.IMAGE) {
                    checkImage(profile, media, where);
                    images++;
                    if (images > MAX_IMAGES) {
                        throw new UnsupportedInput(Reason.TOO_LARGE, where + "more than " + MAX_IMAGES
                                + " images in one request");
                    }
                } else {
                    checkDocument(profile, media, where);
                    pdfTotal += media.size();
                    if (pdfTotal > MAX_PDF_BYTES) {
                        throw new UnsupportedInput(Reason.TOO_LARGE, where + "the PDFs of the request are over "
                                + mb(MAX_PDF_BYTES) + " together");
                    }
                }
                // the limit is on the request payload, where inline bytes go in base64 data URLs
                total += MediaInputs.base64Size(media);
                if (total > MAX_REQUEST_BYTES) {
                    throw new UnsupportedInput(Reason.TOO_LARGE, where + "the media of the request are over "
                            + mb(MAX_REQUEST_BYTES) + " together");
                }
            }
        }
    }

    private static void checkImage(CompatProfile profile, Media media, String where) {
        if (!profile.images()) {
            throw new UnsupportedInput(Reason.KIND, where + "the profile " + profile.name()
                    + " takes no images (a text-only API)");
        }
        String type = media.mediaType();
        if (type != null && !IMAGE_TYPES.contains(type)) {
            throw new UnsupportedInput(Reason.MEDIA_TYPE, where + type + " images are not accepted (png, jpeg, gif, webp)");
        }
        if (!media.hasData() && !profile.imageUrls()) {
            throw new UnsupportedInput(Reason.SOURCE, where + "the profile " + profile.name()
                    + " takes images only inline (data: URLs), not by URL");
        }
        if (media.size() > MAX_IMAGE_BYTES) {
            throw new UnsupportedInput(Reason.TOO_LARGE, where + "an image of " + media.size() + " bytes is over "
                    + mb(MAX_IMAGE_BYTES));
        }
    }

    private static void checkDocument(CompatProfile profile, Media media, String where) {
        if (!profile.pdfFiles()) {
            throw new UnsupportedInput(Reason.KIND, where + "the profile " + profile.name() + " takes no documents ("
                    + describe(media) + ")");
        }
        String type = media.mediaType();
        if (type != null && !type.equals(PDF)) {
            throw new UnsupportedInput(Reason.MEDIA_TYPE, where + type + " documents are not accepted (only application/pdf)");
        }
        if (!media.hasData()) {
            if (!profile.pdfUrls()) {
                throw new UnsupportedInput(Reason.SOURCE, where + "Chat Completions at " + profile.name()
                        + " takes a document's bytes, not its URL");
            }
            return;
        }
        if (type == null) {
            throw new UnsupportedInput(Reason.MEDIA_TYPE, where + "a document without a media type");
        }
    }

    /**
     * Writes one medium as a content part, into an open array.
     *
     * @param index the medium's index in its message, for a file name when none is given
     */
    static void writePart(JsonGenerator g, Media media, int index) {
        g.writeStartObject();
        if (media.kind() == Media.Kind.IMAGE) {
            g.writeStringProperty("type", "image_url");
            g.writeObjectPropertyStart("image_url");
            g.writeStringProperty("url", source(media));
            g.writeEndObject();
        } else {
            g.writeStringProperty("type", "file");
            g.writeObjectPropertyStart("file");
            // OpenAI wants a file name with inline file data
            g.writeStringProperty("filename", media.name() != null ? media.name() : "document-" + index + ".pdf");
            g.writeStringProperty("file_data", source(media));
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static String source(Media media) {
        return media.hasData() ? media.dataUrl() : Objects.requireNonNull(media.url()).toString();
    }

    private static String describe(Media media) {
        return (media.mediaType() != null ? media.mediaType() + " " : "") + (media.kind() == Media.Kind.IMAGE ? "image" : "document");
    }

    private static String mb(long bytes) {
        return (bytes / (1024 * 1024)) + " MB";
    }
}
