package dev.ruminate.providers.gemini;

import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.spi.ShapeException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;

/**
 * Assembles a function call's arguments from Vertex AI's {@code partialArgs} fragments: each names
 * a JSON path ({@code $.location}, {@code $.items[0].id}) and a value; a string value may continue
 * over several fragments of the same path. The result is one JSON object, its members in order of
 * first appearance.
 *
 * <p>One instance per call; not thread-safe.
 */
final class PartialArguments {

    private final Map<String, Object> root = new LinkedHashMap<>();

    /** Adds one fragment. */
    void add(GeminiPart.PartialArg arg) {
        List<Object> path = parse(arg.jsonPath());
        if (path.isEmpty()) {
            throw new ShapeException("partialArgs jsonPath must name a member: " + arg.jsonPath());
        }
        Object parent = root;
        for (int i = 0; i < path.size() - 1; i++) {
            parent = child(parent, path.get(i), path.get(i + 1) instanceof Integer);
        }
        Object key = path.get(path.size() - 1);
        Object value = arg.stringValue() != null ? new StringBuilder(arg.stringValue()) : new RawJson(arg.jsonValue());
        Object existing = get(parent, key);
        if (existing instanceof StringBuilder sb && value instanceof StringBuilder more) {
            sb.append(more);
        } else {
            put(parent, key, value);
        }
    }

    /** Returns the arguments as JSON text. */
    String json() {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JsonWriting.JSON.createGenerator(ObjectWriteContext.empty(), out)) {
            write(g, root);
        }
        return out.toString();
    }

    /** A non-string value, as the JSON text the wire gave. */
    private record RawJson(@Nullable String json) {
    }

    private static void write(JsonGenerator g, Object value) {
        if (value instanceof Map<?, ?> map) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                g.writeName((String) e.getKey());
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else if (value instanceof List<?> list) {
            g.writeStartArray();
            for (Object item : list) {
                write(g, item == null ? new RawJson(null) : item);
            }
            g.writeEndArray();
        } else if (value instanceof StringBuilder sb) {
            g.writeString(sb.toString());
        } else {
            String json = ((RawJson) value).json();
            if (json == null) {
                g.writeNull();
            } else {
                JsonWriting.copyJson(g, json, "a partialArgs value");
            }
        }
    }

    private static Object child(Object parent, Object key, boolean array) {
        Object existing = get(parent, key);
        if (existing != null) {
            return existing;
        }
        Object created = array ? new ArrayList<>() : new LinkedHashMap<String, Object>();
        put(parent, key, created);
        return created;
    }

    private static @Nullable Object get(Object parent, Object key) {
        if (parent instanceof Map<?, ?> map) {
            return map.get(key);
        }
        List<?> list = (List<?>) parent;
        int i = (Integer) key;
        return i < list.size() ? list.get(i) : null;
    }

    @SuppressWarnings("unchecked")
    private static void put(Object parent, Object key, Object value) {
        if (parent instanceof Map<?, ?> map) {
            if (!(key instanceof String name)) {
                throw new ShapeException("partialArgs index into an object");
            }
            ((Map<String, Object>) map).put(name, value);
            return;
        }
        if (!(key instanceof Integer index)) {
            throw new ShapeException("partialArgs member of an array");
        }
        List<Object> list = (List<Object>) parent;
        while (list.size() <= index) {
            list.add(null);
        }
        list.set(index, value);
    }

    /** Splits {@code $.a.b[2].c} into {@code a, b, 2, c}; names may be quoted as {@code ['a b']}. */
    static List<Object> parse(String jsonPath) {
        if (!jsonPath.startsWith("$")) {
            throw new ShapeException("partialArgs jsonPath must start with $: " + jsonPath);
        }
        List<Object> out = new ArrayList<>();
        int i = 1;
        while (i < jsonPath.length()) {
            char c = jsonPath.charAt(i);
            if (c == '.') {
                int end = i + 1;
                while (end < jsonPath.length() && jsonPath.charAt(end) != '.' && jsonPath.charAt(end) != '[') {
                    end++;
                }
                out.add(jsonPath.substring(i + 1, end));
                i = end;
            } else if (c == '[') {
                int end = jsonPath.indexOf(']', i);
                if (end < 0) {
                    throw new ShapeException("unclosed [ in jsonPath " + jsonPath);
                }
                String inside = jsonPath.substring(i + 1, end);
                if (inside.length() >= 2 && (inside.charAt(0) == '\'' || inside.charAt(0) == '"')) {
                    out.add(inside.substring(1, inside.length() - 1));
                } else {
                    try {
                        out.add(Integer.parseInt(inside));
                    } catch (NumberFormatException e) {
                        throw new ShapeException("bad index in jsonPath " + jsonPath);
                    }
                }
                i = end + 1;
            } else {
                throw new ShapeException("bad jsonPath " + jsonPath);
            }
        }
        return out;
    }
}
