package dev.ruminate.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Describes one HTTP response the {@link ProviderEmulator} serves: status, headers, body, how the
 * body is cut into chunks, how long to wait between them, and an optional fault.
 *
 * <p>Start from a factory and refine with the {@code with}-style methods, each of which returns a
 * new instance:
 *
 * <pre>{@code
 * EmulatorResponse ok = EmulatorResponse.json(200, "{\"id\":\"x\"}");
 * EmulatorResponse slow = EmulatorResponse.replay(Path.of("stream.sse"), "text/event-stream")
 *         .chunked(ChunkPlan.fixed(16))
 *         .delay(Duration.ofMillis(5));
 * EmulatorResponse limited = EmulatorResponse.rateLimited(3, "{\"error\":{\"message\":\"slow down\"}}");
 * EmulatorResponse cut = EmulatorResponse.sse(body).resetAfter(100);   // connection drops after 100 body bytes
 * EmulatorResponse hung = EmulatorResponse.sse(body).stallAfter(100);  // 100 bytes, then silence
 * }</pre>
 *
 * <p>Framing: responses made by {@link #json}, {@link #httpError}, {@link #rateLimited} and
 * {@link #html} carry a {@code Content-Length}, like a provider's error page; all others are sent
 * with {@code Transfer-Encoding: chunked}, like a provider's stream. The body is always sent
 * exactly as given, byte for byte.
 *
 * <p>Immutable and thread-safe; one instance may be served any number of times.
 *
 * @since 0.1
 */
public final class EmulatorResponse {

    /** What goes wrong, if anything, after the first {@code faultAfter} body bytes. */
    enum Fault {
        NONE, RESET, STALL
    }

    private static final String JSON = "application/json";
    private static final String EVENT_STREAM = "text/event-stream";
    private static final String HTML = "text/html; charset=utf-8";

    private final int status;
    private final @Nullable String contentType;
    private final List<Map.Entry<String, String>> headers;
    private final byte[] body;
    private final boolean fixedLength;
    private final ChunkPlan chunkPlan;
    private final Duration chunkDelay;
    private final Fault fault;
    private final int faultAfter;
    private final @Nullable WriteProbe probe;

    private EmulatorResponse(int status, @Nullable String contentType, List<Map.Entry<String, String>> headers,
                             byte[] body, boolean fixedLength, ChunkPlan chunkPlan, Duration chunkDelay,
                             Fault fault, int faultAfter, @Nullable WriteProbe probe) {
        this.status = status;
        this.contentType = contentType;
        this.headers = headers;
        this.body = body;
        this.fixedLength = fixedLength;
        this.chunkPlan = chunkPlan;
        this.chunkDelay = chunkDelay;
        this.fault = fault;
        this.faultAfter = faultAfter;
        this.probe = probe;
    }

    private static EmulatorResponse of(int status, @Nullable String contentType, byte[] body, boolean fixedLength) {
        return new EmulatorResponse(checkStatus(status), contentType, List.of(), body.clone(), fixedLength,
                ChunkPlan.whole(), Duration.ZERO, Fault.NONE, 0, null);
    }

    /**
     * Creates a JSON response, such as a non-streaming completion or an error body.
     *
     * @param status the HTTP status, 100 to 599
     * @param body the JSON text, sent as UTF-8
     * @return a response with content type {@code application/json} and a {@code Content-Length}
     * @throws IllegalArgumentException if the status is out of range
     * @since 0.1
     */
    public static EmulatorResponse json(int status, String body) {
        return of(status, JSON, utf8(body), true);
    }

    /**
     * Creates a 200 Server-Sent Events response from its whole body text.
     *
     * @param wholeBody the SSE text ({@code data: …} lines and blank lines), sent as UTF-8
     * @return a chunked response with content type {@code text/event-stream}
     * @since 0.1
     */
    public static EmulatorResponse sse(String wholeBody) {
        return of(200, EVENT_STREAM, utf8(wholeBody), false);
    }

    /**
     * Creates a 200 response with arbitrary bytes, such as NDJSON or an AWS event stream.
     *
     * @param contentType the {@code Content-Type} value
     * @param body the body; copied
     * @return a chunked response
     * @since 0.1
     */
    public static EmulatorResponse bytes(String contentType, byte[] body) {
        return of(200, Objects.requireNonNull(contentType, "contentType"), body, false);
    }

    /**
     * Creates a 200 response that replays a recorded body file byte for byte.
     *
     * <p>The file is read now, so a missing file fails the test where the response is built.
     *
     * @param recording the recorded body
     * @param contentType the {@code Content-Type} value, such as {@code text/event-stream}
     * @return a chunked response holding the file's bytes
     * @throws UncheckedIOException if the file cannot be read
     * @since 0.1
     */
    public static EmulatorResponse replay(Path recording, String contentType) {
        try {
            return bytes(contentType, Files.readAllBytes(recording));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read recording " + recording, e);
        }
    }

    /**
     * Creates a 200 response that replays recorded body bytes exactly.
     *
     * @param recording the recorded body; copied
     * @param contentType the {@code Content-Type} value
     * @return a chunked response holding the bytes
     * @since 0.1
     */
    public static EmulatorResponse replay(byte[] recording, String contentType) {
        return bytes(contentType, recording);
    }

    /**
     * Creates an HTTP error carrying a provider's JSON error body.
     *
     * @param status the HTTP status, 400 to 599
     * @param jsonBody the provider's error JSON, such as {@code {"error":{"type":"invalid_request_error",…}}}
     * @return a JSON response with a {@code Content-Length}
     * @throws IllegalArgumentException if the status is not an error status
     * @since 0.1
     */
    public static EmulatorResponse httpError(int status, String jsonBody) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("an HTTP error status is 400 to 599, got " + status);
        }
        return json(status, jsonBody);
    }

    /**
     * Creates a 429 response with a {@code Retry-After} header in seconds.
     *
     * @param retryAfterSeconds the {@code Retry-After} value, at least 0
     * @param jsonBody the provider's error JSON
     * @return a 429 JSON response
     * @throws IllegalArgumentException if {@code retryAfterSeconds} is negative
     * @since 0.1
     */
    public static EmulatorResponse rateLimited(long retryAfterSeconds, String jsonBody) {
        if (retryAfterSeconds < 0) {
            throw new IllegalArgumentException("Retry-After must not be negative, got " + retryAfterSeconds);
        }
        return json(429, jsonBody).header("Retry-After", Long.toString(retryAfterSeconds));
    }

    /**
     * Creates an HTML page, such as the error page a proxy or gateway returns instead of the
     * provider's JSON or event stream.
     *
     * @param status the HTTP status, 100 to 599
     * @param page the HTML text, sent as UTF-8
     * @return a response with content type {@code text/html; charset=utf-8} and a {@code Content-Length}
     * @throws IllegalArgumentException if the status is out of range
     * @since 0.1
     */
    public static EmulatorResponse html(int status, String page) {
        return of(status, HTML, utf8(page), true);
    }

    /**
     * Returns a copy that cuts the body into chunks according to a plan.
     *
     * @param plan the chunking plan
     * @return the new response
     * @since 0.1
     */
    public EmulatorResponse chunked(ChunkPlan plan) {
        return new EmulatorResponse(status, contentType, headers, body, fixedLength,
                Objects.requireNonNull(plan, "plan"), chunkDelay, fault, faultAfter, probe);
    }

    /**
     * Returns a copy that waits between consecutive chunks (not before the first).
     *
     * <p>The wait is a timer on a Reactor scheduler, not a sleeping thread.
     *
     * @param betweenChunks the wait, zero for none
     * @return the new response
     * @throws IllegalArgumentException if the duration is negative
     * @since 0.1
     */
    public EmulatorResponse delay(Duration betweenChunks) {
        if (betweenChunks.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, got " + betweenChunks);
        }
        return new EmulatorResponse(status, contentType, headers, body, fixedLength, chunkPlan, betweenChunks,
                fault, faultAfter, probe);
    }

    /**
     * Returns a copy with one more response header; repeated names are all sent.
     *
     * @param name the header name
     * @param value the header value
     * @return the new response
     * @throws IllegalArgumentException if the name is empty or either part holds a line break
     * @since 0.1
     */
    public EmulatorResponse header(String name, String value) {
        if (name.isEmpty() || hasLineBreak(name) || hasLineBreak(value)) {
            throw new IllegalArgumentException("invalid header " + name + ": " + value);
        }
        List<Map.Entry<String, String>> more = new ArrayList<>(headers);
        more.add(Map.entry(name, value));
        return new EmulatorResponse(status, contentType, List.copyOf(more), body, fixedLength, chunkPlan,
                chunkDelay, fault, faultAfter, probe);
    }

    /**
     * Returns a copy with another {@code Content-Type}, for example to serve an event stream
     * labelled {@code text/plain}.
     *
     * @param value the new content type, or {@code null} to send none
     * @return the new response
     * @since 0.1
     */
    public EmulatorResponse contentType(@Nullable String value) {
        return new EmulatorResponse(status, value, headers, body, fixedLength, chunkPlan, chunkDelay,
                fault, faultAfter, probe);
    }

    /**
     * Returns a copy with another status code.
     *
     * @param value the HTTP status, 100 to 599
     * @return the new response
     * @throws IllegalArgumentException if the status is out of range
     * @since 0.1
     */
    public EmulatorResponse status(int value) {
        return new EmulatorResponse(checkStatus(value), contentType, headers, body, fixedLength, chunkPlan,
                chunkDelay, fault, faultAfter, probe);
    }

    /**
     * Returns a copy that sends the headers and the first {@code bytes} body bytes, then closes the
     * connection without finishing the body (no terminating chunk; fewer bytes than a
     * {@code Content-Length} announced). The client sees a premature close.
     *
     * @param bytes how many body bytes to send first, 0 to the body length
     * @return the new response
     * @throws IllegalArgumentException if {@code bytes} is outside 0 to the body length
     * @since 0.1
     */
    public EmulatorResponse resetAfter(int bytes) {
        return withFault(Fault.RESET, bytes);
    }

    /**
     * Returns a copy that sends the headers and the first {@code bytes} body bytes, then neither
     * sends more nor ends the response, until the client gives up and closes the connection.
     *
     * <p>Use it to test first-byte and idle timeouts and cancellation; see
     * {@link ProviderEmulator#connectionClosed(int)}.
     *
     * @param bytes how many body bytes to send first, 0 to the body length
     * @return the new response
     * @throws IllegalArgumentException if {@code bytes} is outside 0 to the body length
     * @since 0.1
     */
    public EmulatorResponse stallAfter(int bytes) {
        return withFault(Fault.STALL, bytes);
    }

    /**
     * Returns a copy whose serving a {@link WriteProbe} watches: the body is written in slices of
     * {@link WriteProbe#SLICE_BYTES} (the chunk plan and delay are not used), each only while the
     * connection is writable, and the probe counts the bytes the socket accepts and signals when
     * the client stopped reading. Use it to test backpressure; see {@link WriteProbe}.
     *
     * <p>The slices share this response's body array, so serving even a large body copies nothing.
     * A fault, if set, still applies after its byte count. A probe observes one serving: enqueue
     * the response once.
     *
     * @param observer the probe that watches the serving
     * @return the new response
     * @since 0.3
     */
    public EmulatorResponse observedBy(WriteProbe observer) {
        return new EmulatorResponse(status, contentType, headers, body, fixedLength, chunkPlan, chunkDelay,
                fault, faultAfter, Objects.requireNonNull(observer, "observer"));
    }

    /**
     * Returns the HTTP status.
     *
     * @return the status code
     * @since 0.1
     */
    public int status() {
        return status;
    }

    /**
     * Returns the {@code Content-Type} sent.
     *
     * @return the content type, or {@code null} when none is sent
     * @since 0.1
     */
    public @Nullable String contentType() {
        return contentType;
    }

    /**
     * Returns the extra headers in the order they are sent.
     *
     * @return an unmodifiable list of name-value pairs
     * @since 0.1
     */
    public List<Map.Entry<String, String>> headers() {
        return headers;
    }

    /**
     * Returns a copy of the whole body (including what a fault keeps from being sent).
     *
     * @return the body bytes
     * @since 0.1
     */
    public byte[] body() {
        return body.clone();
    }

    byte[] bodyBytes() {
        return body;
    }

    boolean fixedLength() {
        return fixedLength;
    }

    ChunkPlan chunkPlan() {
        return chunkPlan;
    }

    Duration chunkDelay() {
        return chunkDelay;
    }

    Fault fault() {
        return fault;
    }

    int faultAfter() {
        return faultAfter;
    }

    @Nullable WriteProbe probe() {
        return probe;
    }

    /**
     * Describes the response without its body.
     *
     * @return status, content type, body length, chunking, delay and fault
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("EmulatorResponse[").append(status);
        sb.append(", ").append(contentType).append(", ").append(body.length).append(" bytes, ").append(chunkPlan);
        if (!chunkDelay.isZero()) {
            sb.append(", delay ").append(chunkDelay);
        }
        if (fault != Fault.NONE) {
            sb.append(", ").append(fault == Fault.RESET ? "reset" : "stall").append(" after ")
                    .append(faultAfter).append(" bytes");
        }
        return sb.append(']').toString();
    }

    private EmulatorResponse withFault(Fault kind, int bytes) {
        if (bytes < 0 || bytes > body.length) {
            throw new IllegalArgumentException(
                    "fault position must be 0 to " + body.length + " (the body length), got " + bytes);
        }
        return new EmulatorResponse(status, contentType, headers, body, fixedLength, chunkPlan, chunkDelay,
                kind, bytes, probe);
    }

    private static int checkStatus(int status) {
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("HTTP status must be 100 to 599, got " + status);
        }
        return status;
    }

    private static boolean hasLineBreak(String text) {
        return text.indexOf('\r') >= 0 || text.indexOf('\n') >= 0;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
