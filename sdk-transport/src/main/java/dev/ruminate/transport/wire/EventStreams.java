package dev.ruminate.transport.wire;

import io.netty.buffer.ByteBuf;
import java.util.Objects;
import reactor.core.publisher.Flux;

/**
 * Decodes AWS event-stream bodies ({@code application/vnd.amazon.eventstream}, the framing of
 * Bedrock's ConverseStream) into {@link EventStreamMessage}s.
 *
 * <p>Each message's prelude and message CRC-32 are verified. A checksum that does not match ends
 * the flux with a {@link dev.ruminate.core.error.ProtocolException} of reason
 * {@code CHECKSUM_MISMATCH}; impossible lengths, an unknown header type, or a body that ends
 * inside a frame with {@code MALFORMED_FRAME}; a frame larger than
 * {@link WireLimits#maxEventBytes()} with {@code LINE_TOO_LONG}. Messages decoded before an error
 * are delivered first. Frames may be split across network buffers at any byte.
 *
 * <p><b>Buffers.</b> Each {@code ByteBuf} is read during {@code onNext} and never retained or
 * released here: its owner (Reactor Netty) releases it. <b>Threading.</b> Stateless; each
 * subscription gets its own decoder.
 *
 * @since 0.1
 */
public final class EventStreams {

    private EventStreams() {
    }

    /**
     * Decodes a body with the default limits.
     *
     * @param body the response body
     * @return the messages, in body order
     */
    public static Flux<EventStreamMessage> decode(Flux<ByteBuf> body) {
        return decode(body, WireLimits.DEFAULT);
    }

    /**
     * Decodes a body.
     *
     * @param body the response body
     * @param limits the largest frame accepted ({@link WireLimits#maxEventBytes()})
     * @return the messages, in body order
     */
    public static Flux<EventStreamMessage> decode(Flux<ByteBuf> body, WireLimits limits) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(limits, "limits");
        return Framing.decode(body, () -> new EventStreamFramer(limits));
    }
}
