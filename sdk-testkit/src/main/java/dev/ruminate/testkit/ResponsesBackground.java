package dev.ruminate.testkit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The server side of OpenAI's background responses, for {@link ProviderEmulator#routing}: it keeps
 * the events of each stream it serves, by response id, and serves them again, as OpenAI does
 * (PROTOCOLS.md, "OpenAI Responses"):
 * <ul>
 *   <li>{@code GET …/responses/{id}?stream=true&starting_after=N}: 200 {@code text/event-stream}
 *       with the stored events whose {@code sequence_number} is above {@code N} (all of them
 *       without {@code starting_after});</li>
 *   <li>the same for an id it does not know (never served, or {@linkplain #expire expired}): 404
 *       with OpenAI's error body, {@code "No response found with id '…'."};</li>
 *   <li>{@code POST …/responses/{id}/cancel}: 200 with a {@code response} object of status
 *       {@code cancelled}, and the id {@linkplain #cancelled() remembered}.</li>
 * </ul>
 * Every other request is left to the emulator's queue. The first stream is queued as usual with
 * {@link #stream}, {@link #cutAfter} or {@link #cutAt}, which register its events.
 *
 * <p>Each event's text is kept exactly as served, so a resumed stream is byte-identical to the
 * rest of the original one. Thread-safe.
 *
 * @since 0.4
 */
public final class ResponsesBackground {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RESUME = Pattern.compile("(?:/[^?]*)?/responses/([^/?]+)(?:\\?(.*))?");
    private static final Pattern CANCEL = Pattern.compile("(?:/[^?]*)?/responses/([^/?]+)/cancel");

    private final Map<String, List<Event>> stored = new ConcurrentHashMap<>();
    private final List<String> cancelled = new CopyOnWriteArrayList<>();
    /** How many events a resumed stream sends before its connection is closed; -1 for all. */
    private volatile int resumedCut = -1;

    /** One stored event: its sequence number (-1 when it has none) and its SSE text, blank line included. */
    private record Event(long sequenceNumber, String text) {
    }

    private ResponsesBackground() {
    }

    /**
     * Creates an empty store.
     *
     * @return the store
     */
    public static ResponsesBackground create() {
        return new ResponsesBackground();
    }

    /**
     * Registers a stream and returns it as a whole 200 {@code text/event-stream} response.
     *
     * @param sse the SSE text, with a {@code response.created} event carrying the response id
     * @return the response
     * @throws IllegalArgumentException if no {@code response.created} event gives an id
     */
    public EmulatorResponse stream(String sse) {
        register(sse);
        return EmulatorResponse.sse(sse);
    }

    /**
     * Registers a stream and returns a response that sends its first {@code events} events, then
     * closes the connection abruptly (no end of the chunked body).
     *
     * @param sse the SSE text
     * @param events how many whole events to send, 0 to the number of events
     * @return the response
     * @throws IllegalArgumentException as {@link #stream}, or if {@code events} is out of range
     */
    public EmulatorResponse cutAfter(String sse, int events) {
        List<Event> all = register(sse);
        if (events < 0 || events > all.size()) {
            throw new IllegalArgumentException("events must be 0 to " + all.size() + ", was " + events);
        }
        int bytes = 0;
        for (int i = 0; i < events; i++) {
            bytes += all.get(i).text().getBytes(StandardCharsets.UTF_8).length;
        }
        return EmulatorResponse.sse(sse).resetAfter(bytes);
    }

    /**
     * Registers a stream and returns a response that sends its first {@code bytes} bytes, then
     * closes the connection abruptly: a cut anywhere, also inside an event.
     *
     * @param sse the SSE text
     * @param bytes how many bytes to send
     * @return the response
     * @throws IllegalArgumentException as {@link #stream}, or if {@code bytes} is out of range
     */
    public EmulatorResponse cutAt(String sse, int bytes) {
        register(sse);
        return EmulatorResponse.sse(sse).resetAfter(bytes);
    }

    /**
     * Splits an SSE text into its events, each with its closing blank line.
     *
     * @param sse the SSE text, events separated by blank lines ({@code \n\n})
     * @return the events' texts, in order
     */
    public static List<String> events(String sse) {
        List<String> out = new ArrayList<>();
        String text = sse.replace("\r\n", "\n");
        int from = 0;
        while (from < text.length()) {
            int end = text.indexOf("\n\n", from);
            int next = end < 0 ? text.length() : end + 2;
            if (!text.substring(from, next).isBlank()) {
                out.add(text.substring(from, next));
            }
            from = next;
        }
        return out;
    }

    /**
     * Forgets a stored event, so that a resumption starting before it shows a gap in the sequence
     * numbers (a server that lost events).
     *
     * @param responseId the response
     * @param sequenceNumber the event's sequence number
     */
    public void forget(String responseId, long sequenceNumber) {
        List<Event> events = stored.get(responseId);
        if (events != null) {
            events.removeIf(e -> e.sequenceNumber() == sequenceNumber);
        }
    }

    /**
     * Makes every resumed stream from now on send only its first {@code events} events, then close
     * the connection abruptly, as {@link #cutAfter} does for the first stream: a connection that
     * keeps breaking.
     *
     * @param events how many events a resumed stream sends, or -1 to send them all again
     */
    public void cutResumedAfter(int events) {
        if (events < -1) {
            throw new IllegalArgumentException("events must be -1 or more, was " + events);
        }
        this.resumedCut = events;
    }

    /**
     * Forgets a response, as OpenAI does some minutes after it ended: resuming it is then a 404.
     *
     * @param responseId the response
     */
    public void expire(String responseId) {
        stored.remove(responseId);
    }

    /**
     * Returns the ids of the responses a client asked to cancel, in order.
     *
     * @return a snapshot
     */
    public List<String> cancelled() {
        return List.copyOf(cancelled);
    }

    /**
     * Answers a resumption or a cancellation; null for any other request.
     *
     * @param request the request
     * @return the response, or null to leave the request to the emulator's queue
     */
    public @Nullable EmulatorResponse answer(RecordedRequest request) {
        if (request.method().equals("POST")) {
            Matcher cancel = CANCEL.matcher(request.path());
            if (!cancel.matches()) {
                return null;
            }
            String id = cancel.group(1);
            cancelled.add(id);
            if (!stored.containsKey(id)) {
                return notFound(id);
            }
            return EmulatorResponse.json(200, Json.object(g -> {
                g.writeStringProperty("id", id);
                g.writeStringProperty("object", "response");
                g.writeStringProperty("status", "cancelled");
            }));
        }
        if (!request.method().equals("GET")) {
            return null;
        }
        Matcher resume = RESUME.matcher(request.path());
        if (!resume.matches()) {
            return null;
        }
        String id = resume.group(1);
        List<Event> events = stored.get(id);
        if (events == null) {
            return notFound(id);
        }
        long after = startingAfter(resume.group(2));
        StringBuilder sse = new StringBuilder();
        int cut = resumedCut;
        int sent = 0;
        int cutBytes = -1;
        for (Event e : events) {
            if (e.sequenceNumber() > after) {
                if (sent == cut) {
                    cutBytes = sse.toString().getBytes(StandardCharsets.UTF_8).length;
                }
                sse.append(e.text());
                sent++;
            }
        }
        EmulatorResponse response = EmulatorResponse.sse(sse.toString());
        return cutBytes < 0 ? response : response.resetAfter(cutBytes);
    }

    private List<Event> register(String sse) {
        Objects.requireNonNull(sse, "sse");
        List<Event> events = new CopyOnWriteArrayList<>();
        String id = null;
        for (String text : events(sse)) {
            JsonNode data = data(text);
            long seq = data != null && data.path("sequence_number").canConvertToLong()
                    ? data.path("sequence_number").asLong() : -1;
            if (id == null && data != null && "response.created".equals(data.path("type").asString(""))) {
                String found = data.path("response").path("id").asString("");
                id = found.isEmpty() ? null : found;
            }
            events.add(new Event(seq, text));
        }
        if (id == null) {
            throw new IllegalArgumentException("the stream has no response.created event with a response id");
        }
        stored.put(id, events);
        return events;
    }

    private static @Nullable JsonNode data(String event) {
        for (String line : event.split("\n")) {
            if (line.startsWith("data:")) {
                try {
                    return JSON.readTree(line.substring(5).strip());
                } catch (JacksonException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private static long startingAfter(@Nullable String query) {
        if (query != null) {
            for (String pair : query.split("&")) {
                if (pair.startsWith("starting_after=")) {
                    try {
                        return Long.parseLong(pair.substring("starting_after=".length()));
                    } catch (NumberFormatException e) {
                        return -1;
                    }
                }
            }
        }
        return -1;
    }

    private static EmulatorResponse notFound(String id) {
        return EmulatorResponse.httpError(404, Json.object(g -> {
            g.writeName("error");
            g.writeStartObject();
            g.writeStringProperty("message", "No response found with id '" + id + "'.");
            g.writeStringProperty("type", "invalid_request_error");
            g.writeNullProperty("param");
            g.writeNullProperty("code");
            g.writeEndObject();
        }));
    }
}
