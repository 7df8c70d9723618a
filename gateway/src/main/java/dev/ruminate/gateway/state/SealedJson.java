package dev.ruminate.gateway.state;

import java.io.StringWriter;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/** The header line of a sealed plaintext, {@code {"route":…,"issued_at":…}}, written and read with jackson-core. */
final class SealedJson {

    private static final JsonFactory JSON = JsonFactory.builder().build();

    /** The header's fields. */
    record Header(String route, long issuedAt) {
    }

    private SealedJson() {
    }

    static String header(String route, long issuedAt) {
        StringWriter out = new StringWriter(64);
        try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), out)) {
            g.writeStartObject();
            g.writeStringProperty("route", route);
            g.writeNumberProperty("issued_at", issuedAt);
            g.writeEndObject();
        }
        return out.toString();
    }

    /** Reads a header; null when it is not one (unknown fields are skipped, for later versions). */
    static @Nullable Header readHeader(String json) {
        String route = null;
        Long issuedAt = null;
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if ("route".equals(name) && value == JsonToken.VALUE_STRING) {
                    route = p.getString();
                } else if ("issued_at".equals(name) && value == JsonToken.VALUE_NUMBER_INT) {
                    issuedAt = p.getLongValue();
                } else {
                    p.skipChildren();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                return null;
            }
        } catch (JacksonException e) {
            return null;
        }
        return route == null || issuedAt == null ? null : new Header(route, issuedAt);
    }
}
