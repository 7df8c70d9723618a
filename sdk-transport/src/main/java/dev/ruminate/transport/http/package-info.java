/**
 * The HTTP exchange every provider makes: one JSON {@code POST}, its response streamed as network
 * buffers or read whole, and every failure mapped to a typed
 * {@link dev.ruminate.core.error.RuminateException}.
 *
 * <p>Nothing here names a provider: a provider passes its own {@link dev.ruminate.transport.http.ErrorBodyParser}
 * when its error bodies differ from the common {@code {"error": {...}}} shape. API keys travel as
 * {@link dev.ruminate.transport.http.ApiKey}s, which never show their value in {@code toString}, logs or
 * exception messages.
 */
@NullMarked
package dev.ruminate.transport.http;

import org.jspecify.annotations.NullMarked;
