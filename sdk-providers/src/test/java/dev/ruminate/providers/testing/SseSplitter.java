package dev.ruminate.providers.testing;

import dev.ruminate.transport.wire.SseEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a whole recorded SSE body into events, for tests: {@code event:} and {@code data:} fields,
 * comments skipped, events separated by blank lines, the last one dispatched even without one.
 * Line numbers and byte offsets are those of each event's first field, as the real decoder reports.
 */
public final class SseSplitter {

    private SseSplitter() {
    }

    public static List<SseEvent> split(String body) {
        List<SseEvent> events = new ArrayList<>();
        String type = "message";
        StringBuilder data = null;
        long eventLine = -1;
        long eventOffset = -1;
        long offset = 0;
        long lineNumber = 0;
        int start = 0;
        while (start <= body.length()) {
            int end = body.indexOf('\n', start);
            boolean last = end < 0;
            String line = body.substring(start, last ? body.length() : end);
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            lineNumber++;
            if (line.isEmpty()) {
                if (data != null) {
                    events.add(new SseEvent(type, data.toString().getBytes(StandardCharsets.UTF_8), null, eventLine, eventOffset));
                }
                type = "message";
                data = null;
                eventLine = -1;
            } else if (!line.startsWith(":")) {
                if (eventLine < 0) {
                    eventLine = lineNumber;
                    eventOffset = offset;
                }
                int colon = line.indexOf(':');
                String field = colon < 0 ? line : line.substring(0, colon);
                String value = colon < 0 ? "" : line.substring(colon + 1);
                if (value.startsWith(" ")) {
                    value = value.substring(1);
                }
                if (field.equals("event")) {
                    type = value;
                } else if (field.equals("data")) {
                    data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                }
            }
            offset += line.getBytes(StandardCharsets.UTF_8).length + (last ? 0 : 1);
            if (last) {
                break;
            }
            start = end + 1;
        }
        if (data != null) {
            events.add(new SseEvent(type, data.toString().getBytes(StandardCharsets.UTF_8), null, eventLine, eventOffset));
        }
        return events;
    }
}
