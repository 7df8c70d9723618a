/**
 * {@code ruminate serve}: the gateway as a local command, in front of built-in emulators, a recording, or a real backend.
 */
@NullMarked
package dev.ruminate.gateway.serve;

import org.jspecify.annotations.NullMarked;
