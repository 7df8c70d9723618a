package dev.ruminate.cli;

import dev.ruminate.core.message.Media;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.PromptCaching;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The request options {@code chat} and {@code next-request} share: an output schema
 * ({@code --json-schema FILE}, {@code --schema-name NAME}, {@code --schema-strategy auto|native|tool}),
 * images and documents ({@code --image FILE}, {@code --document FILE}, {@code --image-url URL},
 * {@code --document-url URL}, each repeatable) and prompt caching ({@code --cache}, {@code --cache-key}).
 * Every file is read and checked when the options are parsed, so a bad one ends the command before
 * any request is made.
 *
 * <p>Media keep the order of their kinds: image files, image URLs, document files, document URLs.
 *
 * @param media the images and documents, in that order
 * @param output the output schema, or null
 * @param caching the prompt-caching breakpoints and key ({@link PromptCaching#NONE} when none is asked)
 */
record RequestInputs(List<Media> media, @Nullable OutputSchema output, PromptCaching caching) {

    /** The option names that take a value. */
    static final Set<String> OPTIONS = Set.of("json-schema", "schema-name", "schema-strategy", "image", "document",
            "image-url", "document-url", "cache", "cache-key");

    RequestInputs {
        media = List.copyOf(media);
    }

    /**
     * Reads the options.
     *
     * @param parsed the command line
     * @return the inputs
     * @throws UsageException for a malformed option
     * @throws InputException for a file that cannot be used
     */
    static RequestInputs parse(Args parsed) {
        return new RequestInputs(media(parsed), output(parsed), caching(parsed));
    }

    /** Tells whether any image or document was given. */
    boolean hasMedia() {
        return !media.isEmpty();
    }

    private static @Nullable OutputSchema output(Args parsed) {
        String file = parsed.option("json-schema");
        String name = parsed.option("schema-name");
        String strategy = parsed.option("schema-strategy");
        if (file == null) {
            if (name != null || strategy != null) {
                throw new UsageException("--" + (name != null ? "schema-name" : "schema-strategy") + " needs --json-schema FILE");
            }
            return null;
        }
        return SchemaFile.read(file, name, strategy(strategy));
    }

    private static OutputSchema.Strategy strategy(@Nullable String value) {
        if (value == null) {
            return OutputSchema.Strategy.AUTO;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "auto" -> OutputSchema.Strategy.AUTO;
            case "native" -> OutputSchema.Strategy.NATIVE;
            case "tool" -> OutputSchema.Strategy.TOOL;
            default -> throw new UsageException("--schema-strategy must be auto, native or tool, was " + value);
        };
    }

    private static List<Media> media(Args parsed) {
        List<Media> media = new ArrayList<>();
        for (String file : parsed.options("image")) {
            byte[] data = InputFiles.read("image", file);
            String type = MediaTypes.image(data, file);
            if (type == null) {
                throw InputFiles.problem("image", file, "not " + MediaTypes.IMAGE_KINDS
                        + " (by its first bytes or its extension)");
            }
            media.add(Media.image(data, type));
        }
        for (String url : parsed.options("image-url")) {
            media.add(url("image-url", () -> Media.imageUrl(url, MediaTypes.fromUrl(url, true))));
        }
        for (String file : parsed.options("document")) {
            byte[] data = InputFiles.read("document", file);
            String type = MediaTypes.document(data, file);
            if (type == null) {
                String hint = MediaTypes.image(data, file) != null ? "; give an image with --image" : "";
                throw InputFiles.problem("document", file, "not " + MediaTypes.DOCUMENT_KINDS
                        + " (a PDF by its first bytes, text by its extension)" + hint);
            }
            if (type.startsWith("text/") && !isUtf8(data)) {
                throw InputFiles.problem("document", file, "not UTF-8 text, as a ." + MediaTypes.extension(file)
                        + " document must be");
            }
            Path name = Path.of(file).getFileName();
            media.add(Media.document(data, type, name == null ? null : name.toString()));
        }
        for (String url : parsed.options("document-url")) {
            media.add(url("document-url", () -> Media.documentUrl(url, MediaTypes.fromUrl(url, false), null)));
        }
        return media;
    }

    /** Makes media of a URL; a malformed one is a usage error that does not repeat the URL (it may hold a token). */
    private static Media url(String option, Supplier<Media> make) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            throw new UsageException("--" + option + ": " + e.getMessage());
        }
    }

    private static PromptCaching caching(Args parsed) {
        String spec = parsed.option("cache");
        String key = parsed.option("cache-key");
        if (key != null && key.isBlank()) {
            throw new UsageException("--cache-key must not be blank");
        }
        PromptCaching caching = spec == null ? PromptCaching.NONE : breakpoints(spec);
        return key == null ? caching : caching.withKey(key);
    }

    /** {@code conversation}, or a comma-separated list of {@code system}, {@code tools}, {@code last} and message indexes. */
    private static PromptCaching breakpoints(String spec) {
        if (spec.equals("conversation")) {
            return PromptCaching.conversation();
        }
        boolean system = false;
        boolean tools = false;
        boolean last = false;
        List<Integer> messages = new ArrayList<>();
        for (String item : spec.split(",", -1)) {
            switch (item.strip()) {
                case "system" -> system = true;
                case "tools" -> tools = true;
                case "last" -> last = true;
                default -> messages.add(index(item.strip(), spec));
            }
        }
        return new PromptCaching(system, tools, messages, last, PromptCaching.Ttl.DEFAULT, null);
    }

    private static int index(String item, String spec) {
        try {
            int i = Integer.parseInt(item);
            if (i >= 0) {
                return i;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--cache takes conversation, or a comma-separated list of system, tools, last and "
                + "message indexes, was " + spec);
    }

    /** Tells whether a text document's bytes decode as UTF-8, the encoding the APIs read text documents in. */
    private static boolean isUtf8(byte[] data) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
