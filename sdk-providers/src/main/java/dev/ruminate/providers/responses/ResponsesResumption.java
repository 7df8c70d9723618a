package dev.ruminate.providers.responses;

import java.time.Duration;
import java.util.Objects;

/**
 * Resumption of streamed Responses calls, OpenAI's background mode: each streamed request is sent
 * with {@code "background": true} and {@code "store": true}, so the server keeps the response's
 * events; when the stream is then cut after some events (the connection closed or reset, the body
 * ended without a terminal event, a read timeout), the provider reconnects with
 * {@code GET /responses/{id}?stream=true&starting_after=<last sequence number>} inside the same
 * flux, skips any event it already delivered and goes on, so the subscriber sees the response
 * whole and once, behind a {@link dev.ruminate.core.event.Warning} {@code stream-resumed} per
 * reconnection. See {@code docs/resumption.md}.
 *
 * <p>A stream that cannot be resumed fails with
 * {@link dev.ruminate.core.error.StreamResumeException}: the server refused the reconnection
 * ({@code REFUSED}, such as a 404 once the stored events expired), the resumed stream skipped
 * events ({@code GAP}), or it was cut more than {@link #maxAttempts()} times ({@code EXHAUSTED}).
 * A cut before the first event is left to the provider's retry guard, as without resumption; an
 * HTTP error status, a {@code response.failed} or an {@code error} event is never resumed.
 *
 * <p>Immutable and thread-safe.
 *
 * @param maxAttempts how many reconnections one call may make, at least 1
 * @param backoff how long to wait before each reconnection; zero for none
 * @since 0.4
 */
public record ResponsesResumption(int maxAttempts, Duration backoff) {

    /**
     * Creates the value, checking its components.
     *
     * @param maxAttempts see {@link #maxAttempts()}
     * @param backoff see {@link #backoff()}
     * @throws IllegalArgumentException if {@code maxAttempts} is below 1 or {@code backoff} negative
     */
    public ResponsesResumption {
        Objects.requireNonNull(backoff, "backoff");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
        }
        if (backoff.isNegative()) {
            throw new IllegalArgumentException("backoff must not be negative, was " + backoff);
        }
    }

    /**
     * Returns resumption with up to {@code maxAttempts} reconnections per call, each after half a
     * second.
     *
     * @param maxAttempts how many reconnections one call may make, at least 1
     * @return the options
     */
    public static ResponsesResumption attempts(int maxAttempts) {
        return new ResponsesResumption(maxAttempts, Duration.ofMillis(500));
    }

    /**
     * Returns a copy with another wait before each reconnection.
     *
     * @param value the wait; zero for none
     * @return the options
     */
    public ResponsesResumption withBackoff(Duration value) {
        return new ResponsesResumption(maxAttempts, value);
    }
}
