package dev.ruminate.core.loop;

import dev.ruminate.core.reduce.ChatReducer;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link ToolLoop} runs: its bounds, timeouts and error policy.
 *
 * <p>Immutable and thread-safe (as long as the stop predicate is); build one with
 * {@link #builder()} or derive one with {@link #toBuilder()}. Components are non-null unless marked
 * {@code @Nullable}.
 *
 * @param maxSteps the most model calls one loop makes (default 10); reaching it is reported as
 *     {@link StopReason#STEP_LIMIT}, not thrown
 * @param maxParallelToolCalls how many tool calls of one step run at once (default 4)
 * @param toolTimeout how long one tool call may take before it counts as failed (default 60 s)
 * @param loopTimeout how long the whole loop may take before it fails with a
 *     {@link ToolLoopException}, or null for no limit (the default)
 * @param errorPolicy what a failed tool call does (default {@link ToolErrorPolicy#RETURN_TO_MODEL})
 * @param maxResultChars the longest tool result sent to the model, in chars (default 100 000);
 *     what happens to a longer one is {@code oversizeResults}
 * @param oversizeResults what a result over {@code maxResultChars} does: cut with a note (the
 *     default, {@link OversizeResultPolicy#TRUNCATE}) or fail the call ({@link OversizeResultPolicy#FAIL})
 * @param validateArguments true (the default) to check each call's arguments against its tool's
 *     JSON schema before running it; a call that breaks it is answered with the violations (which
 *     property, which rule) so the model can correct itself, or fails the loop, per
 *     {@code errorPolicy}. It needs the optional com.networknt:json-schema-validator 3.x (see
 *     {@link ToolLoop#validatesSchemas()}); without it arguments are only checked to be JSON
 * @param stopWhen tested on each completed step that called tools (after they ran); true ends the
 *     loop with {@link StopReason#STOP_PREDICATE} (default: never). It runs on the loop's thread
 *     and must not block.
 * @param reducer the reducer that folds each step's events (default {@link ChatReducer#defaults()})
 * @param streaming true (the default) to stream each step ({@link dev.ruminate.core.ChatProvider#stream}),
 *     false to make non-streaming calls ({@link dev.ruminate.core.ChatProvider#completeAsEvents}),
 *     which produce the same events at once
 * @since 0.1
 */
public record LoopOptions(int maxSteps, int maxParallelToolCalls, Duration toolTimeout, @Nullable Duration loopTimeout,
                          ToolErrorPolicy errorPolicy, int maxResultChars, OversizeResultPolicy oversizeResults,
                          boolean validateArguments, Predicate<LoopEvent.StepCompleted> stopWhen,
                          ChatReducer reducer, boolean streaming) {

    /** The defaults. */
    public static final LoopOptions DEFAULTS = builder().build();

    /**
     * Creates the value, checking its components.
     *
     * @param maxSteps see {@link #maxSteps()}
     * @param maxParallelToolCalls see {@link #maxParallelToolCalls()}
     * @param toolTimeout see {@link #toolTimeout()}
     * @param loopTimeout see {@link #loopTimeout()}
     * @param errorPolicy see {@link #errorPolicy()}
     * @param maxResultChars see {@link #maxResultChars()}
     * @param oversizeResults see {@link #oversizeResults()}
     * @param validateArguments see {@link #validateArguments()}
     * @param stopWhen see {@link #stopWhen()}
     * @param reducer see {@link #reducer()}
     * @param streaming see {@link #streaming()}
     * @throws IllegalArgumentException if a bound is not positive
     */
    public LoopOptions {
        if (maxSteps < 1) {
            throw new IllegalArgumentException("maxSteps must be at least 1: " + maxSteps);
        }
        if (maxParallelToolCalls < 1) {
            throw new IllegalArgumentException("maxParallelToolCalls must be at least 1: " + maxParallelToolCalls);
        }
        requirePositive(toolTimeout, "toolTimeout");
        if (loopTimeout != null) {
            requirePositive(loopTimeout, "loopTimeout");
        }
        Objects.requireNonNull(errorPolicy, "errorPolicy");
        if (maxResultChars < 1) {
            throw new IllegalArgumentException("maxResultChars must be at least 1: " + maxResultChars);
        }
        Objects.requireNonNull(oversizeResults, "oversizeResults");
        Objects.requireNonNull(stopWhen, "stopWhen");
        Objects.requireNonNull(reducer, "reducer");
    }

    private static void requirePositive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
    }

    /**
     * Starts building options from the defaults.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns a builder holding these options.
     *
     * @return a builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.maxSteps = maxSteps;
        b.maxParallelToolCalls = maxParallelToolCalls;
        b.toolTimeout = toolTimeout;
        b.loopTimeout = loopTimeout;
        b.errorPolicy = errorPolicy;
        b.maxResultChars = maxResultChars;
        b.oversizeResults = oversizeResults;
        b.validateArguments = validateArguments;
        b.stopWhen = stopWhen;
        b.reducer = reducer;
        b.streaming = streaming;
        return b;
    }

    /**
     * Builds {@link LoopOptions}. Not thread-safe; {@link #build()} checks the values.
     *
     * @since 0.1
     */
    public static final class Builder {
        private int maxSteps = 10;
        private int maxParallelToolCalls = 4;
        private Duration toolTimeout = Duration.ofSeconds(60);
        private @Nullable Duration loopTimeout;
        private ToolErrorPolicy errorPolicy = ToolErrorPolicy.RETURN_TO_MODEL;
        private int maxResultChars = 100_000;
        private OversizeResultPolicy oversizeResults = OversizeResultPolicy.TRUNCATE;
        private boolean validateArguments = true;
        private Predicate<LoopEvent.StepCompleted> stopWhen = step -> false;
        private ChatReducer reducer = ChatReducer.defaults();
        private boolean streaming = true;

        private Builder() {
        }

        /**
         * Sets the most model calls of one loop.
         *
         * @param value at least 1
         * @return this builder
         */
        public Builder maxSteps(int value) {
            this.maxSteps = value;
            return this;
        }

        /**
         * Sets how many tool calls of one step run at once.
         *
         * @param value at least 1
         * @return this builder
         */
        public Builder maxParallelToolCalls(int value) {
            this.maxParallelToolCalls = value;
            return this;
        }

        /**
         * Sets how long one tool call may take.
         *
         * @param value a positive duration
         * @return this builder
         */
        public Builder toolTimeout(Duration value) {
            this.toolTimeout = value;
            return this;
        }

        /**
         * Sets how long the whole loop may take.
         *
         * @param value a positive duration, or null for no limit
         * @return this builder
         */
        public Builder loopTimeout(@Nullable Duration value) {
            this.loopTimeout = value;
            return this;
        }

        /**
         * Sets what a failed tool call does.
         *
         * @param value the policy
         * @return this builder
         */
        public Builder errorPolicy(ToolErrorPolicy value) {
            this.errorPolicy = value;
            return this;
        }

        /**
         * Sets the longest tool result sent to the model.
         *
         * @param value at least 1 char
         * @return this builder
         */
        public Builder maxResultChars(int value) {
            this.maxResultChars = value;
            return this;
        }

        /**
         * Sets what a result over the size limit does: cut with a note (the default) or fail the call.
         *
         * @param value the policy
         * @return this builder
         */
        public Builder oversizeResults(OversizeResultPolicy value) {
            this.oversizeResults = value;
            return this;
        }

        /**
         * Sets whether calls' arguments are checked against their tool's JSON schema.
         *
         * @param value true to check (the default)
         * @return this builder
         */
        public Builder validateArguments(boolean value) {
            this.validateArguments = value;
            return this;
        }

        /**
         * Sets the predicate that ends the loop after a completed step.
         *
         * @param value the predicate; it must not block
         * @return this builder
         */
        public Builder stopWhen(Predicate<LoopEvent.StepCompleted> value) {
            this.stopWhen = value;
            return this;
        }

        /**
         * Sets the reducer of each step's events.
         *
         * @param value the reducer
         * @return this builder
         */
        public Builder reducer(ChatReducer value) {
            this.reducer = value;
            return this;
        }

        /**
         * Sets whether each step streams or makes a non-streaming call.
         *
         * @param value true to stream (the default)
         * @return this builder
         */
        public Builder streaming(boolean value) {
            this.streaming = value;
            return this;
        }

        /**
         * Builds the options.
         *
         * @return the immutable options
         * @throws IllegalArgumentException if a bound is not positive
         */
        public LoopOptions build() {
            return new LoopOptions(maxSteps, maxParallelToolCalls, toolTimeout, loopTimeout, errorPolicy,
                    maxResultChars, oversizeResults, validateArguments, stopWhen, reducer, streaming);
        }
    }
}
