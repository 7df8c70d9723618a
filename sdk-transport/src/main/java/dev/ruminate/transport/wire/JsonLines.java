package dev.ruminate.transport.wire;

import io.netty.buffer.ByteBuf;
import java.util.Objects;
import reactor.core.publisher.Flux;

/**
 * Decodes a newline-delimited JSON response body (such as Ollama's native streaming API) into
 * {@link JsonLine}s.
 *
 * <p>Lines end with {@code \n}; a {@code \r} right before it is stripped. Blank lines (empty or only
 * JSON whitespace) are skipped but still counted in line numbers. A last line without a newline is
 * emitted when the body ends normally, but dropped when the body ends with an upstream error (a
 * connection reset), since the error may have cut it short; every line ended by a newline before
 * the error has been emitted already. Each line's bytes are kept raw, exactly as received, with the line
 * number and byte offset where it starts. The lines are not parsed here.
 *
 * <p><b>Buffers.</b> Each buffer is read during its {@code onNext}, never retained, queued or
 * released: the caller (Reactor Netty) keeps ownership and may release it as soon as
 * {@code onNext} returns. The output never depends on where the body is split into buffers.
 *
 * <p><b>Backpressure.</b> Honoured: one buffer may complete many lines, which are emitted only as
 * requested; at most a few dozen buffers' worth of decoded lines are held ahead of demand.
 *
 * <p><b>Cancellation.</b> Cancelling the returned flux cancels the body.
 *
 * <p><b>Errors.</b> A line longer than {@link WireLimits#maxLineBytes()} ends the flux with a
 * {@link dev.ruminate.core.error.ProtocolException} of reason {@code LINE_TOO_LONG}, giving the
 * line number and byte offset where it starts, and cancels the body. It is raised as soon as the
 * limit is crossed: at most the rest of the current buffer is read, and an endless line is never
 * buffered. Upstream errors are passed on unchanged. Either way the lines decoded before the failure
 * are emitted first.
 *
 * <p><b>Threading.</b> Stateless and thread-safe; each subscription to a returned flux decodes with
 * its own fresh state, on the thread that delivers the body.
 *
 * @since 0.1
 */
public final class JsonLines {

    private JsonLines() {
    }

    /**
     * Decodes a body with the {@linkplain WireLimits#DEFAULT default limits}.
     *
     * @param body the response body
     * @return the non-blank lines, in body order
     * @since 0.1
     */
    public static Flux<JsonLine> decode(Flux<ByteBuf> body) {
        return decode(body, WireLimits.DEFAULT);
    }

    /**
     * Decodes a body within the given limits; only {@link WireLimits#maxLineBytes()} applies.
     *
     * @param body the response body
     * @param limits the longest line accepted
     * @return the non-blank lines, in body order
     * @since 0.1
     */
    public static Flux<JsonLine> decode(Flux<ByteBuf> body, WireLimits limits) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(limits, "limits");
        return Framing.decode(body, () -> new JsonLineDecoder(limits));
    }
}
