package dev.ruminate.providers.bedrock;

import dev.ruminate.core.error.UnsupportedInputException.Reason;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Message;
import dev.ruminate.providers.spi.UnsupportedInput;
import dev.ruminate.providers.internal.MediaInputs;
import java.net.URI;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Images and documents as Converse content blocks, in user messages and tool results:
 * {@code {"image":{"format":"png|jpeg|gif|webp","source":{"bytes":"<base64>"}}}} and
 * {@code {"document":{"format":"pdf|csv|doc|docx|xls|xlsx|html|txt|md","name":…,"source":{"bytes":…}}}},
 * an {@code s3://} URL as {@code source.s3Location.uri}.
 *
 * <p>{@link #plan} refuses, before anything is written, what Converse does not take: any other URL
 * (Converse fetches nothing over HTTP), another image or document type, an image over 3.75 MB, a
 * document over 4.5 MB, more than 20 images or 5 documents. Converse requires a document name of
 * letters and digits, single spaces, hyphens, parentheses and square brackets: the name given is
 * cleaned to that ({@code report.pdf} becomes {@code report-pdf}), {@code document-N} when nothing
 * is left or none was given, made unique within the request.
 *
 * <p>Stateless and thread-safe.
 */
final class BedrockMedia {

    /** The largest image Converse takes, in bytes (3.75 MB). */
    static final long MAX_IMAGE_BYTES = 3_932_160L;
    /** The largest document Converse takes, in bytes (4.5 MB). */
    static final long MAX_DOCUMENT_BYTES = 4_718_592L;
    /** The most images in one request. */
    static final int MAX_IMAGES = 20;
    /** The most documents in one request. */
    static final int MAX_DOCUMENTS = 5;

    private static final Map<String, String> IMAGE_FORMATS = Map.of(
            "image/png", "png", "image/jpeg", "jpeg", "image/gif", "gif", "image/webp", "webp");
    private static final Map<String, String> DOCUMENT_FORMATS = Map.of(
            "application/pdf", "pdf",
            "text/csv", "csv",
            "application/msword", "doc",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx",
            "application/vnd.ms-excel", "xls",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx",
            "text/html", "html",
            "text/plain", "txt",
            "text/markdown", "md");
    private static final Map<String, String> EXTENSIONS = Map.ofEntries(
            Map.entry("png", "png"), Map.entry("jpg", "jpeg"), Map.entry("jpeg", "jpeg"), Map.entry("gif", "gif"),
            Map.entry("webp", "webp"), Map.entry("pdf", "pdf"), Map.entry("csv", "csv"), Map.entry("doc", "doc"),
            Map.entry("docx", "docx"), Map.entry("xls", "xls"), Map.entry("xlsx", "xlsx"), Map.entry("html", "html"),
            Map.entry("htm", "html"), Map.entry("txt", "txt"), Map.entry("md", "md"));

    private BedrockMedia() {
    }

    /**
     * The Converse form of every medium of a request, decided before anything is written.
     *
     * @param formats per medium (by identity), its {@code format}
     * @param names per document (by identity), its cleaned, unique {@code name}
     */
    record Plan(Map<Media, String> formats, Map<Media, String> names) {
    }

    /**
     * Checks the media of a conversation and decides their formats and names.
     *
     * @param messages the conversation
     * @return the plan
     * @throws UnsupportedInput naming the message and media index, kind and type of the first refused
     */
    static Plan plan(List<Message> messages) {
        // by identity: two equal media in one request are two documents, each with its own name
        Map<Media, String> formats = new IdentityHashMap<>();
        Map<Media, String> names = new IdentityHashMap<>();
        Set<String> used = new HashSet<>();
        int images = 0;
        int documents = 0;
        for (int i = 0; i < messages.size(); i++) {
            List<Media> media = MediaInputs.of(messages.get(i));
            for (int k = 0; k < media.size(); k++) {
                Media m = media.get(k);
                String where = MediaInputs.where(i, k, m);
                URI url = m.url();
                if (url != null && !"s3".equalsIgnoreCase(url.getScheme())) {
                    throw new UnsupportedInput(Reason.SOURCE, where + " is given by a " + url.getScheme()
                            + ": URL; Converse takes bytes or an s3:// location only");
                }
                boolean image = m.kind() == Media.Kind.IMAGE;
                String format = format(m, image ? IMAGE_FORMATS : DOCUMENT_FORMATS);
                if (format == null) {
                    throw new UnsupportedInput(Reason.MEDIA_TYPE, where + ": Converse takes "
                            + (image ? "images as png, jpeg, gif or webp" : "documents as pdf, csv, doc, docx, xls, xlsx, html, "
                            + "txt or md") + (m.mediaType() == null ? " (give the media type)" : ""));
                }
                long max = image ? MAX_IMAGE_BYTES : MAX_DOCUMENT_BYTES;
                if (m.size() > max) {
                    throw new UnsupportedInput(Reason.TOO_LARGE, where + " has " + m.size() + " bytes: Converse takes "
                            + (image ? "images of at most 3.75 MB" : "documents of at most 4.5 MB"));
                }
                formats.put(m, format);
                if (image) {
                    images++;
                } else {
                    documents++;
                    names.put(m, uniqueName(m.name(), documents, used));
                }
            }
        }
        if (images > MAX_IMAGES) {
            throw new UnsupportedInput(Reason.TOO_LARGE, images + " images: Converse takes at most " + MAX_IMAGES
                    + " per request");
        }
        if (documents > MAX_DOCUMENTS) {
            throw new UnsupportedInput(Reason.TOO_LARGE, documents + " documents: Converse takes at most " + MAX_DOCUMENTS
                    + " per request");
        }
        return new Plan(formats, names);
    }

    /** The format from the media type, else (an s3:// URL without one) from the URL's extension; null when neither fits. */
    private static @Nullable String format(Media m, Map<String, String> formats) {
        String type = m.mediaType();
        if (type != null) {
            return formats.get(type);
        }
        URI url = m.url();
        String path = url == null ? "" : Objects.requireNonNullElse(url.getPath(), "");
        int dot = path.lastIndexOf('.');
        String format = dot < 0 ? null : EXTENSIONS.get(path.substring(dot + 1).toLowerCase(Locale.ROOT));
        return format != null && formats.containsValue(format) ? format : null;
    }

    /**
     * Cleans a document name to what Converse takes: letters and digits, single spaces, hyphens,
     * parentheses and square brackets; anything else becomes a hyphen.
     *
     * @param name the name given, or null
     * @param n the document's number in the request, from 1
     * @param used names already given in this request
     * @return the name
     */
    static String uniqueName(@Nullable String name, int n, Set<String> used) {
        String base = name == null ? "" : clean(name);
        if (base.isEmpty()) {
            base = "document-" + n;
        }
        String unique = base;
        for (int copy = 2; !used.add(unique); copy++) {
            unique = base + " (" + copy + ")";
        }
        return unique;
    }

    private static String clean(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean kept = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '(' || c == ')' || c == '[' || c == ']';
            if (Character.isWhitespace(c)) {
                if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ' ') {
                    sb.append(' ');
                }
            } else {
                sb.append(kept ? c : '-');
            }
        }
        return sb.toString().strip();
    }

    /**
     * Writes one medium's content block.
     *
     * @param g the generator, in a content array
     * @param m the medium
     * @param plan the plan made for the request
     */
    static void write(JsonGenerator g, Media m, Plan plan) {
        boolean image = m.kind() == Media.Kind.IMAGE;
        g.writeStartObject();
        g.writeObjectPropertyStart(image ? "image" : "document");
        g.writeStringProperty("format", Objects.requireNonNull(plan.formats().get(m), "format"));
        if (!image) {
            g.writeStringProperty("name", Objects.requireNonNull(plan.names().get(m), "name"));
        }
        g.writeObjectPropertyStart("source");
        URI url = m.url();
        if (url != null) {
            g.writeObjectPropertyStart("s3Location");
            g.writeStringProperty("uri", url.toString());
            g.writeEndObject();
        } else {
            g.writeStringProperty("bytes", m.base64());
        }
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
    }
}
