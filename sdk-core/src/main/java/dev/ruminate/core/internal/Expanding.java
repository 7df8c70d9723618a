package dev.ruminate.core.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Exceptions;
import reactor.core.Fuseable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxOperator;
import reactor.core.publisher.Operators;
import reactor.util.concurrent.Queues;
import reactor.util.context.Context;

/**
 * A flux operator that turns each upstream element into zero or more elements written into one
 * reused list, and adds elements at the end of the upstream: what {@code concatMapIterable} over a
 * fresh list per element does, without the list, its iterator and the inner bookkeeping per
 * element. Used on the event path (stream decoding, think-tag splitting), where a list per SSE
 * event or per delta was a measurable share of the allocation.
 *
 * <p><b>Backpressure</b> is exact: the upstream is asked for at most {@code prefetch} elements
 * ahead (replenished by three quarters, as Reactor's own prefetching operators do; a synchronously
 * fusable upstream is polled instead), an element is expanded only when the output of the one
 * before it has been delivered, and nothing is emitted beyond the downstream's demand. So what the
 * operator holds ahead of demand is at most {@code prefetch} upstream elements plus the output of
 * one. <b>Errors</b>: an exception from {@link Expander#next} ends the flux with that exception
 * after the elements the call added before throwing, and cancels the upstream; nothing is expanded
 * after it. An upstream error goes through {@link Expander#error} and then ends the flux, after
 * every element still held. <b>Cancellation</b> propagates upstream and drops what is held.
 *
 * <p>Thread-safe as an operator: each subscription gets its own {@link Expander}, which is called
 * serially (never two calls at once), on whichever thread delivers or requests.
 */
public final class Expanding {

    private Expanding() {
    }

    /**
     * Expands one subscription's elements. Not thread-safe; called serially.
     *
     * @param <T> the upstream element type
     * @param <R> the output element type
     */
    public interface Expander<T, R> {

        /**
         * Expands one element.
         *
         * @param item the element
         * @param out receives the output, in order; valid only during the call
         * @throws RuntimeException to end the flux after what was added to {@code out}
         */
        void next(T item, List<R> out);

        /**
         * Adds what follows the last element when the upstream completes.
         *
         * @param out receives the closing output
         * @throws RuntimeException to end the flux with it, after what was added to {@code out}
         */
        void complete(List<R> out);

        /**
         * Adds what goes before an upstream error; the error then ends the flux unchanged.
         *
         * @param failure the upstream error
         * @param out receives the output to deliver before the error
         */
        void error(Throwable failure, List<R> out);
    }

    /**
     * Applies an expansion to a flux.
     *
     * @param upstream the elements
     * @param expanders makes the expander of each subscription
     * @param prefetch upstream elements requested ahead (at least 1)
     * @param <T> the upstream element type
     * @param <R> the output element type
     * @return the expanded flux
     */
    public static <T, R> Flux<R> expand(Flux<? extends T> upstream, Supplier<? extends Expander<T, R>> expanders,
                                        int prefetch) {
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(expanders, "expanders");
        if (prefetch < 1) {
            throw new IllegalArgumentException("prefetch < 1: " + prefetch);
        }
        return new ExpandingFlux<>(upstream, expanders, prefetch);
    }

    private static final class ExpandingFlux<T, R> extends FluxOperator<T, R> {
        private final Supplier<? extends Expander<T, R>> expanders;
        private final int prefetch;

        ExpandingFlux(Flux<? extends T> upstream, Supplier<? extends Expander<T, R>> expanders, int prefetch) {
            super(upstream);
            this.expanders = expanders;
            this.prefetch = prefetch;
        }

        @Override
        public void subscribe(CoreSubscriber<? super R> actual) {
            Expander<T, R> expander;
            try {
                expander = Objects.requireNonNull(expanders.get(), "expander");
            } catch (Throwable e) {
                Operators.error(actual, Operators.onOperatorError(e, actual.currentContext()));
                return;
            }
            source.subscribe(new ExpandingSubscriber<>(actual, expander, prefetch));
        }
    }

    /** One subscription: a queue of upstream elements, the output of the one being delivered, a drain loop. */
    private static final class ExpandingSubscriber<T, R> implements CoreSubscriber<T>, Subscription {

        @SuppressWarnings("rawtypes")
        private static final AtomicIntegerFieldUpdater<ExpandingSubscriber> WIP =
                AtomicIntegerFieldUpdater.newUpdater(ExpandingSubscriber.class, "wip");
        @SuppressWarnings("rawtypes")
        private static final AtomicLongFieldUpdater<ExpandingSubscriber> REQUESTED =
                AtomicLongFieldUpdater.newUpdater(ExpandingSubscriber.class, "requested");

        private final CoreSubscriber<? super R> actual;
        private final Expander<T, R> expander;
        private final int prefetch;
        private final int limit;
        /** The output of the element being delivered (or the closing output); reused. */
        private final ArrayList<R> out = new ArrayList<>(4);
        /** The next element of {@link #out} to deliver. */
        private int index;

        private @Nullable Subscription upstream;
        private @Nullable Queue<T> queue;
        private boolean sync;
        private boolean async;
        /** Upstream elements taken since the last request. */
        private int consumed;

        private volatile boolean done;
        private @Nullable Throwable upstreamError;
        private volatile boolean cancelled;
        /** The expander's work is over: {@link #out} holds the last output, then {@link #terminal} ends the flux. */
        private boolean ended;
        private @Nullable Throwable terminal;

        @SuppressWarnings("unused") // through WIP
        private volatile int wip;
        @SuppressWarnings("unused") // through REQUESTED
        private volatile long requested;

        ExpandingSubscriber(CoreSubscriber<? super R> actual, Expander<T, R> expander, int prefetch) {
            this.actual = actual;
            this.expander = expander;
            this.prefetch = prefetch;
            this.limit = prefetch - (prefetch >> 2);
        }

        @Override
        public Context currentContext() {
            return actual.currentContext();
        }

        @Override
        @SuppressWarnings("unchecked") // a fused upstream's queue holds its elements, of type T
        public void onSubscribe(Subscription s) {
            if (!Operators.validate(upstream, s)) {
                return;
            }
            upstream = s;
            if (s instanceof Fuseable.QueueSubscription<?> qs) {
                int mode = qs.requestFusion(Fuseable.ANY);
                if (mode == Fuseable.SYNC) {
                    sync = true;
                    queue = (Queue<T>) qs;
                    done = true;
                    actual.onSubscribe(this);
                    return;
                }
                if (mode == Fuseable.ASYNC) {
                    async = true;
                    queue = (Queue<T>) qs;
                    actual.onSubscribe(this);
                    s.request(prefetch);
                    return;
                }
            }
            queue = Queues.<T>get(prefetch).get();
            actual.onSubscribe(this);
            s.request(prefetch);
        }

        @Override
        public void onNext(T t) {
            if (async) {
                drain();
                return;
            }
            if (done) {
                Operators.onNextDropped(t, actual.currentContext());
                return;
            }
            Queue<T> q = Objects.requireNonNull(queue);
            if (!q.offer(t)) {
                upstreamError = Operators.onOperatorError(upstream,
                        Exceptions.failWithOverflow(Exceptions.BACKPRESSURE_ERROR_QUEUE_FULL), t,
                        actual.currentContext());
                done = true;
            }
            drain();
        }

        @Override
        public void onError(Throwable t) {
            if (done) {
                Operators.onErrorDropped(t, actual.currentContext());
                return;
            }
            upstreamError = t;
            done = true;
            drain();
        }

        @Override
        public void onComplete() {
            if (done) {
                return;
            }
            done = true;
            drain();
        }

        @Override
        public void request(long n) {
            if (Operators.validate(n)) {
                Operators.addCap(REQUESTED, this, n);
                drain();
            }
        }

        @Override
        public void cancel() {
            if (cancelled) {
                return;
            }
            cancelled = true;
            Objects.requireNonNull(upstream).cancel();
            if (WIP.getAndIncrement(this) == 0) {
                clear();
            }
        }

        private void clear() {
            out.clear();
            index = 0;
            Queue<T> q = queue;
            if (q != null) {
                q.clear();
            }
        }

        private void drain() {
            if (WIP.getAndIncrement(this) != 0) {
                return;
            }
            Queue<T> q = Objects.requireNonNull(queue);
            CoreSubscriber<? super R> a = actual;
            int missed = 1;
            for (;;) {
                long r = requested;
                long e = 0L;
                for (;;) {
                    if (cancelled) {
                        clear();
                        return;
                    }
                    if (index < out.size()) {
                        if (e == r) {
                            break;
                        }
                        R v = out.get(index++);
                        a.onNext(v);
                        e++;
                        continue;
                    }
                    if (index != 0) {
                        out.clear();
                        index = 0;
                    }
                    if (ended) {
                        // WIP stays above zero: no drain runs after the terminal signal
                        Throwable t = terminal;
                        if (t == null) {
                            a.onComplete();
                        } else {
                            a.onError(t);
                        }
                        return;
                    }
                    boolean d = done;
                    if (e == r && !(d && q.isEmpty())) {
                        // no demand: the next element waits in the queue (only the end is signalled without demand)
                        break;
                    }
                    T item;
                    try {
                        item = q.poll();
                    } catch (Throwable ex) {
                        // a fused upstream failed while producing its next element
                        Throwable failure = Operators.onOperatorError(upstream, ex, actual.currentContext());
                        q.clear();
                        endWithError(failure);
                        continue;
                    }
                    if (item == null) {
                        if (d) {
                            Throwable failure = upstreamError;
                            if (failure == null) {
                                endWithCompletion();
                            } else {
                                endWithError(failure);
                            }
                            continue;
                        }
                        break;
                    }
                    if (!sync && ++consumed == limit) {
                        consumed = 0;
                        Objects.requireNonNull(upstream).request(limit);
                    }
                    try {
                        expander.next(item, out);
                    } catch (Throwable ex) {
                        terminal = Operators.onOperatorError(upstream, ex, item, actual.currentContext());
                        ended = true;
                        q.clear();
                    }
                }
                if (e != 0L && r != Long.MAX_VALUE) {
                    REQUESTED.addAndGet(this, -e);
                }
                missed = WIP.addAndGet(this, -missed);
                if (missed == 0) {
                    return;
                }
            }
        }

        private void endWithCompletion() {
            ended = true;
            try {
                expander.complete(out);
                terminal = null;
            } catch (Throwable ex) {
                Exceptions.throwIfFatal(ex);
                terminal = ex;
            }
        }

        private void endWithError(Throwable failure) {
            ended = true;
            terminal = failure;
            try {
                expander.error(failure, out);
            } catch (Throwable ex) {
                Exceptions.throwIfFatal(ex);
                ex.addSuppressed(failure);
                terminal = ex;
            }
        }
    }
}
