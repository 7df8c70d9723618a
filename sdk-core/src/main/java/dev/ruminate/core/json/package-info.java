/**
 * Ruminate's JSON wire format for front ends and storage: {@link dev.ruminate.core.json.EventJson}
 * writes and reads every {@link dev.ruminate.core.event.ChatEvent} as one JSON object and turns an
 * event flux into Server-Sent Events ({@link dev.ruminate.core.json.SseFrame});
 * {@link dev.ruminate.core.json.MessageJson} writes and reads messages and conversations.
 *
 * <p>The format, every type and every field with an example, is documented in
 * {@code docs/wire-format.md} at the root of the repository (the file ships with the sources). In short: the answer is a plain string
 * ({@code content}), reasoning an optional {@code reasoning_content} string omitted when empty, and
 * opaque provider state (signatures, encrypted or redacted reasoning, item ids) travels only under
 * {@code provider_state} or in {@code seal} events, never as reasoning text. The client forms
 * ({@link dev.ruminate.core.json.ProviderState#OMIT}, the default of
 * {@link dev.ruminate.core.json.EventJson#toSse(reactor.core.publisher.Flux)}) leave opaque state out
 * entirely, so browsers never receive encrypted blobs.
 *
 * <p>Readers accept older shapes (a {@code thought} string or object) and fail on bad input with a
 * {@link dev.ruminate.core.error.ProtocolException} whose message names the place, never a value.
 */
@NullMarked
package dev.ruminate.core.json;

import org.jspecify.annotations.NullMarked;
