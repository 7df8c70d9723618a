package dev.ruminate.providers.responses;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/** Writes the plain Java values a request's extras may hold. */
final class ExtraValues {

    private ExtraValues() {
    }

    static void write(JsonGenerator g, @Nullable Object value) {
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
                write(g, item);
            }
            g.writeEndArray();
        } else if (value instanceof Map<?, ?> map) {
            g.writeStartObject();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!(entry.getKey() instanceof String key)) {
                    throw new IllegalArgumentException("extra map keys must be strings, found " + entry.getKey());
                }
                g.writeName(key);
                write(g, entry.getValue());
            }
            g.writeEndObject();
        } else {
            throw new IllegalArgumentException("an extra must be a string, number, boolean, null, list or map, found "
                    + value.getClass().getName());
        }
    }
}
