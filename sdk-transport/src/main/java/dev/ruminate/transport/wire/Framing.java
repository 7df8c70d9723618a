package dev.ruminate.transport.wire;

import dev.ruminate.core.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
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
     * Tells a batch with frames from one without: {@link Batches} returns Reactor's shared
     * {@code Flux.empty()} instance for a read that completed no frame, so identity suffices.
     */
    private static boolean nonEmpty(Flux<?> batch) {
        return batch != Flux.empty();
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
            // Most small reads complete no message: dropping their empty batches before concatMap (the filter
            // fuses with the upstream) spares concatMap an inner subscription and a request(1) per read.
            return body.map(batches::feed)
                    .filter(Framing::nonEmpty)
                    .concatWith(Mono.fromSupplier(batches::finish))
                    // As an element, the error queues behind the batches still waiting for demand;
                    // as an error signal, concatMap would drop them.
                    .onErrorResume(error -> Mono.just(batches.abort().concatWith(Flux.error(error))))
                    .concatMap(Function.identity(), PREFETCH);
        });
    }

    /** Turns each buffer into the batch of frames it completes, stopping at the first violation. */
    private static final class Batches<T> {

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

        Flux<T> feed(ByteBuf buf) {
            if (failed) {
                return Flux.empty();
            }
            List<T> out = fresh();
            try {
                framer.feed(buf, out);
            } catch (ProtocolException e) {
                return fail(out, e);
            }
            return batch(out);
        }

        Flux<T> finish() {
            if (failed) {
                return Flux.empty();
            }
            List<T> out = fresh();
            try {
                framer.finish(out);
            } catch (ProtocolException e) {
                return fail(out, e);
            }
            return batch(out);
        }

        /** Returns the frames that complete lines make when the body fails. */
        Flux<T> abort() {
            if (failed) {
                return Flux.empty();
            }
            failed = true;
            List<T> out = fresh();
            framer.abort(out);
            return batch(out);
        }

        /** Copies the frames into an array of their own, which {@code Flux.fromArray} walks without an iterator. */
        @SuppressWarnings("unchecked") // The array only ever holds the list's elements, all of type T.
        private static <T> T[] snapshot(List<T> out) {
            return (T[]) out.toArray();
        }

        /** Returns the emptied scratch list (a framer that threw an unexpected exception may have left frames). */
        private List<T> fresh() {
            scratch.clear();
            return scratch;
        }

        private Flux<T> fail(List<T> out, ProtocolException error) {
            failed = true;
            return batch(out).concatWith(Flux.error(error));
        }

        private static <T> Flux<T> batch(List<T> out) {
            if (out.isEmpty()) {
                return Flux.empty();
            }
            // A single message goes out as a scalar, which concatMap emits without subscribing to an inner flux.
            Flux<T> batch = out.size() == 1 ? Flux.just(out.get(0)) : Flux.fromArray(snapshot(out));
            out.clear();
            return batch;
        }
    }
}
