package dev.ruminate.core.reduce;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ResponseCompleted;
import java.util.Objects;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Folds a response's events into the final {@link ChatResult}: the assistant message with its parts
 * in provider order, and the verdict of the reasoning check.
 *
 * <p>Tool-call arguments are assembled per part and validated as JSON at the end; a call whose
 * arguments are not one complete JSON value is flagged ({@code argumentsValid == false}) or fails
 * the reduction, per {@link ToolArgumentsPolicy}. Where the provider reports its final reasoning
 * ({@link dev.ruminate.core.event.ReasoningFinal}), the streamed text of each part is compared with
 * it; the comparison is exact (whitespace counts) unless
 * {@link Builder#whitespaceOnlyMismatchIsMatch(boolean)} is set, and the first difference is
 * recorded in the {@link ReasoningCheck} whatever the {@link MismatchPolicy}.
 *
 * <p>For a request with an output schema, the provider's final
 * {@link dev.ruminate.core.event.OutputChecked} verdict becomes {@link ChatResult#output()}; a verdict
 * that refuses the answer and announces a corrective attempt starts the message over (see
 * {@link Reduction}).
 *
 * <p>Immutable and thread-safe; one reducer serves any number of concurrent reductions.
 *
 * <p><b>Errors.</b> If the source fails, the returned publisher fails with a
 * {@link dev.ruminate.core.error.RuminateException} carrying the message reduced so far
 * ({@code partial()}); a foreign exception is wrapped in an
 * {@link dev.ruminate.core.error.IncompleteStreamException}. A source that completes without
 * {@link dev.ruminate.core.event.ResponseCompleted} fails the same way: a result is never silently
 * partial.
 *
 * <p><b>Cancellation.</b> Cancelling the returned publisher cancels the source (and so closes the
 * HTTP exchange).
 *
 * @since 0.1
 */
public final class ChatReducer {

    private static final ChatReducer DEFAULTS = builder().build();

    private final Settings settings;

    private ChatReducer(Settings settings) {
        this.settings = settings;
    }

    /**
     * Returns the reducer with default policies: prefer the provider's final reasoning on a
     * mismatch, flag invalid tool arguments, compare whitespace exactly.
     *
     * @return the default reducer
     */
    public static ChatReducer defaults() {
        return DEFAULTS;
    }

    /**
     * Starts building a reducer with other policies.
     *
     * @return a builder holding the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reduces a response to its final result.
     *
     * @param events the response's events
     * @return a cold mono of the result
     */
    public Mono<ChatResult> reduce(Publisher<? extends ChatEvent> events) {
        Objects.requireNonNull(events, "events");
        return Mono.defer(() -> {
            Reduction reduction = start();
            return Flux.<ChatEvent>from(events)
                    .doOnNext(reduction::accept)
                    .then(Mono.fromCallable(reduction::finish))
                    .onErrorMap(reduction::attach);
        });
    }

    /**
     * Reduces a response while it streams, emitting a snapshot per event: the event and, on demand,
     * the message so far. The reduction is done once; a snapshot's message is built only if asked for,
     * and the snapshot of {@link ResponseCompleted} carries the final {@link ChatResult} (the same
     * one {@link #reduce} gives), so a UI never reduces twice.
     *
     * @param events the response's events
     * @return a cold flux with one snapshot per event; it fails like {@link #reduce} (a source that
     *     completes without {@link ResponseCompleted} fails with an
     *     {@link dev.ruminate.core.error.IncompleteStreamException}), with the partial message
     *     attached to the error
     */
    public Flux<ChatSnapshot> snapshots(Publisher<? extends ChatEvent> events) {
        Objects.requireNonNull(events, "events");
        return Flux.defer(() -> {
            Reduction reduction = start();
            return Flux.<ChatEvent>from(events)
                    .map(e -> {
                        reduction.accept(e);
                        // ResponseCompleted is the last event of a response: its snapshot carries the result.
                        ChatResult result = e instanceof ResponseCompleted ? reduction.finish() : null;
                        return new ChatSnapshot(e, reduction, result);
                    })
                    .concatWith(Mono.fromRunnable(() -> {
                        if (!reduction.isCompleted()) {
                            reduction.finish();
                        }
                    }))
                    .onErrorMap(reduction::attach);
        });
    }

    /**
     * Starts a synchronous reduction, for code that has events but no publisher.
     *
     * @return a new, empty reduction
     */
    public Reduction start() {
        return new Reduction(settings);
    }

    /** The policies of a reducer. */
    record Settings(MismatchPolicy mismatchPolicy, ToolArgumentsPolicy toolArgumentsPolicy,
                    boolean whitespaceOnlyMismatchIsMatch) {
    }

    /**
     * Builds a {@link ChatReducer}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder {
        private MismatchPolicy mismatchPolicy = MismatchPolicy.PREFER_PROVIDER;
        private ToolArgumentsPolicy toolArgumentsPolicy = ToolArgumentsPolicy.FLAG;
        private boolean whitespaceOnlyMismatchIsMatch;

        private Builder() {
        }

        /**
         * Sets what a reasoning mismatch does.
         *
         * @param policy the policy
         * @return this builder
         */
        public Builder mismatchPolicy(MismatchPolicy policy) {
            this.mismatchPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Sets what invalid tool-call arguments do.
         *
         * @param policy the policy
         * @return this builder
         */
        public Builder toolArgumentsPolicy(ToolArgumentsPolicy policy) {
            this.toolArgumentsPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Sets whether a difference in whitespace alone counts as a match (default false: the
         * comparison is exact, and a whitespace-only difference is reported as a mismatch with
         * {@link ReasoningCheck#whitespaceOnly()} set).
         *
         * @param lenient true to treat whitespace-only differences as a match
         * @return this builder
         */
        public Builder whitespaceOnlyMismatchIsMatch(boolean lenient) {
            this.whitespaceOnlyMismatchIsMatch = lenient;
            return this;
        }

        /**
         * Builds the reducer.
         *
         * @return an immutable reducer
         */
        public ChatReducer build() {
            return new ChatReducer(new Settings(mismatchPolicy, toolArgumentsPolicy, whitespaceOnlyMismatchIsMatch));
        }
    }
}
