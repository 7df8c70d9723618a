package dev.ruminate.providers.spi;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.transport.wire.StreamFraming;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
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
 * <p>Stateless and thread-safe; each subscription to an operator's result decodes with its own
 * state. <b>Backpressure</b> is honoured (frames are requested in Reactor's bounded batches as
 * events are requested); <b>cancellation</b> propagates upstream.
 *
 * @since 0.1
 */
public final class StreamDecoding {

    private StreamDecoding() {
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
        return frames -> Flux.defer(() -> {
            Run<F> run = new Run<>(framing, decoders.get());
            return frames.concatMapIterable(run::frame).concatWith(Flux.defer(() -> Flux.fromIterable(run.end())));
        });
    }

    /** One response's decoding: the decoder and a failure held back behind the events before it. */
    private static final class Run<F> {
        private final StreamFraming<F> framing;
        private final StreamDecoder<F> decoder;
        /** A failure that waits for the events its frame gave before it; the next call throws it. */
        private @Nullable RuntimeException held;

        Run(StreamFraming<F> framing, StreamDecoder<F> decoder) {
            this.framing = framing;
            this.decoder = decoder;
        }

        List<ChatEvent> frame(F frame) {
            // a throw from here ends the flux, so after a failure nothing more is decoded
            throwHeld();
            List<ChatEvent> out = new ArrayList<>(4);
            try {
                decoder.decode(frame, out);
            } catch (RuntimeException e) {
                return fail(out, typed(frame, e));
            }
            return out;
        }

        List<ChatEvent> end() {
            throwHeld();
            List<ChatEvent> out = new ArrayList<>(2);
            decoder.end(out);
            return out;
        }

        /** Ends at once when the frame gave nothing; otherwise delivers what it gave first. */
        private List<ChatEvent> fail(List<ChatEvent> out, RuntimeException error) {
            if (out.isEmpty()) {
                throw error;
            }
            held = error;
            return out;
        }

        private void throwHeld() {
            RuntimeException error = held;
            if (error != null) {
                held = null;
                throw error;
            }
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
