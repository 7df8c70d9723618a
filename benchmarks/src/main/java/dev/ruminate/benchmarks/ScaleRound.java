package dev.ruminate.benchmarks;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What one scale round saw ({@link ScaleStreams}).
 *
 * @param name what ran
 * @param n how many streams
 * @param held how many the upstream held at once, all open, before any was let go
 * @param released how many the upstream let go at its one release
 * @param endedBeforeRelease streams that had ended before the release (must be none)
 * @param correct streams whose reduced message equals their seed's expected answer
 * @param openMillis from the first request to every stream's first event
 * @param finishMillis from the release to every stream's end
 * @param clientHeapBytes the measuring JVM's used heap after GC with all open, minus before the round
 * @param servingHeapBytes the serving JVM's likewise
 * @param firstFailure the first thing that went wrong, if any
 */
record ScaleRound(String name, int n, int held, int released, long endedBeforeRelease, int correct, long openMillis,
                  long finishMillis, long clientHeapBytes, long servingHeapBytes, @Nullable String firstFailure) {

    /** The measuring JVM's heap per open stream, in bytes. */
    double clientPerStream() {
        return (double) clientHeapBytes / n;
    }

    /** The serving JVM's heap per open stream, in bytes. */
    double servingPerStream() {
        return (double) servingHeapBytes / n;
    }

    /**
     * Throws unless every stream was open at once (held together, none ended before the release) and ended with its
     * expected message.
     *
     * @return this round
     */
    ScaleRound check() {
        if (firstFailure != null || correct != n || held != n || released != n || endedBeforeRelease != 0) {
            throw new IllegalStateException("scale round failed: " + summary());
        }
        return this;
    }

    /** One line with every figure. */
    String summary() {
        return String.format(Locale.ROOT, "%s: held at once %d, released %d, ended before the release %d, correct"
                        + " %d/%d; all open after %d ms, all ended %d ms after the release; heap per open stream:"
                        + " client JVM %.0f B, serving JVM %.0f B%s", name, held, released, endedBeforeRelease,
                correct, n, openMillis, finishMillis, clientPerStream(), servingPerStream(),
                firstFailure == null ? "" : "; first failure: " + firstFailure);
    }
}
