package dev.ruminate.transport.wire;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.internal.Expanding;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
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
     * @param framers creates the framer of each subscription; its frames must own their bytes
     * @param <T> the frame type
     * @return the frames
     */
    static <T> Flux<T> decode(Flux<ByteBuf> body, Supplier<? extends Framer<T>> framers) {
        return read(body, framers, Framing::keepFrames);
    }

    private static <T> StreamFraming.FrameReader<T, T> keepFrames() {
        return new StreamFraming.FrameReader<>() {
            @Override
            public void frame(T frame, List<T> out) {
                out.add(frame);
            }

            @Override
            public void end(List<T> out) {
                // frames only
            }
        };
    }

    /**
     * Decodes a body and reads each frame inside the network read that completes it, with a fresh
     * framer and reader per subscription: what {@link StreamFraming#read} documents. The framer may
     * lend its frames (valid until its next call): they are read before it is called again.
     *
     * @param body the response body
     * @param framers creates the framer of each subscription
     * @param readers creates the reader of each subscription
     * @param <T> the frame type
     * @param <E> what the reader makes of frames
     * @return what the reader made, in body order
     */
    static <T, E> Flux<E> read(Flux<ByteBuf> body, Supplier<? extends Framer<T>> framers,
                               Supplier<? extends StreamFraming.FrameReader<T, E>> readers) {
        return Flux.defer(() -> {
            Batches<T, E> batches = new Batches<>(framers.get(), readers.get());
            // Most small reads complete no frame: their empty batches are dropped before the queue (the filter
            // fuses with the upstream). concatWith is not fusable, so the map runs inside onNext, while the buffer
            // is valid; Expanding then queues only the batches, which own what they hold, and hands them out one
            // element at a time without a Flux per batch.
            Flux<Object> decoded = body.map(batches::feed)
                    .filter(Batches::nonEmpty)
                    // an empty last batch is dropped too, so that the flux completes without waiting for demand
                    .concatWith(Mono.fromSupplier(batches::finish).filter(Batches::nonEmpty));
            return Expanding.expand(decoded, () -> batches, PREFETCH);
        });
    }

    /** A batch whose last element was followed by a failure: the elements, then the error. */
    private record Failed(Object[] elements, RuntimeException error) {
    }

    /**
     * Turns each buffer into the batch of what its frames make, stopping at the first failure; then hands the
     * batches' elements out ({@link Expanding.Expander}). A batch is an {@code Object[]} or a {@link Failed}.
     * Feeding (framing and reading) runs in the upstream's {@code onNext}, expanding in the operator's drain; the
     * two never touch the same state except the framer and reader at an upstream error, which {@link #error}
     * reaches only after the last {@code onNext} returned.
     */
    private static final class Batches<T, E> implements Expanding.Expander<Object, E> {

        private static final Object[] EMPTY = new Object[0];

        private final Framer<T> framer;
        private final StreamFraming.FrameReader<T, E> reader;
        /** Each call's frames, read before the framer is called again; reused because most reads complete few. */
        private final ArrayList<T> frames = new ArrayList<>();
        /**
         * What each call's frames make; reused. {@link #batch} copies what it holds before it is cleared, as the
         * batch is consumed later, after further reads.
         */
        private final ArrayList<E> scratch = new ArrayList<>();
        private boolean failed;

        Batches(Framer<T> framer, StreamFraming.FrameReader<T, E> reader) {
            this.framer = framer;
            this.reader = reader;
        }

        static boolean nonEmpty(Object batch) {
            return batch != EMPTY;
        }

        Object feed(ByteBuf buf) {
            if (failed) {
                return EMPTY;
            }
            frames.clear();
            ProtocolException violation = null;
            try {
                framer.feed(buf, frames);
            } catch (ProtocolException e) {
                violation = e;
            }
            return readFrames(violation, false);
        }

        Object finish() {
            if (failed) {
                return EMPTY;
            }
            frames.clear();
            ProtocolException violation = null;
            try {
                framer.finish(frames);
            } catch (ProtocolException e) {
                violation = e;
            }
            return readFrames(violation, true);
        }

        /** Reads the frames of one call (they stay valid until the framer's next call), then the violation, if any. */
        private Object readFrames(@Nullable ProtocolException violation, boolean last) {
            List<E> out = fresh();
            try {
                for (int i = 0, n = frames.size(); i < n; i++) {
                    reader.frame(frames.get(i), out);
                }
                if (violation != null) {
                    return fail(out, violation);
                }
                if (last) {
                    reader.end(out);
                }
            } catch (RuntimeException e) {
                return fail(out, e);
            } finally {
                frames.clear();
            }
            return batch(out);
        }

        @Override
        @SuppressWarnings("unchecked") // a batch only ever holds elements of type E
        public void next(Object batch, List<E> out) {
            if (batch instanceof Failed f) {
                for (Object element : f.elements()) {
                    out.add((E) element);
                }
                throw f.error();
            }
            for (Object element : (Object[]) batch) {
                out.add((E) element);
            }
        }

        @Override
        public void complete(List<E> out) {
            // finish() came as the last batch
        }

        /**
         * Reads the frames that complete lines make when the body fails; the error follows unchanged (a
         * reader's failure on those frames ends the reading, and the upstream error still ends the flux:
         * it is why the frames were cut short).
         */
        @Override
        public void error(Throwable failure, List<E> out) {
            if (failed) {
                return;
            }
            failed = true;
            frames.clear();
            framer.abort(frames);
            try {
                for (int i = 0, n = frames.size(); i < n; i++) {
                    reader.frame(frames.get(i), out);
                }
            } catch (RuntimeException e) {
                // what the reader made before stays; the upstream error, the cause of the cut, ends the flux
            } finally {
                frames.clear();
            }
        }

        /** Returns the emptied scratch list (a reader that threw an unexpected exception may have left elements). */
        private List<E> fresh() {
            scratch.clear();
            return scratch;
        }

        private Object fail(List<E> out, RuntimeException error) {
            failed = true;
            Object[] elements = out.toArray();
            out.clear();
            return new Failed(elements, error);
        }

        private static <E> Object batch(List<E> out) {
            if (out.isEmpty()) {
                return EMPTY;
            }
            Object[] elements = out.toArray();
            out.clear();
            return elements;
        }
    }
}
