package dev.ruminate.providers.internal;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.providers.serving.ClientRequestException;
import dev.ruminate.providers.serving.OpenAiError;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;

/**
 * Reads a client's request body, as a service that speaks an OpenAI API takes it, with errors in
 * OpenAI's shape and words: the body's size and parse, typed fields of a {@link JsonTree}, and the
 * error factories the request readers share. Every error is a {@link ClientRequestException} whose
 * {@code param} is the path of the value at fault ({@code messages[2].role}) and whose message
 * names the place and the kind of value found, never the client's value itself.
 *
 * <p>A field that is absent or JSON {@code null} reads as absent ({@code null}, or the default
 * given). Stateless and thread-safe.
 */
public final class ClientFields {

    private ClientFields() {
    }

    // ---- the body

    /**
     * Refuses a body longer than a limit in characters, with 413 {@code request_too_large}.
     *
     * @param body the body
     * @param maxChars the largest length taken
     * @throws ClientRequestException when the body is longer
     */
    public static void checkChars(String body, long maxChars) {
        if (body.length() > maxChars) {
            throw tooLarge(maxChars + " characters");
        }
    }

    /**
     * Refuses a body longer than a limit in bytes of UTF-8, with 413 {@code request_too_large},
     * counting no further than past the limit.
     *
     * @param body the body
     * @param maxBytes the largest length taken
     * @throws ClientRequestException when the body is longer
     */
    public static void checkUtf8Bytes(String body, long maxBytes) {
        if (utf8Length(body, maxBytes) > maxBytes) {
            throw tooLarge(maxBytes + " bytes");
        }
    }

    private static ClientRequestException tooLarge(String limit) {
        return new ClientRequestException(new OpenAiError(413, "invalid_request_error", "request_too_large",
                "The request body is larger than this service accepts (" + limit + ").", null));
    }

    /** The UTF-8 length of a text, counted no further than past a limit. */
    private static long utf8Length(String s, long limit) {
        if (s.length() > limit) {
            return s.length();
        }
        long n = 0;
        for (int i = 0; i < s.length() && n <= limit; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /**
     * Parses a request body that must be one JSON object.
     *
     * @param body the body
     * @return the object
     * @throws ClientRequestException 400: {@code invalid_json} for text that is not one JSON value
     *     or nests deeper than the parser takes (the message gives the column, never the text),
     *     {@code invalid_type} for JSON that is not an object
     */
    public static JsonTree.Obj parseObject(String body) {
        Object root;
        try {
            root = JsonTree.parse(body);
        } catch (ProtocolException e) {
            // JsonTree's detail gives the place (a column), never the text
            String why = e.reason() == ProtocolException.Reason.NESTING_TOO_DEEP
                    ? "The request body nests JSON deeper than this service accepts."
                    : "We could not parse the JSON body of your request: " + e.detail() + ".";
            throw ClientRequestException.invalid(why, null, "invalid_json");
        }
        if (root instanceof JsonTree.Obj request) {
            return request;
        }
        throw ClientRequestException.invalid("The request body must be a JSON object.", null, "invalid_type");
    }

    /**
     * Returns the names of an object's properties in document order.
     *
     * @param o the object
     * @return the names
     */
    public static List<String> fieldNames(JsonTree.Obj o) {
        // the tree has no name listing of its own: parse the names of this object only
        List<String> names = new ArrayList<>();
        try (JsonParser p = JsonWriting.JSON.createParser(ObjectReadContext.empty(), o.raw())) {
            p.nextToken();
            String name;
            while ((name = p.nextName()) != null) {
                p.nextToken();
                p.skipChildren();
                names.add(name);
            }
        }
        return names;
    }

    // ---- typed fields

    /**
     * Returns an array's item that must be an object.
     *
     * @param a the array
     * @param i the index
     * @return the object
     * @throws ClientRequestException {@code invalid_type} otherwise
     */
    public static JsonTree.Obj element(JsonTree.Arr a, int i) {
        Object v = a.items().get(i);
        if (v instanceof JsonTree.Obj o) {
            return o;
        }
        throw invalidType(a.path() + "[" + i + "]", "an object", v);
    }

    /**
     * Returns the items of an array that must all be strings.
     *
     * @param a the array
     * @return the strings, in order
     * @throws ClientRequestException {@code invalid_type} naming the first item that is not a string
     */
    public static List<String> strings(JsonTree.Arr a) {
        List<String> out = new ArrayList<>(a.items().size());
        for (int i = 0; i < a.items().size(); i++) {
            if (!(a.items().get(i) instanceof String s)) {
                throw invalidType(a.path() + "[" + i + "]", "a string", a.items().get(i));
            }
            out.add(s);
        }
        return out;
    }

    /**
     * Reads a string field.
     *
     * @param o the object
     * @param name the field
     * @return the string, null when absent
     * @throws ClientRequestException {@code invalid_type} for another kind
     */
    public static @Nullable String string(JsonTree.Obj o, String name) {
        return typed(o, name, String.class, "a string");
    }

    /**
     * Reads a string field that must be present.
     *
     * @param o the object
     * @param name the field
     * @return the string
     * @throws ClientRequestException {@code missing_required_parameter} when absent, {@code invalid_type}
     *     for another kind
     */
    public static String requireString(JsonTree.Obj o, String name) {
        return present(o, name, string(o, name));
    }

    /**
     * Reads a string field that must be one of some values.
     *
     * @param o the object
     * @param name the field
     * @param allowed the values taken
     * @return the string, null when absent
     * @throws ClientRequestException {@code invalid_type} for another kind, {@code invalid_value} for
     *     another string (the message lists the values taken)
     */
    public static @Nullable String oneOf(JsonTree.Obj o, String name, Set<String> allowed) {
        String s = string(o, name);
        if (s != null && !allowed.contains(s)) {
            throw invalidValue(o.where(name), "must be one of " + String.join(", ", allowed.stream().sorted().toList()));
        }
        return s;
    }

    /**
     * Reads an object field.
     *
     * @param o the object
     * @param name the field
     * @return the object, null when absent
     * @throws ClientRequestException {@code invalid_type} for another kind
     */
    public static JsonTree.@Nullable Obj object(JsonTree.Obj o, String name) {
        return typed(o, name, JsonTree.Obj.class, "an object");
    }

    /**
     * Reads an object field that must be present.
     *
     * @param o the object
     * @param name the field
     * @return the object
     * @throws ClientRequestException {@code missing_required_parameter} when absent, {@code invalid_type}
     *     for another kind
     */
    public static JsonTree.Obj requireObject(JsonTree.Obj o, String name) {
        return present(o, name, object(o, name));
    }

    /**
     * Reads an array field.
     *
     * @param o the object
     * @param name the field
     * @return the array, null when absent
     * @throws ClientRequestException {@code invalid_type} for another kind
     */
    public static JsonTree.@Nullable Arr array(JsonTree.Obj o, String name) {
        return typed(o, name, JsonTree.Arr.class, "an array");
    }

    /**
     * Reads an array field that must be present.
     *
     * @param o the object
     * @param name the field
     * @return the array
     * @throws ClientRequestException {@code missing_required_parameter} when absent, {@code invalid_type}
     *     for another kind
     */
    public static JsonTree.Arr requireArray(JsonTree.Obj o, String name) {
        return present(o, name, array(o, name));
    }

    /**
     * Reads a boolean field.
     *
     * @param o the object
     * @param name the field
     * @param absent the value when absent
     * @return the boolean
     * @throws ClientRequestException {@code invalid_type} for another kind
     */
    public static boolean bool(JsonTree.Obj o, String name, boolean absent) {
        Boolean b = bool(o, name);
        return b == null ? absent : b;
    }

    /**
     * Reads a boolean field.
     *
     * @param o the object
     * @param name the field
     * @return the boolean, null when absent
     * @throws ClientRequestException {@code invalid_type} for another kind
     */
    public static @Nullable Boolean bool(JsonTree.Obj o, String name) {
        return typed(o, name, Boolean.class, "a boolean");
    }

    /** A field of one JSON kind: null when absent or JSON null, else the value when it is of that kind. */
    private static <T> @Nullable T typed(JsonTree.Obj o, String name, Class<T> kind, String expected) {
        Object v = o.get(name);
        if (v == null || v == JsonTree.NULL) {
            return null;
        }
        if (kind.isInstance(v)) {
            return kind.cast(v);
        }
        throw invalidType(o.where(name), expected, v);
    }

    /** A field read that must have found a value. */
    private static <T> T present(JsonTree.Obj o, String name, @Nullable T value) {
        if (value == null) {
            throw missing(o.where(name));
        }
        return value;
    }

    /**
     * Reads a finite number field.
     *
     * @param o the object
     * @param name the field
     * @return the number, null when absent
     * @throws ClientRequestException {@code invalid_type} for another kind or a number out of a double's range
     */
    public static @Nullable Double number(JsonTree.Obj o, String name) {
        Object v = o.get(name);
        if (v == null || v == JsonTree.NULL) {
            return null;
        }
        if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
            return n.doubleValue();
        }
        throw invalidType(o.where(name), "a number", v);
    }

    /**
     * Reads a number field that must lie in a range.
     *
     * @param o the object
     * @param name the field
     * @param min the least value taken
     * @param max the greatest value taken
     * @return the number, null when absent
     * @throws ClientRequestException {@code invalid_type} for another kind, {@code invalid_value} out of range
     */
    public static @Nullable Double number(JsonTree.Obj o, String name, long min, long max) {
        Double d = number(o, name);
        if (d != null && (d < min || d > max)) {
            throw invalidValue(o.where(name), "must be between " + min + " and " + max);
        }
        return d;
    }

    /**
     * Reads an integer field. A whole number written as a float ({@code 100.0}) is taken: some clients
     * write every number so.
     *
     * @param o the object
     * @param name the field
     * @return the integer, null when absent
     * @throws ClientRequestException {@code invalid_type} for another kind, a fraction, or a number
     *     beyond a long
     */
    public static @Nullable Long integer(JsonTree.Obj o, String name) {
        Object v = o.get(name);
        if (v == null || v == JsonTree.NULL) {
            return null;
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Number n && !(v instanceof BigInteger) && n.doubleValue() == Math.rint(n.doubleValue())
                && Math.abs(n.doubleValue()) < 1e15) {
            return (long) n.doubleValue();
        }
        throw invalidType(o.where(name), "an integer", v);
    }

    /**
     * Reads an integer field that must be from 1 to {@link Integer#MAX_VALUE}, a count of tokens.
     *
     * @param o the object
     * @param name the field
     * @return the integer, null when absent
     * @throws ClientRequestException as {@link #integer}, or {@code invalid_value} out of range
     */
    public static @Nullable Long positiveInt(JsonTree.Obj o, String name) {
        Long v = integer(o, name);
        if (v != null && (v < 1 || v > Integer.MAX_VALUE)) {
            throw invalidValue(o.where(name), "must be between 1 and " + Integer.MAX_VALUE);
        }
        return v;
    }

    // ---- errors, in OpenAI's words where OpenAI has them

    /**
     * A required parameter is absent: {@code missing_required_parameter}.
     *
     * @param param the path of the parameter
     * @return the exception, to throw
     */
    public static ClientRequestException missing(String param) {
        return ClientRequestException.invalid("Missing required parameter: '" + param + "'.", param,
                "missing_required_parameter");
    }

    /**
     * A value is of the wrong JSON kind: {@code invalid_type}. The message names the kind found,
     * never the value.
     *
     * @param param the path of the value
     * @param expected what was expected, with its article ({@code "a string"})
     * @param found the value found
     * @return the exception, to throw
     */
    public static ClientRequestException invalidType(String param, String expected, @Nullable Object found) {
        return ClientRequestException.invalid("Invalid type for '" + param + "': expected " + expected + ", but got "
                + JsonTree.kind(found) + " instead.", param, "invalid_type");
    }

    /**
     * A value of the right kind breaks a rule: {@code invalid_value}.
     *
     * @param param the path of the value
     * @param rule what it must be, after "it" ({@code "must not be blank"})
     * @return the exception, to throw
     */
    public static ClientRequestException invalidValue(String param, String rule) {
        return ClientRequestException.invalid("Invalid value for '" + param + "': it " + rule + ".", param,
                "invalid_value");
    }

    /**
     * A valid value asks for what the service does not do: {@code unsupported_value}.
     *
     * @param param the path of the value
     * @param message the whole message, naming the place and what is not supported
     * @return the exception, to throw
     */
    public static ClientRequestException unsupported(String param, String message) {
        return ClientRequestException.invalid(message, param, "unsupported_value");
    }
}
