package dev.ruminate.providers.spi;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.internal.Expanding;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.transport.wire.StreamFraming;
import dev.ruminate.transport.wire.WireLimits;
import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

/**
 * Runs a family's {@link StreamDecoder} over a flux of frames, the same way for every family:
 * a fresh decoder per subscription; malformed JSON and wrong shapes reported as
 * {@link ProtocolException} with the frame's line and byte offset and an excerpt of its payload;
 * the events a frame gave before its failure delivered before the failure; nothing decoded after
 * a failure; the decoder's closing events (or its incomplete-stream error) when the frames end.
 *
 * <p>Two ways in: {@link #decode} reads the body's buffers and decodes each frame inside the network
 * read that completes it, the frame lent rather than copied (what the provider skeleton runs);
 * {@link #operator} decodes a flux of owned frames (for callers that frame a body themselves, and for
 * stream resumption, which may read frames again).
 *
 * <p>Stateless and thread-safe; each subscription decodes with its own state. <b>Backpressure</b>
 * is honoured: {@link #operator} requests at most 32 frames ahead, and decodes a frame only once the
 * events of the one before it are delivered, into one list reused for the whole response (no list
 * per frame); {@link #decode} holds at most 32 network reads' events ahead. <b>Cancellation</b>
 * propagates upstream. An upstream error ends the flux unchanged, after the events of the frames
 * received before it.
 *
 * @since 0.1
 */
public final class StreamDecoding {

    /**
     * Frames requested ahead of demand: each frame is decoded only when the events of the one
     * before it have been delivered, so a paused stream holds at most this many frames plus one
     * frame's events.
     */
    static final int PREFETCH = 32;

    private StreamDecoding() {
    }

    /**
     * Decodes one response body into chat events, each frame inside the network read that completes
     * it ({@link StreamFraming#read}): the framing lends the decoder frames whose bytes still lie in
     * the network buffer instead of copying them. Errors as {@link #operator}; an upstream error ends
     * the flux unchanged, after the events of the frames that complete lines make at that point.
     * <b>Backpressure:</b> at most 32 network reads' worth of decoded events are held ahead of
     * demand (no frames: they are decoded as they complete).
     *
     * @param framing the body's framing
     * @param body the response body, buffers valid only during {@code onNext}
     * @param limits the largest line, event or frame accepted
     * @param decoders makes the decoder of one response, once per subscription; it must be
     *     lent-safe (see {@link StreamDecoder})
     * @param <F> the frame type
     * @return the events
     * @since 0.4
     */
    public static <F> Flux<ChatEvent> decode(StreamFraming<F> framing, Flux<ByteBuf> body, WireLimits limits,
                                             Supplier<? extends StreamDecoder<F>> decoders) {
        Objects.requireNonNull(framing, "framing");
        Objects.requireNonNull(decoders, "decoders");
        return framing.read(body, limits, () -> new Run<>(framing, decoders.get()));
    }

    /**
     * Decodes one streamed response body into chat events with a codec's decoder, as the provider
     * skeleton does: {@link #decode(StreamFraming, Flux, WireLimits, Supplier)} with the codec's
     * framing and {@link WireCodec#newStreamDecoder}. For callers with their own transport, and for
     * benchmarks of what a provider runs. Think tags are not split here.
     *
     * @param codec the family's codec
     * @param request the request the body answers (its decoder may depend on it)
     * @param body the response body, buffers valid only during {@code onNext}
     * @param limits the largest line, event or frame accepted
     * @param <F> the frame type
     * @return the events
     * @since 0.4
     */
    public static <F> Flux<ChatEvent> decode(WireCodec<F> codec, ChatRequest request, Flux<ByteBuf> body,
                                             WireLimits limits) {
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(request, "request");
        return decode(codec.framing(), body, limits, () -> codec.newStreamDecoder(request));
    }

    /**
     * Returns the operator that decodes one response's frames into chat events.
     *
     * @param framing the framing the frames come from (for error positions)
     * @param decoders makes the decoder of one response, once per subscription
     * @param <F> the frame type
     * @return the operator, for {@code Flux.transform}; upstream errors pass through unchanged
     */
    public static <F> Function<Flux<F>, Flux<ChatEvent>> operator(StreamFraming<F> framing,
                                                                 Supplier<? extends StreamDecoder<F>> decoders) {
        Objects.requireNonNull(framing, "framing");
        Objects.requireNonNull(decoders, "decoders");
        return frames -> Expanding.expand(frames, () -> new Run<>(framing, decoders.get()), PREFETCH);
    }

    /**
     * One response's decoding: the decoder, run by {@link Expanding} over owned frames or by the
     * framing over lent ones (no list per frame; a failure ends the flux after the events its frame
     * gave before it, and nothing is decoded after it). Errors are typed while the frame is valid.
     */
    private static final class Run<F> implements Expanding.Expander<F, ChatEvent>, StreamFraming.FrameReader<F, ChatEvent> {
        private final StreamFraming<F> framing;
        private final StreamDecoder<F> decoder;

        Run(StreamFraming<F> framing, StreamDecoder<F> decoder) {
            this.framing = framing;
            this.decoder = decoder;
        }

        @Override
        public void next(F frame, List<ChatEvent> out) {
            try {
                decoder.decode(frame, out);
            } catch (RuntimeException e) {
                throw typed(frame, e);
            }
        }

        @Override
        public void frame(F frame, List<ChatEvent> out) {
            next(frame, out);
        }

        @Override
        public void complete(List<ChatEvent> out) {
            decoder.end(out);
        }

        @Override
        public void end(List<ChatEvent> out) {
            decoder.end(out);
        }

        @Override
        public void error(Throwable failure, List<ChatEvent> out) {
            // an upstream error passes through unchanged, after the events of the frames before it
        }

        private RuntimeException typed(F frame, RuntimeException e) {
            byte[] payload = framing.payload(frame);
            String where = "; " + framing.payloadName() + ": " + JsonReading.excerpt(payload);
            if (e instanceof JacksonException json) {
                long line = framing.line(frame);
                if (line < 0) {
                    // a binary frame has no line in the body: the line within its JSON payload
                    TokenStreamLocation at = json.getLocation();
                    line = at == null ? -1 : at.getLineNr();
                }
                return new ProtocolException(ProtocolException.Reason.MALFORMED_JSON, json.getOriginalMessage() + where,
                        line, framing.byteOffset(frame), json);
            }
            if (e instanceof ShapeException shape) {
                return new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE, shape.getMessage() + where,
                        framing.line(frame), framing.byteOffset(frame), null);
            }
            return e;
        }
    }
}
