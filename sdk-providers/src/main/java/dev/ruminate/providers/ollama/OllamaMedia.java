package dev.ruminate.providers.ollama;

import dev.ruminate.core.error.UnsupportedInputException.Reason;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.providers.spi.UnsupportedInput;
import java.util.List;
import java.util.Locale;
import tools.jackson.core.JsonGenerator;

/**
 * Images in Ollama's form, checked before anything is written: the base64 bytes of a user message's
 * images in its {@code images} array ({@code /api/chat}), or in the request's {@code images}
 * ({@code /api/generate}). Ollama takes images by their bytes only (no URL, which it would not
 * fetch), no documents, and no media in tool results; each is refused with an
 * {@link UnsupportedInput} naming the message and media by their 0-based index in the request as
 * encoded, with the media type, never the bytes or the URL. The image types a model reads are its
 * own; they are not checked here.
 *
 * <p>Stateless; thread-safe.
 */
final class OllamaMedia {

    private OllamaMedia() {
    }

    /**
     * Checks every medium of the request.
     *
     * @throws UnsupportedInput for a document, an image by URL, or media in a tool result
     */
    static void check(List<Message> messages) {
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (m instanceof ToolResultMessage r && !r.media().isEmpty()) {
                throw new UnsupportedInput(Reason.KIND, where(i, 0, r.media().get(0))
                        + ": Ollama takes no media in a tool result; put images in a user message");
            }
            if (m instanceof UserMessage u) {
                for (int k = 0; k < u.media().size(); k++) {
                    Media media = u.media().get(k);
                    if (media.kind() != Media.Kind.IMAGE) {
                        throw new UnsupportedInput(Reason.KIND, where(i, k, media)
                                + ": Ollama takes images only, no documents; send the document's text instead");
                    }
                    if (!media.hasData()) {
                        throw new UnsupportedInput(Reason.SOURCE, where(i, k, media)
                                + ": Ollama takes images by their bytes (base64), not by URL; fetch the image and give its bytes");
                    }
                }
            }
        }
    }

    /** Writes {@code "images": [base64, …]} for a user message's images, nothing when it has none. */
    static void write(JsonGenerator g, List<Media> media) {
        if (media.isEmpty()) {
            return;
        }
        g.writeArrayPropertyStart("images");
        for (Media image : media) {
            g.writeString(image.base64());
        }
        g.writeEndArray();
    }

    private static String where(int message, int index, Media media) {
        String type = media.mediaType();
        return "message " + message + ", media " + index + " (" + media.kind().name().toLowerCase(Locale.ROOT) + " "
                + (type == null ? "without a media type" : type) + (media.hasData() ? ", " + media.size() + " bytes" : ", by URL")
                + ")";
    }
}
