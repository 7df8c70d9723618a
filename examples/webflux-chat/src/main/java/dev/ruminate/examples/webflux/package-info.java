/**
 * The WebFlux chat example: a controller streaming server-sent events from an auto-configured
 * Ruminate provider, a static page rendering them, and an optional in-process emulator.
 */
@NullMarked
package dev.ruminate.examples.webflux;

import org.jspecify.annotations.NullMarked;
