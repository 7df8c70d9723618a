package dev.ruminate.providers.internal;

import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What the families' media checks share: which messages carry media, and how a refused medium is
 * named in an error ({@code "message 2, media 1: image image/heic"}), by position, kind and type,
 * never by its bytes or URL, which may be large or secret.
 *
 * <p>Stateless and thread-safe; no method takes or returns null.
 */
public final class MediaInputs {

    private MediaInputs() {
    }

    /**
     * Returns the media of a message: a user message's or a tool result's, else none.
     *
     * @param message the message
     * @return the media, in order, possibly empty
     */
    public static List<Media> of(Message message) {
        if (message instanceof UserMessage u) {
            return u.media();
        }
        return message instanceof ToolResultMessage t ? t.media() : List.of();
    }

    /**
     * Returns how many bytes a medium adds to a request body that carries it inline: its bytes in
     * base64 (with padding), which is what a request-size limit meets; 0 for one given by URL.
     *
     * @param media the medium
     * @return the base64 length of its bytes, or 0
     */
    public static long base64Size(Media media) {
        return 4L * ((media.size() + 2L) / 3);
    }

    /**
     * Names a medium by its position, kind and media type.
     *
     * @param message the index of its message in the request
     * @param index its index among that message's media
     * @param media the medium
     * @return the name, such as {@code message 2, media 1: image image/heic}
     */
    public static String where(int message, int index, Media media) {
        return "message " + message + ", media " + index + ": " + media.kind().name().toLowerCase(Locale.ROOT) + " "
                + Objects.requireNonNullElse(media.mediaType(), "(no media type)");
    }
}
