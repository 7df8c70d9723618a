package dev.ruminate.transport.wire;

import java.nio.charset.StandardCharsets;

/** A {@link JsonLine} as a comparable value; the bytes are held as ISO-8859-1 text, one char per byte. */
record JsonLineValue(String rawBytes, long line, long byteOffset) {

    static JsonLineValue of(JsonLine line) {
        return new JsonLineValue(new String(line.bytes(), StandardCharsets.ISO_8859_1), line.line(), line.byteOffset());
    }

    /** Creates the value of a line whose bytes are the given text, as UTF-8. */
    static JsonLineValue ofText(String text, long line, long byteOffset) {
        return new JsonLineValue(new String(Bodies.utf8(text), StandardCharsets.ISO_8859_1), line, byteOffset);
    }
}
