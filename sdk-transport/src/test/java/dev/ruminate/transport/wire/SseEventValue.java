package dev.ruminate.transport.wire;

import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * An {@link SseEvent} as a comparable value. The data is held as ISO-8859-1 text, one char per byte,
 * so that two values are equal exactly when their bytes are.
 */
record SseEventValue(String type, String rawData, @Nullable String id, long line, long byteOffset) {

    static SseEventValue of(SseEvent event) {
        return new SseEventValue(
                event.type(), new String(event.data(), StandardCharsets.ISO_8859_1), event.id(), event.line(), event.byteOffset());
    }

    /** Creates the value of an event whose data is the given text, as UTF-8. */
    static SseEventValue ofText(String type, String data, @Nullable String id, long line, long byteOffset) {
        return new SseEventValue(type, new String(Bodies.utf8(data), StandardCharsets.ISO_8859_1), id, line, byteOffset);
    }
}
