package dev.ruminate.core.internal;

import dev.ruminate.core.error.ProtocolException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;

/**
 * A small read-only JSON tree for the non-hot-path readers (stored messages and events, request
 * input items), built with Jackson's streaming parser so that sdk-core needs no databind.
 *
 * <p>Every object and array remembers its exact source text, so an embedded provider block can be
 * kept byte for byte, and its path ({@code parts[2].text}), so a shape error can say where it is
 * without quoting any value: values may be secrets (encrypted blobs, tool output).
 *
 * <p>Scalars are {@link String}, {@link Boolean}, {@link Number} or {@link #NULL}. Immutable once
 * parsed and thread-safe.
 */
public final class JsonTree {

    /** The JSON {@code null} value (a field that is present with the value null). */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private JsonTree() {
    }

    /**
     * Parses one JSON value.
     *
     * @param json the text
     * @return the value: a {@link Obj}, an {@link Arr} or a scalar
     * @throws ProtocolException {@code MALFORMED_JSON} for text that is not exactly one JSON value
     *     (the message gives line and column, never the text), {@code NESTING_TOO_DEEP} beyond the
     *     parser's limit
     */
    public static Object parse(String json) {
        Objects.requireNonNull(json, "json");
        try (JsonParser p = FACTORY.createParser(ObjectReadContext.empty(), json)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw malformed("empty input", 1, 1);
            }
            Object value = read(p, json, "");
            if (p.nextToken() != null) {
                TokenStreamLocation at = p.currentTokenLocation();
                throw malformed("text after the JSON value", at.getLineNr(), at.getColumnNr());
            }
            return value;
        } catch (StreamConstraintsException e) {
            throw new ProtocolException(ProtocolException.Reason.NESTING_TOO_DEEP,
                    "the JSON exceeds the parser's limits", -1, -1, null);
        } catch (JacksonException e) {
            // the parser's own message may quote the input, which may hold a secret: only the place is kept
            TokenStreamLocation at = e.getLocation();
            throw malformed("not well-formed JSON", at == null ? -1 : at.getLineNr(), at == null ? -1 : at.getColumnNr());
        }
    }

    /**
     * Parses one JSON object.
     *
     * @param json the text
     * @param what what the object is, for the error message ({@code "a message"})
     * @return the object
     * @throws ProtocolException as {@link #parse(String)}, or {@code UNEXPECTED_SHAPE} when the value is not an object
     */
    public static Obj parseObject(String json, String what) {
        Object v = parse(json);
        if (v instanceof Obj o) {
            return o;
        }
        throw shape(what + " must be a JSON object, was " + kind(v));
    }

    /**
     * Returns a {@code UNEXPECTED_SHAPE} protocol error with a detail that names no value.
     *
     * @param detail what was wrong and where
     * @return the error, to throw
     */
    public static ProtocolException shape(String detail) {
        return new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE, detail, -1, -1, null);
    }

    /**
     * Returns the {@code UNEXPECTED_SHAPE} protocol error of JSON whose values the value it was read
     * into refuses (an index out of range, a blank name, fields that do not go together): the shape is
     * right but the content is not what the writer writes. The message names what was read, never a
     * value; the refusal is kept as the cause.
     *
     * @param what what was read, such as {@code an event}
     * @param refusal the value's refusal
     * @return the error, to throw
     */
    public static ProtocolException invalid(String what, IllegalArgumentException refusal) {
        return new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE,
                what + " has a value its type does not accept", -1, -1, refusal);
    }

    /**
     * Names the JSON kind of a value ({@code a string}, {@code an object}, …) for messages.
     *
     * @param v the value
     * @return its kind
     */
    public static String kind(@Nullable Object v) {
        if (v == null || v == NULL) {
            return "null";
        }
        if (v instanceof Obj) {
            return "an object";
        }
        if (v instanceof Arr) {
            return "an array";
        }
        if (v instanceof String) {
            return "a string";
        }
        if (v instanceof Boolean) {
            return "a boolean";
        }
        return "a number";
    }

    private static ProtocolException malformed(String what, long line, long column) {
        String where = line >= 0 && column >= 0 ? " (column " + column + ")" : "";
        return new ProtocolException(ProtocolException.Reason.MALFORMED_JSON, what + where, line, -1, null);
    }

    private static Object read(JsonParser p, String src, String path) {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT: {
                int start = (int) p.currentTokenLocation().getCharOffset();
                Map<String, Object> fields = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    fields.put(name, read(p, src, path.isEmpty() ? name : path + "." + name));
                }
                int end = (int) p.currentTokenLocation().getCharOffset() + 1;
                return new Obj(fields, src, start, end, path);
            }
            case START_ARRAY: {
                int start = (int) p.currentTokenLocation().getCharOffset();
                List<Object> items = new ArrayList<>();
                int i = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    items.add(read(p, src, path + "[" + i++ + "]"));
                }
                int end = (int) p.currentTokenLocation().getCharOffset() + 1;
                return new Arr(items, src, start, end, path);
            }
            case VALUE_STRING:
                return p.getString();
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return p.getNumberValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return NULL;
            default:
                throw malformed("unexpected token", -1, -1);
        }
    }

    /** What objects and arrays share: their source text and their path. */
    public abstract static sealed class Node permits Arr, Obj {
        private final String src;
        private final int start;
        private final int end;
        private final String path;

        Node(String src, int start, int end, String path) {
            this.src = src;
            this.start = start;
            this.end = end;
            this.path = path;
        }

        /**
         * Returns the exact source text of this value.
         *
         * @return the text, from its opening to its closing bracket
         */
        public String raw() {
            return src.substring(start, end);
        }

        /**
         * Returns the path of this value from the root ({@code parts[2]}), empty for the root.
         *
         * @return the path
         */
        public String path() {
            return path;
        }

        String pathOf(String name) {
            return path.isEmpty() ? name : path + "." + name;
        }
    }

    /** A JSON array. */
    public static final class Arr extends Node {
        private final List<Object> items;

        Arr(List<Object> items, String src, int start, int end, String path) {
            super(src, start, end, path);
            this.items = Collections.unmodifiableList(items);
        }

        /**
         * Returns the items.
         *
         * @return the items, unmodifiable
         */
        public List<Object> items() {
            return items;
        }

        /**
         * Returns an item that must be an object.
         *
         * @param i the index
         * @return the object
         * @throws ProtocolException {@code UNEXPECTED_SHAPE} otherwise
         */
        public Obj object(int i) {
            Object v = items.get(i);
            if (v instanceof Obj o) {
                return o;
            }
            throw shape(path() + "[" + i + "] must be an object, was " + kind(v));
        }
    }

    /** A JSON object, its properties in document order. */
    public static final class Obj extends Node {
        private final Map<String, Object> fields;

        Obj(Map<String, Object> fields, String src, int start, int end, String path) {
            super(src, start, end, path);
            this.fields = Collections.unmodifiableMap(fields);
        }

        /**
         * Returns a property's value.
         *
         * @param name the name
         * @return the value, null when absent ({@link #NULL} when present as JSON null)
         */
        public @Nullable Object get(String name) {
            return fields.get(name);
        }

        /**
         * Tells whether a property is present with a value other than JSON null.
         *
         * @param name the name
         * @return true when present and not null
         */
        public boolean has(String name) {
            Object v = fields.get(name);
            return v != null && v != NULL;
        }

        /**
         * Returns a string property.
         *
         * @param name the name
         * @return the string, null when absent or JSON null
         * @throws ProtocolException {@code UNEXPECTED_SHAPE} when it is not a string
         */
        public @Nullable String string(String name) {
            Object v = fields.get(name);
            if (v == null || v == NULL) {
                return null;
            }
            if (v instanceof String s) {
                return s;
            }
            throw shape(pathOf(name) + " must be a string, was " + kind(v));
        }

        /**
         * Returns a string property that must be present.
         *
         * @param name the name
         * @return the string
         * @throws ProtocolException {@code UNEXPECTED_SHAPE} when absent, null or not a string
         */
        public String requireString(String name) {
            String s = string(name);
            if (s == null) {
                throw shape(pathOf(name) + " is required");
            }
            return s;
        }

        /**
         * Returns a boolean property.
         *
         * @param name the name
         * @param absent the value when absent or null
         * @return the value
         * @throws ProtocolException {@code UNEXPECTED_SHAPE} when it is not a boolean
         */
        public boolean bool(String name, boolean absent) {
            Object v = fields.get(name);
            if (v == null || v == NULL) {
                return absent;
            }
            if (v instanceof Boolean b) {
                return b;
            }
            throw shape(pathOf(name) + " must be a boolean, was " + kind(v));
        }

        /**
         * Returns an integral number property.
         *
         * @param name the name
         * @return the value, null when absent or null
         * @throws ProtocolException {@code UNEXPECTED_SHAPE} when it is not an integral number
         */
        public @Nullable Long longValue(String name) {
            Object v = fields.get(name);
            if (v == null || v == NULL) {
                return null;
            }
            if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                return ((Number) v).longValue();
            }
            String found = v instanceof java.math.BigInteger ? "out of range"
                    : v instanceof Number ? "not integral" : "was " + kind(v);
            throw shape(pathOf(name) + " must be an integer, " + found);
        }

        /**
         * Returns a non-negative int property that must be present.
         *
         * @param name the name
         * @return the value
         * @throws ProtocolException {@code UNEXPECTED_SHAPE} when absent, not an integer or out of range
         */
        public int requireIndex(String name) {
            Long v = longValue(name);
            if (v == null) {
                throw shape(pathOf(name) + " is required");
            }
            if (v < 0 || v > Integer.MAX_VALUE) {
                throw shape(pathOf(name) + " must be between 0 and " + Integer.MAX_VALUE);
            }
            return v.intValue();
        }

        /**
         * Returns an object property.
         *
         * @param name the name
         * @return the object, null when absent or null
         * @throws ProtocolException {@code UNEXPECTED_SHAPE} when it is not an object
         */
        public @Nullable Obj object(String name) {
            Object v = fields.get(name);
            if (v == null || v == NULL) {
                return null;
            }
            if (v instanceof Obj o) {
                return o;
            }
            throw shape(pathOf(name) + " must be an object, was " + kind(v));
        }

        /**
         * Returns an array property.
         *
         * @param name the name
         * @return the array, null when absent or null
         * @throws ProtocolException {@code UNEXPECTED_SHAPE} when it is not an array
         */
        public @Nullable Arr array(String name) {
            Object v = fields.get(name);
            if (v == null || v == NULL) {
                return null;
            }
            if (v instanceof Arr a) {
                return a;
            }
            throw shape(pathOf(name) + " must be an array, was " + kind(v));
        }

        /**
         * Returns the path of a property, for messages.
         *
         * @param name the property
         * @return its path
         */
        public String where(String name) {
            return pathOf(name);
        }
    }
}
