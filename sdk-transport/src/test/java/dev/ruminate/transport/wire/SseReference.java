package dev.ruminate.transport.wire;

import dev.ruminate.core.error.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A deliberately plain model of the event-stream rules, written over {@code String}s line by line,
 * straight from the WHATWG text plus the documented end-of-body deviation. Property tests compare
 * the decoder with it.
 */
final class SseReference {

    private final String body;
    private final WireLimits limits;
    private final List<SseEventValue> events = new ArrayList<>();

    private @Nullable String data;
    private @Nullable String type;
    private @Nullable String lastId;
    private long eventLine = -1;
    private long eventOffset = -1;

    private SseReference(String body, WireLimits limits) {
        this.body = body;
        this.limits = limits;
    }

    /** Decodes a body given as text; its bytes are its UTF-8 encoding. */
    static Outcome<SseEventValue> decode(String body, WireLimits limits) {
        return new SseReference(body, limits).run();
    }

    private Outcome<SseEventValue> run() {
        int position = 0;
        long line = 1;
        long offset = 0;
        while (position < body.length()) {
            int cr = body.indexOf('\r', position);
            int lf = body.indexOf('\n', position);
            int end = cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
            String text = body.substring(position, end < 0 ? body.length() : end);
            int endLength = end < 0 ? 0 : body.startsWith("\r\n", end) ? 2 : 1;
            Outcome.Failure failure = line(text, line, offset);
            if (failure != null) {
                return new Outcome<>(events, failure);
            }
            position += text.length() + endLength;
            offset += bytes(text) + endLength;
            line++;
        }
        dispatch();
        return new Outcome<>(events, null);
    }

    private Outcome.@Nullable Failure line(String text, long line, long offset) {
        if (bytes(text) > limits.maxLineBytes()) {
            return new Outcome.Failure(ProtocolException.Reason.LINE_TOO_LONG, line, offset);
        }
        if (line == 1 && text.startsWith("\uFEFF")) {
            text = text.substring(1);
            offset += 3;
        }
        if (text.isEmpty()) {
            dispatch();
            return null;
        }
        if (text.startsWith(":")) {
            return null;
        }
        int colon = text.indexOf(':');
        String name = colon < 0 ? text : text.substring(0, colon);
        String value = colon < 0 ? "" : text.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        if (eventLine < 0) {
            eventLine = line;
            eventOffset = offset;
        }
        switch (name) {
            case "data" -> {
                String joined = data == null ? value : data + "\n" + value;
                if (bytes(joined) > limits.maxEventBytes()) {
                    return new Outcome.Failure(ProtocolException.Reason.LINE_TOO_LONG, line, offset);
                }
                data = joined;
            }
            case "event" -> type = value.isEmpty() ? null : value;
            case "id" -> {
                if (!value.contains("\0")) {
                    lastId = value.isEmpty() ? null : value;
                }
            }
            default -> {
                // retry and unknown fields change nothing here
            }
        }
        return null;
    }

    private void dispatch() {
        if (data != null) {
            events.add(SseEventValue.ofText(type == null ? "message" : type, data, lastId, eventLine, eventOffset));
        }
        data = null;
        type = null;
        eventLine = -1;
        eventOffset = -1;
    }

    private static int bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
