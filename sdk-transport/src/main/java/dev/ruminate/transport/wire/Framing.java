package dev.ruminate.transport.wire;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.internal.Expanding;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Wires a stateful frame decoder into a {@code Flux}: the operator chain shared by the SSE and
 * NDJSON decoders.
 *
 * <p>Reactor Netty releases each response buffer as soon as {@code onNext} returns, so every buffer
 * is decoded synchronously inside {@code onNext} (by {@code map}, which {@code concatWith} never
 * fuses into a later poll); only the decoded frames, which own their bytes, are ever queued. An operator that queued the buffers themselves, such as
 * {@code concatMapIterable} directly on the body, would read released memory once downstream
 * demand ran out.
 */
final class Framing {

    /**
     * Decoded batches held ahead of downstream demand. Each batch is one network buffer's frames;
     * a few dozen keep the socket reading in bursts instead of toggling auto-read per buffer.
     */
    private static final int PREFETCH = 32;

    private Framing() {
    }

    /**
     * Decodes one body's frames from its buffers; one instance per subscription, fed serially
     * (never two calls at once, so it needs no synchronisation).
     *
     * @param <T> the frame type
     */
    interface Framer<T> {

        /**
         * Decodes one buffer.
         *
         * @param buf the buffer, valid only during the call: read it, never retain or release it
         * @param out receives the frames the buffer completes
         * @throws ProtocolException when the body breaks a limit; frames added before stay valid
         */
        void feed(ByteBuf buf, List<T> out);

        /**
         * Ends the body.
         *
         * @param out receives the frames the end of the body completes
         * @throws ProtocolException when the rest of the body breaks a limit
         * @throws dev.ruminate.core.error.IncompleteStreamException when the body ends inside a
         *     structure that must be closed (a streamed JSON array); it ends the flux as an error
         */
        void finish(List<T> out);

        /**
         * Ends the body early, at an upstream error: a frame that complete lines already make is
         * completed as at the end of the body, but an unfinished last line is dropped, since the
         * error may have cut it short.
         *
         * @param out receives the frames the complete lines make
         */
        void abort(List<T> out);
    }

    /**
     * Decodes a body with a fresh framer per subscription.
     *
     * <p>Frames come out in body order. A limit violation ends the flux with its
     * {@link ProtocolException} after the frames decoded before it, and cancels the body. An
     * upstream error is passed on unchanged, also after every frame decoded before it, including
     * the frame that complete lines make at that point ({@link Framer#abort}).
     *
     * @param body the response body
     * @param framers creates the framer of each subscription
     * @param <T> the frame type
     * @return the frames
     */
    static <T> Flux<T> decode(Flux<ByteBuf> body, Supplier<? extends Framer<T>> framers) {
        return Flux.defer(() -> {
            Batches<T> batches = new Batches<>(framers.get());
            // Most small reads complete no frame: their empty batches are dropped before the queue (the filter
            // fuses with the upstream). concatWith is not fusable, so the map runs inside onNext, while the buffer
            // is valid; Expanding then queues only the batches, which own their frames, and hands them out one frame
            // at a time without a Flux per batch.
            Flux<Object> decoded = body.map(batches::feed)
                    .filter(Batches::nonEmpty)
                    // an empty last batch is dropped too, so that the flux completes without waiting for demand
                    .concatWith(Mono.fromSupplier(batches::finish).filter(Batches::nonEmpty));
            return Expanding.expand(decoded, () -> batches, PREFETCH);
        });
    }

    /** A batch whose last frame was followed by a violation of the limits: the frames, then the error. */
    private record Failed(Object[] frames, ProtocolException error) {
    }

    /**
     * Turns each buffer into the batch of frames it completes, stopping at the first violation; then hands the
     * batches' frames out ({@link Expanding.Expander}). A batch is an {@code Object[]} of frames or a
     * {@link Failed}. Feeding runs in the upstream's {@code onNext}, expanding in the operator's drain; the two
     * never touch the same state except the framer at an upstream error, which {@link #error} reaches only after
     * the last {@code onNext} returned.
     */
    private static final class Batches<T> implements Expanding.Expander<Object, T> {

        private static final Object[] EMPTY = new Object[0];

        private final Framer<T> framer;
        /**
         * Collects each call's frames; reused because most small reads complete none. {@link #batch} copies what it
         * holds before it is cleared, as the batch is consumed later, after further reads.
         */
        private final ArrayList<T> scratch = new ArrayList<>();
        private boolean failed;

        Batches(Framer<T> framer) {
            this.framer = framer;
        }

        static boolean nonEmpty(Object batch) {
            return batch != EMPTY;
        }

        Object feed(ByteBuf buf) {
            if (failed) {
                return EMPTY;
            }
            List<T> out = fresh();
            try {
                framer.feed(buf, out);
            } catch (ProtocolException e) {
                return fail(out, e);
            }
            return batch(out);
        }

        Object finish() {
            if (failed) {
                return EMPTY;
            }
            List<T> out = fresh();
            try {
                framer.finish(out);
            } catch (ProtocolException e) {
                return fail(out, e);
            }
            return batch(out);
        }

        @Override
        @SuppressWarnings("unchecked") // a batch only ever holds frames of type T
        public void next(Object batch, List<T> out) {
            if (batch instanceof Failed f) {
                for (Object frame : f.frames()) {
                    out.add((T) frame);
                }
                throw f.error();
            }
            for (Object frame : (Object[]) batch) {
                out.add((T) frame);
            }
        }

        @Override
        public void complete(List<T> out) {
            // finish() came as the last batch
        }

        /** Adds the frames that complete lines make when the body fails; the error follows unchanged. */
        @Override
        public void error(Throwable failure, List<T> out) {
            if (!failed) {
                failed = true;
                framer.abort(out);
            }
        }

        /** Returns the emptied scratch list (a framer that threw an unexpected exception may have left frames). */
        private List<T> fresh() {
            scratch.clear();
            return scratch;
        }

        private Object fail(List<T> out, ProtocolException error) {
            failed = true;
            Object[] frames = out.toArray();
            out.clear();
            return new Failed(frames, error);
        }

        private static <T> Object batch(List<T> out) {
            if (out.isEmpty()) {
                return EMPTY;
            }
            Object[] frames = out.toArray();
            out.clear();
            return frames;
        }
    }
}
