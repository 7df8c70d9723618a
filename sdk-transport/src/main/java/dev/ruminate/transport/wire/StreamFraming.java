package dev.ruminate.transport.wire;

import io.netty.buffer.ByteBuf;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import reactor.core.publisher.Flux;

/**
 * How a streamed response body is cut into frames: the media type the response must have, the
 * decoder from body buffers to frames, and where each frame is, for error messages. One of three:
 * {@link #SSE}, {@link #NDJSON} and {@link #EVENT_STREAM}; a provider family names the one its API
 * speaks, and the provider skeleton does the rest.
 *
 * <p>Immutable and thread-safe; the decoding itself follows the framing's own class
 * ({@link ServerSentEvents}, {@link JsonLines}, {@link EventStreams}).
 *
 * @param <F> the frame type
 * @since 0.1
 */
public final class StreamFraming<F> {

    /** Server-Sent Events, {@code text/event-stream}: frames are {@link SseEvent}s. */
    public static final StreamFraming<SseEvent> SSE = new StreamFraming<>("text/event-stream", "data",
            ServerSentEvents::decode, SseEvent::data, SseEvent::line, SseEvent::byteOffset);

    /** Newline-delimited JSON, {@code application/x-ndjson}: frames are {@link JsonLine}s. */
    public static final StreamFraming<JsonLine> NDJSON = new StreamFraming<>("application/x-ndjson", "line",
            JsonLines::decode, JsonLine::bytes, JsonLine::line, JsonLine::byteOffset);

    /**
     * AWS event-stream, {@code application/vnd.amazon.eventstream}: binary frames, both CRCs
     * checked, are {@link EventStreamMessage}s. A binary body has no lines: {@link #line} is -1.
     */
    public static final StreamFraming<EventStreamMessage> EVENT_STREAM = new StreamFraming<>(
            "application/vnd.amazon.eventstream", "payload", EventStreams::decode, EventStreamMessage::payload,
            m -> -1L, EventStreamMessage::byteOffset);

    private final String mediaType;
    private final String payloadName;
    private final BiFunction<Flux<ByteBuf>, WireLimits, Flux<F>> decoder;
    private final Function<F, byte[]> payload;
    private final ToLongFunction<F> line;
    private final ToLongFunction<F> byteOffset;

    private StreamFraming(String mediaType, String payloadName, BiFunction<Flux<ByteBuf>, WireLimits, Flux<F>> decoder,
                          Function<F, byte[]> payload, ToLongFunction<F> line, ToLongFunction<F> byteOffset) {
        this.mediaType = mediaType;
        this.payloadName = payloadName;
        this.decoder = decoder;
        this.payload = payload;
        this.line = line;
        this.byteOffset = byteOffset;
    }

    /**
     * Returns the media type a streamed response must have (parameters such as {@code charset}
     * aside).
     *
     * @return the media type, e.g. {@code text/event-stream}
     */
    public String mediaType() {
        return mediaType;
    }

    /**
     * Decodes a body into frames.
     *
     * @param body the response body, buffers valid only during {@code onNext}
     * @param limits the largest line, event or frame accepted
     * @return the frames, in body order; errors as documented by the framing's decoder
     */
    public Flux<F> decode(Flux<ByteBuf> body, WireLimits limits) {
        return decoder.apply(Objects.requireNonNull(body, "body"), Objects.requireNonNull(limits, "limits"));
    }

    /**
     * Returns a frame's payload: an event's data, a line's bytes, a binary frame's payload.
     *
     * @param frame the frame
     * @return its payload bytes (not copied: do not modify them)
     */
    public byte[] payload(F frame) {
        return payload.apply(frame);
    }

    /**
     * Names a frame's payload in error messages ({@code data}, {@code line}, {@code payload}).
     *
     * @return the name
     */
    public String payloadName() {
        return payloadName;
    }

    /**
     * Returns the 1-based line of the body where a frame starts.
     *
     * @param frame the frame
     * @return the line, or -1 for a binary framing
     */
    public long line(F frame) {
        return line.applyAsLong(frame);
    }

    /**
     * Returns the 0-based byte offset of the body where a frame starts.
     *
     * @param frame the frame
     * @return the offset
     */
    public long byteOffset(F frame) {
        return byteOffset.applyAsLong(frame);
    }

    @Override
    public String toString() {
        return "StreamFraming[" + mediaType + "]";
    }
}
