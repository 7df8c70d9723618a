package dev.ruminate.testkit;

import java.io.StringWriter;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/** Renders the JSON of every script's writer with Jackson's streaming generator, so texts are always escaped. */
final class Json {

    // No provider escapes '/' (the recordings show it plain), and a test comparing text with the wire reads better.
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .disable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES)
            .build();

    private Json() {
    }

    /** Renders what {@code body} writes, as compact JSON text. */
    static String render(Consumer<JsonGenerator> body) {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = FACTORY.createGenerator(ObjectWriteContext.empty(), text)) {
            body.accept(json);
        }
        return text.toString();
    }

    /** Renders one object whose fields {@code fields} writes. */
    static String object(Consumer<JsonGenerator> fields) {
        return render(g -> {
            g.writeStartObject();
            fields.accept(g);
            g.writeEndObject();
        });
    }

    /** Writes a string property, or a JSON {@code null} for a null value. */
    static void stringOrNull(JsonGenerator json, String name, @Nullable String value) {
        if (value == null) {
            json.writeNullProperty(name);
        } else {
            json.writeStringProperty(name, value);
        }
    }

    /** Checks that text is one JSON value, so that a body it is written into raw stays valid JSON. */
    static String valid(String json) {
        try (JsonParser p = FACTORY.createParser(ObjectReadContext.empty(), json)) {
            if (p.nextToken() == null) {
                throw new IllegalArgumentException("empty JSON value");
            }
            p.skipChildren();
            if (p.nextToken() != null) {
                throw new IllegalArgumentException("text after the JSON value: " + json);
            }
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not valid JSON: " + json, e);
        }
        return json;
    }

    /** Reads the one string property of a JSON object such as {@code {"city":"Paris"}}. */
    static String onlyString(String objectJson) {
        try (JsonParser p = FACTORY.createParser(ObjectReadContext.empty(), objectJson)) {
            p.nextToken();
            p.nextToken();
            p.nextToken();
            return p.getString();
        }
    }

    /** The first half (in code points) of a JSON record: a strict prefix of an object is never valid JSON. */
    static String half(String record) {
        return record.substring(0, record.offsetByCodePoints(0, record.codePointCount(0, record.length()) / 2));
    }
}
