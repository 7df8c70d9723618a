package dev.ruminate.providers.internal;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * Small readers the provider decoders share over Jackson's streaming parser. Stateless.
 */
public final class JsonReading {

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
}
