package dev.ruminate.providers.responses;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.transport.wire.SseEvent;
import java.util.Objects;
import java.util.function.Function;
import reactor.core.publisher.Flux;

/**
 * Encodes requests for, and decodes responses from, any Responses server described by a
 * {@link ResponsesProfile}: {@link #encodeRequest} gives the body to {@code POST} to
 * {@link ResponsesProfile#uri}, {@link #streamDecoder} turns the SSE events of a streamed answer into
 * {@link ChatEvent}s, {@link #decodeResponse} does the same for a whole body.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class ResponsesCodec {

    private ResponsesCodec() {
    }

    /**
     * Returns an operator that decodes one response's SSE events into chat events.
     *
     * <p>Each output item is keyed by its {@code output_index}. A reasoning item's summary parts
     * become reasoning parts flagged as summaries (source {@code summary_text}), its raw text parts
     * reasoning parts with source {@code reasoning_text}; each gets its item id as a seal, and the
     * item's first part its {@code encrypted_content} (both from {@code response.output_item.done}).
     * The {@code .done} events give each reasoning part's {@code ReasoningFinal}.
     *
     * <p>The operator is reusable: each subscription gets its own decoder state. <b>Backpressure:</b>
     * honoured. <b>Cancellation:</b> propagates upstream (which closes the HTTP exchange).
     * <b>Errors:</b> {@code ProtocolException} for malformed JSON (with the event's line and byte
     * offset) or a wrong shape, {@code ProviderStreamException} for an {@code error} event or
     * {@code response.failed}, {@code IncompleteStreamException} when the body ends before
     * {@code response.completed} or {@code response.incomplete}; upstream errors pass through unchanged.
     *
     * @param profile the server's profile
     * @return the operator, for {@code Flux.transform}
     */
    public static Function<Flux<SseEvent>, Flux<ChatEvent>> streamDecoder(ResponsesProfile profile) {
        Objects.requireNonNull(profile, "profile");
        return events -> Flux.defer(() -> {
            ResponsesStreamDecoder decoder = new ResponsesStreamDecoder(profile);
            return events.concatMapIterable(decoder::onEvent)
                    .concatWith(Flux.defer(() -> Flux.fromIterable(decoder.onComplete())));
        });
    }

    /**
     * Decodes a whole (non-streaming) {@code response} body into the events a stream would give,
     * with a {@code ReasoningFinal} per reasoning part. The deltas are taken from the same body, so
     * the reasoning check of a non-streaming call is {@code MATCHED} by construction.
     *
     * @param profile the server's profile
     * @param body the response body; not modified
     * @return a cold flux of the events, or of a {@code ProtocolException} or
     *     {@code ProviderStreamException} (a failed response)
     */
    public static Flux<ChatEvent> decodeResponse(ResponsesProfile profile, byte[] body) {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(body, "body");
        return Flux.defer(() -> Flux.fromIterable(ResponsesResponseDecoder.decode(profile, body)));
    }

    /**
     * Encodes a request body: model, instructions (the leading system messages), input items
     * (earlier reasoning items sent back with their id and encrypted content when they are this
     * server's own), tools, reasoning, {@code include}/{@code store} per profile, streaming flag,
     * sampling, then the request's extras, which replace any field of the same name.
     *
     * @param profile the server's profile
     * @param request the request
     * @param stream true for a streaming call
     * @return the UTF-8 JSON body
     * @throws IllegalArgumentException if a tool's schema is not valid JSON, a tool call has no id,
     *     or an extra's value is not a string, number, boolean, null, list or string-keyed map
     */
    public static byte[] encodeRequest(ResponsesProfile profile, ChatRequest request, boolean stream) {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(request, "request");
        return ResponsesRequestEncoder.encode(profile, request, stream);
    }
}
