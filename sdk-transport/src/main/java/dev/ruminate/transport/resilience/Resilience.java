package dev.ruminate.transport.resilience;

import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.RejectedException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.StreamTimeoutException;
import dev.ruminate.core.event.ChatEvent;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.retry.Retry;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The guards of one provider endpoint, applied around each call: Resilience4j's retry, circuit
 * breaker, rate limiter and bulkhead (from your own registries, or built for the endpoint), and
 * {@link Timeouts}.
 *
 * <p><b>Retry</b> happens only while nothing has reached the subscriber: a connection error, a
 * retryable status (429, 5xx, 529), a first-event timeout. Once an event is out, an error ends the
 * stream, since a second attempt would repeat output. An error qualifies when it is a retryable
 * {@link RuminateException} and the retry's own exception predicate accepts it; the wait is the
 * retry's interval, or the provider's {@code Retry-After} when that is longer. The {@link Retry}
 * given is the one that runs: each call takes an {@link Retry#asyncContext() async context} of
 * it, so its events, its metrics and the registry it came from see every attempt. A call that
 * ends with an error Ruminate never retries (one that is not retryable, or one after the first
 * event) ends without the retry being told, since Resilience4j can only record such an error
 * through its own predicate: its metrics then count the call as none of theirs.
 *
 * <p><b>Order</b>, outermost first: total timeout, retry, bulkhead, rate limiter, circuit breaker,
 * first-event and idle timeouts, the call. A refusal (open circuit, no rate permit, full
 * bulkhead) fails at once with {@link RejectedException}, without a request; it is not retried.
 * The circuit breaker counts an attempt a success when its stream completes, a failure when it
 * fails, and neither when it is cancelled.
 *
 * <p>Immutable and thread-safe; the guards are shared by every call made through it.
 *
 * @since 0.1
 */
public final class Resilience {

    /** No guards: the call as it is. */
    public static final Resilience NONE = builder().build();

    private final @Nullable Retry retry;
    private final @Nullable CircuitBreaker circuitBreaker;
    private final @Nullable RateLimiter rateLimiter;
    private final @Nullable Bulkhead bulkhead;
    private final Timeouts timeouts;

    private Resilience(Builder b) {
        this.retry = b.retry;
        this.circuitBreaker = b.circuitBreaker;
        this.rateLimiter = b.rateLimiter;
        this.bulkhead = b.bulkhead;
        this.timeouts = b.timeouts;
    }

    /**
     * Starts building the guards of an endpoint.
     *
     * @return a builder with no guards
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the timeouts.
     *
     * @return the timeouts
     */
    public Timeouts timeouts() {
        return timeouts;
    }

    /**
     * Applies the guards to a call.
     *
     * @param provider the provider name, for errors
     * @param call the call: a cold flux that makes a new request on each subscription
     * @return the guarded call, cold
     */
    public Flux<ChatEvent> apply(String provider, Flux<ChatEvent> call) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(call, "call");
        if (this == NONE) {
            return call;
        }
        Flux<ChatEvent> attempt = Flux.defer(() -> guarded(provider, call));
        Flux<ChatEvent> retried = retry == null ? attempt : Flux.defer(() -> retrying(attempt));
        return timeouts.total() == null ? retried : total(retried, timeouts.total());
    }

    private Flux<ChatEvent> guarded(String provider, Flux<ChatEvent> call) {
        Flux<ChatEvent> f = timed(call);
        if (circuitBreaker != null) {
            f = breaker(provider, circuitBreaker, f);
        }
        if (rateLimiter != null) {
            f = limited(provider, rateLimiter, f);
        }
        if (bulkhead != null) {
            f = bulkheaded(provider, bulkhead, f);
        }
        return f;
    }

    private Flux<ChatEvent> timed(Flux<ChatEvent> call) {
        Duration first = timeouts.firstEvent();
        Duration idle = timeouts.idle();
        if (first == null && idle == null) {
            return call;
        }
        return Flux.defer(() -> {
            AtomicBoolean started = new AtomicBoolean();
            return call.doOnNext(e -> started.set(true))
                    .timeout(first != null ? Mono.delay(first) : Mono.never(),
                            e -> idle != null ? Mono.delay(idle) : Mono.never())
                    .onErrorMap(TimeoutException.class, e -> started.get()
                            ? new StreamTimeoutException(StreamTimeoutException.Phase.IDLE, Objects.requireNonNull(idle))
                            : new StreamTimeoutException(StreamTimeoutException.Phase.FIRST_EVENT, Objects.requireNonNull(first)));
        });
    }

    private static Flux<ChatEvent> breaker(String provider, CircuitBreaker cb, Flux<ChatEvent> call) {
        return Flux.defer(() -> {
            if (!cb.tryAcquirePermission()) {
                return Flux.error(new RejectedException(provider, RejectedException.Guard.CIRCUIT_BREAKER, cb.getName()));
            }
            long start = cb.getCurrentTimestamp();
            AtomicBoolean recorded = new AtomicBoolean();
            return call
                    .doOnComplete(() -> {
                        if (recorded.compareAndSet(false, true)) {
                            cb.onSuccess(cb.getCurrentTimestamp() - start, cb.getTimestampUnit());
                        }
                    })
                    .doOnError(e -> {
                        if (recorded.compareAndSet(false, true)) {
                            cb.onError(cb.getCurrentTimestamp() - start, cb.getTimestampUnit(), e);
                        }
                    })
                    .doOnCancel(() -> {
                        if (recorded.compareAndSet(false, true)) {
                            cb.releasePermission();
                        }
                    });
        });
    }

    private static Flux<ChatEvent> limited(String provider, RateLimiter rl, Flux<ChatEvent> call) {
        return Flux.defer(() -> {
            long waitNanos = rl.reservePermission();
            if (waitNanos < 0) {
                return Flux.error(new RejectedException(provider, RejectedException.Guard.RATE_LIMITER, rl.getName()));
            }
            return waitNanos == 0 ? call : Mono.delay(Duration.ofNanos(waitNanos)).thenMany(call);
        });
    }

    private static Flux<ChatEvent> bulkheaded(String provider, Bulkhead bh, Flux<ChatEvent> call) {
        return Flux.defer(() -> {
            if (!bh.tryAcquirePermission()) {
                return Flux.error(new RejectedException(provider, RejectedException.Guard.BULKHEAD, bh.getName()));
            }
            AtomicBoolean released = new AtomicBoolean();
            return call.doFinally(signal -> {
                if (released.compareAndSet(false, true)) {
                    bh.onComplete();
                }
            });
        });
    }

    private Flux<ChatEvent> retrying(Flux<ChatEvent> attempt) {
        Retry r = Objects.requireNonNull(retry);
        Retry.AsyncContext<Object> context = r.asyncContext();
        AtomicBoolean emitted = new AtomicBoolean();
        return attempt.doOnNext(e -> emitted.set(true))
                .retryWhen(reactor.util.retry.Retry.from(signals -> signals.concatMap(signal -> {
                    Throwable error = signal.failure();
                    // Asked only about what Ruminate may retry: the context would count anything else as
                    // an attempt to retry, and a retry after output would repeat it.
                    if (emitted.get() || !retryable(error)) {
                        return Mono.error(error);
                    }
                    long wait = context.onError(error);
                    if (wait < 0) {
                        return Mono.error(error);
                    }
                    return Mono.delay(Duration.ofMillis(Math.max(wait, retryAfterMillis(error))));
                })))
                .doOnComplete(context::onComplete);
    }

    /** What Ruminate retries at all; the retry's own exception predicate narrows it further. */
    private static boolean retryable(Throwable error) {
        return error instanceof RuminateException r && r.isRetryable();
    }

    /** The provider's {@code Retry-After}, in milliseconds, or 0. */
    static long retryAfterMillis(Throwable error) {
        if (error instanceof ProviderHttpException http && http.retryAfter() != null) {
            return Objects.requireNonNull(http.retryAfter()).toMillis();
        }
        return 0;
    }

    private static Flux<ChatEvent> total(Flux<ChatEvent> call, Duration limit) {
        return Flux.defer(() -> {
            AtomicBoolean expired = new AtomicBoolean();
            return call.takeUntilOther(Mono.delay(limit).doOnNext(x -> expired.set(true)))
                    .concatWith(Mono.defer(() -> expired.get()
                            ? Mono.error(new StreamTimeoutException(StreamTimeoutException.Phase.TOTAL, limit))
                            : Mono.empty()));
        });
    }

    @Override
    public String toString() {
        return "Resilience[retry=" + (retry != null ? retry.getName() : "none")
                + ", circuitBreaker=" + (circuitBreaker != null ? circuitBreaker.getName() : "none")
                + ", rateLimiter=" + (rateLimiter != null ? rateLimiter.getName() : "none")
                + ", bulkhead=" + (bulkhead != null ? bulkhead.getName() : "none") + ", " + timeouts + "]";
    }

    /**
     * Builds a {@link Resilience}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder {
        private @Nullable Retry retry;
        private @Nullable CircuitBreaker circuitBreaker;
        private @Nullable RateLimiter rateLimiter;
        private @Nullable Bulkhead bulkhead;
        private Timeouts timeouts = Timeouts.NONE;

        private Builder() {
        }

        /**
         * Retries failed attempts before the first event, with this retry's attempts, intervals
         * (exponential backoff with jitter if so configured) and exception predicate.
         *
         * @param value the retry, such as {@code retryRegistry.retry("deepseek")}
         * @return this builder
         */
        public Builder retry(Retry value) {
            this.retry = Objects.requireNonNull(value, "value");
            return this;
        }

        /**
         * Guards each attempt with a circuit breaker.
         *
         * @param value the breaker, such as {@code circuitBreakerRegistry.circuitBreaker("deepseek")}
         * @return this builder
         */
        public Builder circuitBreaker(CircuitBreaker value) {
            this.circuitBreaker = Objects.requireNonNull(value, "value");
            return this;
        }

        /**
         * Takes a rate-limiter permit for each attempt, waiting (without blocking a thread) up to the
         * limiter's timeout.
         *
         * @param value the limiter
         * @return this builder
         */
        public Builder rateLimiter(RateLimiter value) {
            this.rateLimiter = Objects.requireNonNull(value, "value");
            return this;
        }

        /**
         * Bounds the concurrent streams (a semaphore bulkhead; a permit is held until the stream ends
         * or is cancelled). A full bulkhead refuses at once.
         *
         * @param value the bulkhead
         * @return this builder
         */
        public Builder bulkhead(Bulkhead value) {
            this.bulkhead = Objects.requireNonNull(value, "value");
            return this;
        }

        /**
         * Sets the first-event, idle and total timeouts.
         *
         * @param value the timeouts
         * @return this builder
         */
        public Builder timeouts(Timeouts value) {
            this.timeouts = Objects.requireNonNull(value, "value");
            return this;
        }

        /**
         * Builds the guards.
         *
         * @return the guards
         */
        public Resilience build() {
            return new Resilience(this);
        }
    }
}
