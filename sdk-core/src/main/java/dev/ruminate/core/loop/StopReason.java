package dev.ruminate.core.loop;

/**
 * Why a loop ended without an error.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public enum StopReason {
    /** The model answered without calling a tool. */
    FINAL_ANSWER,
    /**
     * The last allowed step asked for tools; they were not run, so the conversation ends with that
     * assistant message and its calls unanswered (a new loop started from it runs them first).
     */
    STEP_LIMIT,
    /** The options' stop predicate accepted a completed step (after its tools ran). */
    STOP_PREDICATE,
    /** A tool flagged {@link Tool#endsLoop()} was called; the step's tools ran. */
    STOPPING_TOOL
}
