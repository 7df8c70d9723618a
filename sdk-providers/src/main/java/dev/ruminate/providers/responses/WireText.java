package dev.ruminate.providers.responses;

import dev.ruminate.providers.internal.JsonCursor;
import dev.ruminate.providers.internal.JsonReading;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;

/**
 * A text of a Responses event that decoding may not need: where its JSON string lies in the bytes
 * read, made into a {@code String} only when {@link #value()} is asked for.
 *
 * <p>Why: the API sends each part's whole text again in its {@code ….done} event, in
 * {@code content_part.done} or {@code reasoning_summary_part.done}, in {@code output_item.done} and
 * in {@code response.completed}, and the assembler uses at most one of those repetitions (the first
 * final view of a reasoning part; a text only when no delta came). Jackson still tokenizes them, but
 * no {@code String} is made of a text nobody reads.
 *
 * <p>A text read from a lent frame is valid only while that frame is: within the decode call that
 * read it. The value is decoded by {@link JsonCursor}, or by Jackson where the cursor declines (a
 * string past its length limit), so it is the string Jackson would have returned.
 *
 * <p>Not thread-safe; decoded at most once.
 */
final class WireText {

    private final byte @Nullable [] array;
    private final int from;
    private final int limit;
    private @Nullable String value;

    private WireText(byte @Nullable [] array, int from, int limit, @Nullable String value) {
        this.array = array;
        this.from = from;
        this.limit = limit;
        this.value = value;
    }

    /** A text already decoded. */
    static WireText of(String value) {
        return new WireText(null, 0, 0, value);
    }

    /**
     * Reads a property's value where the parser stands: a string is kept as its place in
     * {@code array} (where the parser's byte offsets start at {@code offset}); any other scalar is
     * decoded now as {@link JsonReading#text} does; null and structures give null.
     *
     * @param p the parser, on the value's token
     * @param value that token
     * @param array the bytes the parser reads, valid until the text is decoded
     * @param offset where the parser's byte offsets start in {@code array}
     * @param length how many bytes from {@code offset} the parser reads
     */
    static @Nullable WireText read(JsonParser p, JsonToken value, byte[] array, int offset, int length) {
        if (value == JsonToken.VALUE_STRING) {
            long at = p.currentTokenLocation().getByteOffset();
            int start = offset + (int) at;
            // The offset is the opening quote's; anything else (an unknown offset) is decoded now.
            if (at >= 0 && at < length && array[start] == '"') {
                return new WireText(array, start, offset + length, null);
            }
        }
        String text = JsonReading.text(p, value);
        return text == null ? null : of(text);
    }

    /** Returns the text, or null for none. */
    static @Nullable String value(@Nullable WireText text) {
        return text == null ? null : text.value();
    }

    /** Whether the text is a string already (decoded, or never bytes); for tests of the laziness. */
    boolean isDecoded() {
        return value != null;
    }

    /**
     * Decodes the text (once).
     *
     * @return the string
     */
    String value() {
        String v = value;
        if (v == null) {
            byte[] bytes = Objects.requireNonNull(array, "a text is either decoded or has bytes");
            JsonCursor cursor = new JsonCursor().reset(bytes, from, limit - from);
            v = cursor.stringValue() ? cursor.string() : decodedByJackson(bytes);
            value = v;
        }
        return v;
    }

    /** Jackson already read this string once, so it reads it again. */
    private String decodedByJackson(byte[] bytes) {
        try (JsonParser p = ResponsesEventParser.JSON.createParser(ObjectReadContext.empty(), bytes, from,
                limit - from)) {
            p.nextToken();
            return p.getString();
        }
    }
}
