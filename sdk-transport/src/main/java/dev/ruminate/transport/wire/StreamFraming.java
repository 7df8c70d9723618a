package dev.ruminate.transport.wire;

import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import reactor.core.publisher.Flux;

/**
 * How a streamed response body is cut into frames: the media type the response must have, the
 * decoder from body buffers to frames, and where each frame is, for error messages. One of
 * {@link #SSE}, {@link #NDJSON}, {@link #EVENT_STREAM}, {@link #JSON_ARRAY} and
 * {@link #SSE_OR_JSON_ARRAY}; a provider family names the one its API speaks, and the provider
 * skeleton does the rest.
 *
 * <p>Immutable and thread-safe; the decoding itself follows the framing's own class
 * ({@link ServerSentEvents}, {@link JsonLines}, {@link EventStreams}, {@link JsonArrays}).
 *
 * @param <F> the frame type
 * @since 0.1
 */
public final class StreamFraming<F> {

    /** Server-Sent Events, {@code text/event-stream}: frames are {@link SseEvent}s. */
    public static final StreamFraming<SseEvent> SSE = new StreamFraming<>("text/event-stream", List.of(), "data",
            SseFrameDecoder::new, limits -> new SseFrameDecoder(limits, true), SseEvent::data, SseEvent::line,
            SseEvent::byteOffset);

    /** Newline-delimited JSON, {@code application/x-ndjson}: frames are {@link JsonLine}s. */
    public static final StreamFraming<JsonLine> NDJSON = new StreamFraming<>("application/x-ndjson", List.of(), "line",
            JsonLineDecoder::new, limits -> new JsonLineDecoder(limits, true), JsonLine::bytes, JsonLine::line, JsonLine::byteOffset);

    /**
     * One JSON array streamed over time, {@code application/json}: frames are its elements,
     * {@link JsonArrayElement}s, each emitted when it is complete (see {@link JsonArrays}).
     */
    public static final StreamFraming<JsonArrayElement> JSON_ARRAY = new StreamFraming<>("application/json", List.of(),
            "element", JsonArrayFramer::new, JsonArrayFramer::new, JsonArrayElement::bytes, JsonArrayElement::line,
            JsonArrayElement::byteOffset);

    /**
     * Server-Sent Events, or a streamed JSON array, told apart by the body's content: a body whose
     * first byte that is not whitespace is {@code [} is read as {@link #JSON_ARRAY} (so is a body that
     * is one JSON object, as its only element: an error object answering a streaming call), anything
     * else as {@link #SSE}. Each element becomes an {@link SseEvent} of type {@code message} whose data
     * are the element's bytes, at the element's line and byte offset: a decoder of SSE data reads both.
     * Asks for {@code text/event-stream}, and accepts {@code application/json} too.
     *
     * <p>For Gemini's {@code streamGenerateContent}: without {@code alt=sse} (and through proxies that
     * drop it) the same chunks come as one JSON array.
     */
    public static final StreamFraming<SseEvent> SSE_OR_JSON_ARRAY = new StreamFraming<>("text/event-stream",
            List.of("application/json"), "data",
            limits -> new ContentSniffingFramer<>(new SseFrameDecoder(limits), new JsonArrayFramer(limits),
                    e -> new SseEvent("message", e.bytes(), null, e.line(), e.byteOffset())),
            limits -> new ContentSniffingFramer<>(new SseFrameDecoder(limits, true), new JsonArrayFramer(limits),
                    e -> new SseEvent("message", e.bytes(), null, e.line(), e.byteOffset())),
            SseEvent::data, SseEvent::line, SseEvent::byteOffset);

    /**
     * AWS event-stream, {@code application/vnd.amazon.eventstream}: binary frames, both CRCs
     * checked, are {@link EventStreamMessage}s. A binary body has no lines: {@link #line} is -1.
     */
    public static final StreamFraming<EventStreamMessage> EVENT_STREAM = new StreamFraming<>(
            "application/vnd.amazon.eventstream", List.of(), "payload", EventStreamFramer::new,
            limits -> new EventStreamFramer(limits, true),
            EventStreamMessage::payload,
            m -> -1L, EventStreamMessage::byteOffset);

    private final String mediaType;
    private final List<String> acceptedMediaTypes;
    private final String payloadName;
    private final Function<WireLimits, Framing.Framer<F>> framers;
    private final Function<WireLimits, Framing.Framer<F>> lendingFramers;
    private final Function<F, byte[]> payload;
    private final ToLongFunction<F> line;
    private final ToLongFunction<F> byteOffset;

    private StreamFraming(String mediaType, List<String> alsoAccepted, String payloadName,
                          Function<WireLimits, Framing.Framer<F>> framers,
                          Function<WireLimits, Framing.Framer<F>> lendingFramers, Function<F, byte[]> payload,
                          ToLongFunction<F> line, ToLongFunction<F> byteOffset) {
        this.mediaType = mediaType;
        List<String> accepted = new java.util.ArrayList<>(1 + alsoAccepted.size());
        accepted.add(mediaType);
        accepted.addAll(alsoAccepted);
        this.acceptedMediaTypes = List.copyOf(accepted);
        this.payloadName = payloadName;
        this.framers = framers;
        this.lendingFramers = lendingFramers;
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
     * Returns the media types a streamed response may have: {@link #mediaType()} first, then any
     * other this framing reads (parameters such as {@code charset} aside).
     *
     * @return the accepted media types, at least one
     */
    public List<String> acceptedMediaTypes() {
        return acceptedMediaTypes;
    }

    /**
     * Decodes a body into frames.
     *
     * @param body the response body, buffers valid only during {@code onNext}
     * @param limits the largest line, event or frame accepted
     * @return the frames, in body order; errors as documented by the framing's decoder
     */
    public Flux<F> decode(Flux<ByteBuf> body, WireLimits limits) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(limits, "limits");
        return Framing.decode(body, () -> framers.apply(limits));
    }

    /**
     * Reads what one response's frames carry, inside the network read that completes each frame: the
     * per-subscription half of {@link #read}.
     *
     * <p>Not thread-safe: one instance per subscription, called serially.
     *
     * @param <F> the frame type
     * @param <E> what the reader makes of frames
     * @since 0.4
     */
    public interface FrameReader<F, E> {

        /**
         * Reads one frame.
         *
         * @param frame the frame, possibly lent: valid only during this call (for an {@link SseEvent}, read
         *     its data through {@link SseEvent#dataArray()}, {@link SseEvent#dataOffset()} and
         *     {@link SseEvent#dataLength()}; keep nothing of it without a copy)
         * @param out receives what the frame makes, in order
         * @throws RuntimeException to end the flux with it, after what was added to {@code out}
         */
        void frame(F frame, List<E> out);

        /**
         * Ends the response when the body ends (not when it fails).
         *
         * @param out receives the closing elements
         * @throws RuntimeException to end the flux with it, after what was added to {@code out}
         */
        void end(List<E> out);
    }

    /**
     * Decodes a body and reads each frame inside the network read that completes it, so that frames
     * can be lent rather than copied: an event whose data lies in the network buffer is handed to the
     * reader as a view of it (see {@link SseEvent}). What the reader makes must own its data; only it is
     * queued ahead of demand.
     *
     * <p>Errors as {@link #decode}: a limit violation ends the flux after what the frames before it
     * made; an exception from the reader ends it after what the reader added, and nothing is read
     * after it; an upstream error ends it unchanged after what the frames that complete lines make
     * at that point gave. Backpressure and cancellation as {@link #decode}, counted in the network
     * reads' batches of elements.
     *
     * @param body the response body, buffers valid only during {@code onNext}
     * @param limits the largest line, event or frame accepted
     * @param readers makes the reader of each subscription
     * @param <E> what the reader makes of frames
     * @return what the reader made, in body order
     * @since 0.4
     */
    public <E> Flux<E> read(Flux<ByteBuf> body, WireLimits limits, Supplier<? extends FrameReader<F, E>> readers) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(readers, "readers");
        return Framing.read(body, () -> lendingFramers.apply(limits), readers);
    }

    /**
     * Returns a frame's payload: an event's data, a line's bytes, a binary frame's payload.
     *
     * @param frame the frame
     * @return its payload bytes (not copied when the frame owns them whole: do not modify them; a
     *     lent frame's are a copy)
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
