/**
 * What a service needs to speak OpenAI's APIs to its own clients, whatever provider answers behind
 * it: the error shape those clients expect, and the typed error for a request they sent wrong.
 *
 * <p>The per-API readers and writers live with their API ({@code responses}, {@code chatcompletions});
 * this package holds only what they share.
 */
@NullMarked
package dev.ruminate.providers.serving;

import org.jspecify.annotations.NullMarked;
