/**
 * The WebFlux endpoints: request routing, bodies, and OpenAI-shaped error responses.
 */
@NullMarked
package dev.ruminate.gateway.http;

import org.jspecify.annotations.NullMarked;
