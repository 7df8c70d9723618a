package dev.ruminate.gateway.route;

/**
 * Whether a route also sends raw reasoning as Responses reasoning-summary events, for clients that
 * read only those.
 *
 * @since 0.2
 */
public enum ReasoningSummaries {
    /** Raw reasoning is mirrored as summary events too. */
    MIRROR,
    /** Raw reasoning is sent only as reasoning-text events. */
    OFF
}
