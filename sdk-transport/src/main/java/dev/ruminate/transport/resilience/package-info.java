/**
 * Guards around one provider call: retry before the first event (never after, which would
 * duplicate output), circuit breaker, rate limiter, bulkhead, and the first-event, idle and total
 * timeouts, on Resilience4j's state machines.
 */
@NullMarked
package dev.ruminate.transport.resilience;

import org.jspecify.annotations.NullMarked;
