package dev.ruminate.transport.wire;

import io.netty.buffer.ByteBuf;
import java.util.Objects;
import reactor.core.publisher.Flux;

/**
 * Decodes a body that streams one JSON array over time, each element arriving whole in its own
 * time (Gemini's {@code streamGenerateContent} without {@code alt=sse}: {@code [{…}\n,\n{…}]},
 * pretty-printed), into {@link JsonArrayElement}s, each as soon as its closing bracket arrives.
 *
 * <p>Whitespace may stand anywhere between the structural bytes. Each element must be a JSON
 * object (or array); its bytes are kept raw, exactly as received, with its index, the line and the
 * byte offset where it starts, and are not parsed here beyond finding the element's end (strings,
 * escapes and bracket depth). A body that is one JSON object instead of an array (an error object
 * answering a streaming call) is emitted as its one element. An empty or blank body gives no element.
 *
 * <p><b>Buffers.</b> Each buffer is read during its {@code onNext}, never retained, queued or
 * released. The output never depends on where the body is split into buffers (inside a UTF-8
 * character, a string, an escape, between elements).
 *
 * <p><b>Backpressure.</b> Honoured, as for {@link JsonLines}. <b>Cancellation.</b> Cancelling the
 * returned flux cancels the body.
 *
 * <p><b>Errors</b>, each after the elements decoded before it, and each cancelling the body:
 * <ul>
 *   <li>an element longer than {@link WireLimits#maxEventBytes()}: a
 *       {@link dev.ruminate.core.error.ProtocolException} {@code LINE_TOO_LONG} naming the element's
 *       line and byte offset, raised at the end of the buffer that crosses the limit (an endless
 *       element is never buffered past it);</li>
 *   <li>anything but whitespace where the array's structure needs {@code [}, an element, {@code ,}
 *       or {@code ]} (and anything after the closing {@code ]}): a {@code ProtocolException}
 *       {@code MALFORMED_JSON} giving the line, the byte offset and an excerpt;</li>
 *   <li>a body that ends inside the array (cut inside an element, or before the closing
 *       {@code ]}): a {@link dev.ruminate.core.error.IncompleteStreamException};</li>
 *   <li>upstream errors pass unchanged; an element cut short by one is dropped.</li>
 * </ul>
 *
 * <p><b>Threading.</b> Stateless and thread-safe; each subscription to a returned flux decodes with
 * its own fresh state, on the thread that delivers the body.
 *
 * @since 0.1
 */
public final class JsonArrays {

    private JsonArrays() {
    }

    /**
     * Decodes a body with the {@linkplain WireLimits#DEFAULT default limits}.
     *
     * @param body the response body
     * @return the elements, in body order
     */
    public static Flux<JsonArrayElement> decode(Flux<ByteBuf> body) {
        return decode(body, WireLimits.DEFAULT);
    }

    /**
     * Decodes a body within the given limits; only {@link WireLimits#maxEventBytes()} applies, to
     * each element.
     *
     * @param body the response body
     * @param limits the largest element accepted
     * @return the elements, in body order
     */
    public static Flux<JsonArrayElement> decode(Flux<ByteBuf> body, WireLimits limits) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(limits, "limits");
        return Framing.decode(body, () -> new JsonArrayFramer(limits));
    }
}
