package dev.ruminate.providers.internal;

import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ToolDefinition;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * What every provider's request encoder writes the same way: the plain Java values of a request's
 * extras, arrays of strings, and JSON text (a tool's schema, a tool call's arguments) embedded as JSON.
 *
 * <p>Stateless and thread-safe.
 */
public final class JsonWriting {

    /**
     * One factory for all provider codecs' generators and blocking parsers: thread-safe, and costly
     * enough to share. Each of those gives its buffers back to the factory's pool when closed. Stream
     * parsers keep theirs for the stream's life, so they come from factories of their own
     * ({@link StreamParser#factoryKnowing}) and do not drain this pool: otherwise every request's
     * generator would find the pool empty and allocate its buffers again.
     */
    public static final JsonFactory JSON = new JsonFactory();

    private JsonWriting() {
    }

    /**
     * Returns a string as a JSON string literal, quotes and escapes included.
     *
     * @param text the string
     * @return the literal, such as {@code "a \"b\""}
     */
    public static String quoted(String text) {
        StringWriter out = new StringWriter(text.length() + 2);
        try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), out)) {
            g.writeString(text);
        }
        return out.toString();
    }

    /**
     * Writes a string property, or JSON {@code null} for a null value: OpenAI's wire writes absent
     * fields as null rather than leaving them out.
     *
     * @param g the generator
     * @param name the property name
     * @param value the value, null for JSON null
     */
    public static void nullableString(JsonGenerator g, String name, @Nullable String value) {
        if (value != null) {
            g.writeStringProperty(name, value);
        } else {
            g.writeNullProperty(name);
        }
    }

    /**
     * Writes a plain value: null, string, boolean, number, or lists and string-keyed maps of these.
     *
     * @param g the generator
     * @param value the value
     * @throws IllegalArgumentException for any other type
     */
    public static void writeValue(JsonGenerator g, @Nullable Object value) {
        if (value == null) {
            g.writeNull();
        } else if (value instanceof String s) {
            g.writeString(s);
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            g.writeNumber(((Number) value).longValue());
        } else if (value instanceof Double || value instanceof Float) {
            g.writeNumber(((Number) value).doubleValue());
        } else if (value instanceof BigDecimal d) {
            g.writeNumber(d);
        } else if (value instanceof BigInteger i) {
            g.writeNumber(i);
        } else if (value instanceof List<?> list) {
            g.writeStartArray();
            for (Object item : list) {
                writeValue(g, item);
            }
            g.writeEndArray();
        } else if (value instanceof Map<?, ?> map) {
            g.writeStartObject();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!(entry.getKey() instanceof String key)) {
                    throw new IllegalArgumentException("extra map keys must be strings, found " + entry.getKey());
                }
                g.writeName(key);
                writeValue(g, entry.getValue());
            }
            g.writeEndObject();
        } else {
            throw new IllegalArgumentException("an extra must be a string, number, boolean, null, list or map, found "
                    + value.getClass().getName());
        }
    }

    /**
     * Writes JSON text as one embedded JSON value, token by token, so that invalid JSON is caught
     * here rather than by the provider.
     *
     * @param g the generator
     * @param json the JSON text
     * @param what names the text in error messages ({@code "tool weather's parameters schema"})
     * @throws IllegalArgumentException if the text is empty, not JSON, or more than one value
     */
    public static void copyJson(JsonGenerator g, String json, String what) {
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), json)) {
            if (p.nextToken() == null) {
                throw new IllegalArgumentException(what + " is empty");
            }
            g.copyCurrentStructure(p);
            if (p.nextToken() != null) {
                throw new IllegalArgumentException(what + " has text after its JSON value");
            }
        } catch (JacksonException e) {
            throw new IllegalArgumentException(what + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Writes a property holding an array of strings.
     *
     * @param g the generator, in an object
     * @param name the property name
     * @param values the strings, in order
     */
    public static void writeStrings(JsonGenerator g, String name, List<String> values) {
        g.writeArrayPropertyStart(name);
        for (String value : values) {
            g.writeString(value);
        }
        g.writeEndArray();
    }

    /**
     * Writes a system or user message as {@code {"role": …, "content": …}}, the plain message that
     * the APIs descended from OpenAI's (Chat Completions, Responses, Ollama) all take.
     *
     * @param g the generator, in an array
     * @param m a system or user message
     * @throws IllegalArgumentException for an assistant message or a tool result, which each API
     *     writes its own way
     */
    public static void writePlainMessage(JsonGenerator g, Message m) {
        String role;
        String content;
        if (m instanceof SystemMessage s) {
            role = "system";
            content = s.text();
        } else if (m instanceof UserMessage u) {
            role = "user";
            content = u.text();
        } else {
            throw new IllegalArgumentException("unknown message type " + m.getClass().getName());
        }
        writeTextMessage(g, role, content);
    }

    /**
     * Writes a message {@code {"role": …, "content": …}} of one text.
     *
     * @param g the generator, in an array
     * @param role the role
     * @param content the text
     */
    public static void writeTextMessage(JsonGenerator g, String role, String content) {
        g.writeStartObject();
        g.writeStringProperty("role", role);
        g.writeStringProperty("content", content);
        g.writeEndObject();
    }

    /**
     * Writes a tool's parameters schema as the embedded JSON value it is.
     *
     * @param g the generator, after the property name
     * @param tool the tool
     * @throws IllegalArgumentException naming the tool when the schema is empty, not JSON, or more
     *     than one value
     */
    public static void writeSchema(JsonGenerator g, ToolDefinition tool) {
        copyJson(g, tool.parametersSchema(), "tool " + tool.name() + " has a parameters schema that");
    }

    /**
     * Writes a tool call's arguments as the embedded JSON value they are; blank arguments (a call
     * without parameters, as some models send it) as an empty object.
     *
     * @param g the generator, after the property name
     * @param call the tool call
     * @throws IllegalArgumentException naming the call when the arguments are not JSON, or more than
     *     one value
     */
    public static void writeArguments(JsonGenerator g, ToolCallPart call) {
        if (call.arguments().isBlank()) {
            g.writeStartObject();
            g.writeEndObject();
        } else {
            copyJson(g, call.arguments(), "the arguments of tool call " + call.name());
        }
    }
}
