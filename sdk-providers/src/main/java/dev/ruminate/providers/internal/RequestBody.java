package dev.ruminate.providers.internal;

import dev.ruminate.core.request.ChatRequest;
import java.io.ByteArrayOutputStream;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;

/**
 * The frame every request encoder writes its body in: one JSON object holding the family's fields,
 * then the request's extras, which come last so that an extra replaces the field of its name (the
 * family leaves out every field whose name is among the extras' keys).
 *
 * <p>Stateless and thread-safe.
 */
public final class RequestBody {

    private RequestBody() {
    }

    /**
     * Writes a request body.
     *
     * @param request the request whose extras end the object
     * @param sizeHint the expected size in bytes, to size the buffer
     * @param fields writes the family's fields into the open object
     * @return the body's UTF-8 bytes
     */
    public static byte[] write(ChatRequest request, int sizeHint, Consumer<JsonGenerator> fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(sizeHint);
        try (JsonGenerator g = JsonWriting.JSON.createGenerator(ObjectWriteContext.empty(), out)) {
            g.writeStartObject();
            fields.accept(g);
            for (Map.Entry<String, @Nullable Object> extra : request.extras().entrySet()) {
                g.writeName(extra.getKey());
                JsonWriting.writeValue(g, extra.getValue());
            }
            g.writeEndObject();
        }
        return out.toByteArray();
    }

    /**
     * Writes {@code model}, unless the request's extras replace it.
     *
     * @param g the generator, in the request object
     * @param request the request
     */
    public static void writeModel(JsonGenerator g, ChatRequest request) {
        if (!request.extras().containsKey("model")) {
            g.writeStringProperty("model", request.model());
        }
    }
}
