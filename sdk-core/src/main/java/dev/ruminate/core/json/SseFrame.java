package dev.ruminate.core.json;

import java.util.Objects;

/**
 * One outgoing Server-Sent Event: its event name and its JSON data, each on one line.
 *
 * <p>Framework adapters map it to their own type (Spring's {@code ServerSentEvent.builder(data)
 * .event(event)}); {@link #text()} gives the wire text for writing it directly.
 *
 * <p>Immutable and thread-safe. Components are non-null.
 *
 * @param event the event name, e.g. {@code reasoning.delta}; no line breaks
 * @param data the JSON text of the event, on one line
 * @since 0.1
 */
public record SseFrame(String event, String data) {

    /**
     * Creates the value, checking its components.
     *
     * @param event see {@link #event()}
     * @param data see {@link #data()}
     * @throws IllegalArgumentException if either contains a line break, which would split the event
     */
    public SseFrame {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(data, "data");
        if (hasLineBreak(event) || hasLineBreak(data)) {
            throw new IllegalArgumentException("an SSE event name and its data must each be one line");
        }
    }

    /**
     * Returns the event as SSE wire text: {@code event:} and {@code data:} lines and the blank line
     * that ends the event.
     *
     * @return the text, ending in {@code "\n\n"}
     */
    public String text() {
        return "event: " + event + "\ndata: " + data + "\n\n";
    }

    private static boolean hasLineBreak(String s) {
        return s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0;
    }
}
