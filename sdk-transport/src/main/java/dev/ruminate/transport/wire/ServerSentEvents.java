package dev.ruminate.transport.wire;

import io.netty.buffer.ByteBuf;
import java.util.Objects;
import reactor.core.publisher.Flux;

/**
 * Decodes a {@code text/event-stream} response body into {@link SseEvent}s.
 *
 * <p>Follows the WHATWG event-stream interpretation rules: lines end with {@code \n}, {@code \r\n}
 * or {@code \r} (also when a {@code \r\n} pair is split between two buffers); a UTF-8 byte order
 * mark at the very start of the body is skipped; {@code name:value} fields lose one space after
 * the colon, and a line without a colon is a field with an empty value; several {@code data}
 * fields are joined with {@code \n}; {@code event} sets the type ({@code message} by default);
 * {@code id} sets the last event id, which carries over to later events (an id containing NUL is
 * ignored, an empty one clears it); {@code retry}, unknown fields and comment lines (starting
 * with {@code :}, such as {@code : keep-alive}) are ignored; a blank line dispatches the event if
 * it had at least one {@code data} field, even an empty one. An event with only an {@code event}
 * field is not dispatched.
 *
 * <p><b>Deliberate deviation from the specification.</b> The specification discards an event that
 * the body ends before its closing blank line. Providers and proxies do omit that last blank line,
 * so here the end of the body ends the event: an unfinished last line is processed as a line, then
 * a pending event that has data is dispatched. An upstream error (a connection reset) ends the
 * event the same way, except that an unfinished last line is dropped, since the error may have cut
 * it short: a pending event with data from complete lines (each ended by a line end, the closing
 * blank line still missing) is dispatched, then the error is passed on.
 *
 * <p>Data bytes are kept raw, exactly as received; nothing is decoded to a {@code String} except
 * the {@code event} and {@code id} values. Each event records where its first field line starts.
 *
 * <p><b>Buffers.</b> Each buffer is read during its {@code onNext}, never retained, queued or
 * released: the caller (Reactor Netty) keeps ownership and may release it as soon as
 * {@code onNext} returns. The output never depends on where the body is split into buffers.
 *
 * <p><b>Backpressure.</b> Honoured: one buffer may complete many events, which are emitted only as
 * requested; at most a few dozen buffers' worth of decoded events are held ahead of demand.
 *
 * <p><b>Cancellation.</b> Cancelling the returned flux cancels the body (for Reactor Netty, that
 * closes or releases the connection as the client is configured to).
 *
 * <p><b>Errors.</b> A line longer than {@link WireLimits#maxLineBytes()}, or an event whose data
 * (its data lines joined with {@code \n}) exceeds {@link WireLimits#maxEventBytes()}, ends the flux
 * with a {@link dev.ruminate.core.error.ProtocolException} of reason {@code LINE_TOO_LONG} and
 * cancels the body. The error gives the line number and byte offset where the offending line
 * starts (for an oversized event, the data line that crossed the limit; the message also names the
 * event's first line). It is raised as soon as the limit is crossed: at most the rest of the
 * current buffer is read, and an endless line is never buffered. Upstream errors are passed on
 * unchanged, after the pending event of complete lines (see above). Either way the events decoded
 * before the failure are emitted first.
 *
 * <p><b>Threading.</b> Stateless and thread-safe; each subscription to a returned flux decodes with
 * its own fresh state, on the thread that delivers the body.
 *
 * @see <a href="https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation">WHATWG event-stream interpretation</a>
 * @since 0.1
 */
public final class ServerSentEvents {

    private ServerSentEvents() {
    }

    /**
     * Decodes a body with the {@linkplain WireLimits#DEFAULT default limits}.
     *
     * @param body the response body
     * @return the events, in body order
     * @since 0.1
     */
    public static Flux<SseEvent> decode(Flux<ByteBuf> body) {
        return decode(body, WireLimits.DEFAULT);
    }

    /**
     * Decodes a body within the given limits.
     *
     * @param body the response body
     * @param limits the longest line and largest event accepted
     * @return the events, in body order
     * @since 0.1
     */
    public static Flux<SseEvent> decode(Flux<ByteBuf> body, WireLimits limits) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(limits, "limits");
        return Framing.decode(body, () -> new SseFrameDecoder(limits));
    }
}
