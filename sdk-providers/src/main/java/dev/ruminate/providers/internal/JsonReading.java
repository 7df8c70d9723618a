package dev.ruminate.providers.internal;

import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.StreamReadException;

/**
 * Small readers the provider decoders share over Jackson's streaming parser. Stateless.
 */
public final class JsonReading {

    /** How much of a payload an error message quotes. */
    private static final int EXCERPT_CHARS = 200;

    private JsonReading() {
    }

    /**
     * Reads a number as a {@code long} (a float is truncated); skips anything else and returns null.
     *
     * @param p the parser, at the value
     * @param value the value's token
     * @return the number, or null
     */
    public static @Nullable Long number(JsonParser p, JsonToken value) {
        if (value == JsonToken.VALUE_NUMBER_INT) {
            return p.getLongValue();
        }
        if (value == JsonToken.VALUE_NUMBER_FLOAT) {
            return (long) p.getDoubleValue();
        }
        p.skipChildren();
        return null;
    }

    /**
     * Reads a scalar as text (null for JSON null); skips an object or array and returns null.
     *
     * @param p the parser, at the value
     * @param value the value's token
     * @return the text, or null
     */
    public static @Nullable String text(JsonParser p, JsonToken value) {
        return switch (value) {
            case VALUE_STRING, VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT, VALUE_TRUE, VALUE_FALSE -> p.getString();
            case START_OBJECT, START_ARRAY -> {
                p.skipChildren();
                yield null;
            }
            default -> null;
        };
    }

    /**
     * Moves to the next property of the current object whose value is an integer, skipping the
     * properties with any other value; for the usage objects whose counts are all plain integers.
     *
     * @param p the parser, inside an object (at its start, or at the end of a property's value)
     * @return the property's name, with the parser at its integer value; or null at the object's end
     */
    public static @Nullable String nextIntegerProperty(JsonParser p) {
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String name = p.currentName();
            if (p.nextToken() == JsonToken.VALUE_NUMBER_INT) {
                return name;
            }
            p.skipChildren();
        }
        return null;
    }

    /**
     * Moves to the value of the next property of the current object that has the given name,
     * skipping the other properties and their values. For objects of which a decoder wants one
     * property: call it in a loop, reading the value in the body, and the whole object is read (the
     * last of repeated names wins, as with a loop over every property).
     *
     * @param p the parser, inside an object (at its start, or at the end of a property's value)
     * @param name the property's name
     * @return true with the parser at that property's value; false at the object's end
     */
    public static boolean nextPropertyNamed(JsonParser p, String name) {
        String next;
        while ((next = p.nextName()) != null) {
            p.nextToken();
            if (name.equals(next)) {
                return true;
            }
            p.skipChildren();
        }
        return false;
    }

    /**
     * Names a token's kind for error messages ({@code "an object"}, {@code "a string"}, …).
     *
     * @param token the token, or null at the end of input
     * @return the description
     */
    public static String describe(@Nullable JsonToken token) {
        if (token == null) {
            return "nothing";
        }
        return switch (token) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> token.name();
        };
    }

    /**
     * Returns the start of a payload as text, for error messages: at most 200 characters, with an
     * ellipsis when cut.
     *
     * @param data the payload
     * @return the excerpt
     */
    public static String excerpt(byte[] data) {
        return excerpt(data, 0, data.length);
    }

    /**
     * Returns the start of a range of bytes as text for an error message, as {@link #excerpt(byte[])}.
     *
     * @param data the array holding the payload
     * @param offset where the payload starts
     * @param length its length
     * @return at most the first few dozen characters
     */
    public static String excerpt(byte[] data, int offset, int length) {
        String text = new String(data, offset, Math.min(length, EXCERPT_CHARS * 4), StandardCharsets.UTF_8);
        return text.length() > EXCERPT_CHARS ? text.substring(0, EXCERPT_CHARS) + "…" : text;
    }

    /**
     * Checks that nothing but whitespace follows the value just read, as a payload must hold one JSON
     * value; with a {@link StreamParser} this also leaves it clean for the next event.
     *
     * @param p the parser, just past the value
     * @throws StreamReadException when another token follows
     */
    public static void requireEnd(JsonParser p) {
        JsonToken after = p.nextToken();
        if (after != null) {
            throw new StreamReadException(p, "unexpected " + after + " after the JSON object");
        }
    }

    /**
     * Tells whether a payload holds only JSON whitespace (or nothing).
     *
     * @param data the payload
     * @return true when blank
     */
    public static boolean isBlank(byte[] data) {
        return isBlank(data, 0, data.length);
    }

    /**
     * Tells whether a range of bytes is empty or JSON whitespace only, as {@link #isBlank(byte[])}.
     *
     * @param data the array holding the payload
     * @param offset where the payload starts
     * @param length its length
     * @return true when blank
     */
    public static boolean isBlank(byte[] data, int offset, int length) {
        for (int i = offset, end = offset + length; i < end; i++) {
            byte b = data[i];
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return false;
            }
        }
        return true;
    }
}
