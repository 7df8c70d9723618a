/**
 * Stand-ins used until the sealer and stores of the gateway module are available; replaced then.
 */
@NullMarked
package dev.ruminate.gateway.interim;

import org.jspecify.annotations.NullMarked;
