package dev.ruminate.transport.wire;

import dev.ruminate.core.error.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A deliberately plain model of newline-delimited JSON framing over {@code String}s, for property tests. */
final class JsonLinesReference {

    private JsonLinesReference() {
    }

    /** Decodes a body given as text; its bytes are its UTF-8 encoding. */
    static Outcome<JsonLineValue> decode(String body, WireLimits limits) {
        List<JsonLineValue> lines = new ArrayList<>();
        String[] pieces = body.split("\n", -1);
        long offset = 0;
        for (int i = 0; i < pieces.length; i++) {
            String piece = pieces[i];
            boolean last = i == pieces.length - 1;
            String text = piece.endsWith("\r") ? piece.substring(0, piece.length() - 1) : piece;
            if (bytes(text) > limits.maxLineBytes()) {
                return new Outcome<>(lines, new Outcome.Failure(ProtocolException.Reason.LINE_TOO_LONG, i + 1, offset));
            }
            if (!text.chars().allMatch(c -> c == ' ' || c == '\t' || c == '\r')) {
                lines.add(JsonLineValue.ofText(text, i + 1, offset));
            }
            offset += bytes(piece) + (last ? 0 : 1);
        }
        return new Outcome<>(lines, null);
    }

    private static int bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
