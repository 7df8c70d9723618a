package dev.ruminate.providers.internal;

import java.io.StringWriter;
import java.util.function.Consumer;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;

/** Writes JSON text with a test's generator calls, for asserting the exact bytes helpers write. */
final class Json {

    private Json() {
    }

    static String written(Consumer<JsonGenerator> writes) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JsonWriting.JSON.createGenerator(ObjectWriteContext.empty(), out)) {
            writes.accept(g);
        }
        return out.toString();
    }

    /** Writes inside an object, as the request encoders call the helpers. */
    static String inObject(Consumer<JsonGenerator> writes) {
        return written(g -> {
            g.writeStartObject();
            writes.accept(g);
            g.writeEndObject();
        });
    }
}
