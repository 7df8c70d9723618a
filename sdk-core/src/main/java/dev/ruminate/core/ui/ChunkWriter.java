package dev.ruminate.core.ui;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.internal.JsonTree;
import java.io.StringWriter;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/** Writes one UI message chunk as compact one-line JSON. Stateless and thread-safe. */
final class ChunkWriter {

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private ChunkWriter() {
    }

    /** Writes an object whose first property is {@code type}, then what {@code body} adds. */
    static String chunk(String type, Consumer<JsonGenerator> body) {
        StringWriter out = new StringWriter(96);
        try (JsonGenerator g = FACTORY.createGenerator(ObjectWriteContext.empty(), out)) {
            g.writeStartObject();
            g.writeStringProperty("type", type);
            body.accept(g);
            g.writeEndObject();
        }
        return out.toString();
    }

    /** A chunk with a type and one string property. */
    static String chunk(String type, String name, String value) {
        return chunk(type, g -> g.writeStringProperty(name, value));
    }

    /**
     * Writes a value that should be JSON (tool arguments, a tool's result): as that JSON, re-written
     * compactly, when it parses; as a JSON string of the text when it does not (arguments cut short by
     * a length limit, a plain-text tool result).
     */
    static void jsonOrString(JsonGenerator g, String name, @Nullable String text) {
        g.writeName(name);
        if (text == null || text.isBlank()) {
            if (text == null) {
                g.writeNull();
            } else {
                g.writeString(text);
            }
            return;
        }
        try {
            JsonTree.parse(text);
        } catch (ProtocolException e) {
            g.writeString(text);
            return;
        }
        try (JsonParser p = FACTORY.createParser(ObjectReadContext.empty(), text)) {
            p.nextToken();
            g.copyCurrentStructure(p);
        }
    }
}
