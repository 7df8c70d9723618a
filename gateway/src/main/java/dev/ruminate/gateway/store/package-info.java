/**
 * Where the gateway keeps the responses and output items it produced, so that a later request can
 * name them by {@code previous_response_id} or {@code item_reference}: in memory (one instance) or
 * in Redis (several instances behind a load balancer).
 */
@NullMarked
package dev.ruminate.gateway.store;

import org.jspecify.annotations.NullMarked;
