package dev.ruminate.gateway.store;

import java.io.StringWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * The JSON the stores need, with jackson-core's streaming API: an output item's {@code id}, and a
 * {@link StoredResponse} as one JSON object (for Redis).
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.2
 */
public final class ItemJson {

    private static final JsonFactory JSON = JsonFactory.builder().build();

    private ItemJson() {
    }

    /**
     * Reads an item's id: the string {@code id} property of the top-level object; the rest of the
     * item is skipped, not checked.
     *
     * @param itemJson a Responses item as JSON
     * @return the id, or null when the item has none, or is not a JSON object
     */
    public static @Nullable String idOf(String itemJson) {
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), itemJson)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if ("id".equals(name) && value == JsonToken.VALUE_STRING) {
                    return p.getString();
                }
                p.skipChildren();
            }
            return null;
        } catch (JacksonException e) {
            return null;
        }
    }

    /**
     * What the stores index an output item by, read from its top-level properties.
     *
     * @param type the {@code type}, or null
     * @param id the {@code id}, or null
     * @param callId the {@code call_id}, or null
     * @param sealed whether it has a string {@code encrypted_content}
     * @param readable whether its {@code summary} or {@code content} array has an entry
     */
    record Fields(@Nullable String type, @Nullable String id, @Nullable String callId, boolean sealed, boolean readable) {
    }

    /** Reads an item's {@link Fields}; an item that is not a JSON object has none of them. */
    static Fields fields(String itemJson) {
        String type = null;
        String id = null;
        String callId = null;
        boolean sealed = false;
        boolean readable = false;
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), itemJson)) {
            if (p.nextToken() == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                    String name = p.currentName();
                    JsonToken value = p.nextToken();
                    boolean string = value == JsonToken.VALUE_STRING;
                    switch (name) {
                        case "type" -> type = string ? p.getString() : skip(p, type);
                        case "id" -> id = string ? p.getString() : skip(p, id);
                        case "call_id" -> callId = string ? p.getString() : skip(p, callId);
                        case "encrypted_content" -> sealed = string || skip(p, false);
                        case "summary", "content" -> readable |= value == JsonToken.START_ARRAY && nonEmpty(p);
                        default -> p.skipChildren();
                    }
                }
            }
        } catch (JacksonException e) {
            return new Fields(null, null, null, false, false);
        }
        return new Fields(type, id, callId, sealed, readable);
    }

    /** Skips a value that is not the expected string, keeping what was read. */
    private static <T extends @Nullable Object> T skip(JsonParser p, T kept) {
        p.skipChildren();
        return kept;
    }

    /** Reads an array (its start already read) to its end, telling whether it had an entry. */
    private static boolean nonEmpty(JsonParser p) {
        boolean any = false;
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY && t != null) {
            any = true;
            p.skipChildren();
        }
        return any;
    }

    /**
     * Writes a response: {@code {"id","model","created_at" (ISO-8601),"instructions","context":[…],
     * "output":[…]}}, items as JSON strings so that they come back byte for byte.
     */
    static String write(StoredResponse r) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), out)) {
            g.writeStartObject();
            g.writeStringProperty("id", r.id());
            g.writeStringProperty("model", r.model());
            g.writeStringProperty("created_at", r.createdAt().toString());
            g.writeStringProperty("instructions", r.instructions());
            strings(g, "context", r.context());
            strings(g, "output", r.output());
            g.writeEndObject();
        }
        return out.toString();
    }

    /**
     * Reads what {@link #write} wrote.
     *
     * @throws IllegalArgumentException when the value is not such a response (another writer's
     *     key under the same prefix, or a later format)
     */
    static StoredResponse read(String json) {
        String id = null;
        String model = null;
        Instant createdAt = null;
        String instructions = "";
        List<String> context = List.of();
        List<String> output = List.of();
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("a stored response is a JSON object");
            }
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                switch (name) {
                    case "id" -> id = string(p, value, name);
                    case "model" -> model = string(p, value, name);
                    case "created_at" -> createdAt = Instant.parse(string(p, value, name));
                    case "instructions" -> instructions = string(p, value, name);
                    case "context" -> context = strings(p, value, name);
                    case "output" -> output = strings(p, value, name);
                    default -> p.skipChildren();
                }
            }
        } catch (JacksonException | DateTimeParseException e) {
            throw new IllegalArgumentException("a stored response is not readable", e);
        }
        if (id == null || model == null || createdAt == null) {
            throw new IllegalArgumentException("a stored response lacks id, model or created_at");
        }
        return new StoredResponse(id, model, createdAt, instructions, context, output);
    }

    private static void strings(JsonGenerator g, String name, List<String> values) {
        g.writeArrayPropertyStart(name);
        for (String v : values) {
            g.writeString(v);
        }
        g.writeEndArray();
    }

    private static String string(JsonParser p, JsonToken value, String name) {
        if (value != JsonToken.VALUE_STRING) {
            throw new IllegalArgumentException(name + " must be a string");
        }
        return p.getString();
    }

    private static List<String> strings(JsonParser p, JsonToken value, String name) {
        if (value != JsonToken.START_ARRAY) {
            throw new IllegalArgumentException(name + " must be an array");
        }
        List<String> out = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            out.add(string(p, t, name));
        }
        return out;
    }
}
