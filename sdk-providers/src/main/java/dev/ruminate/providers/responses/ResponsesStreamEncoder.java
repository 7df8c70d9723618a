package dev.ruminate.providers.responses;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.json.SseFrame;
import java.util.Objects;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Encodes Ruminate events, from any provider, as an OpenAI Responses-style stream of Server-Sent
 * Events or as a whole response body, so that a service can expose a Responses-shaped endpoint
 * backed by any model.
 *
 * <p><b>Events.</b> The stream opens with {@code response.created} and {@code response.in_progress}.
 * Each part becomes one output item, announced by {@code response.output_item.added} at its first
 * event (for reasoning and text, at its first non-empty fragment: a part with no text makes no
 * item): reasoning as a {@code reasoning} item, answer text as a {@code message} item with
 * {@code response.content_part.*} and {@code response.output_text.*}, a tool call as a
 * {@code function_call} item with {@code response.function_call_arguments.*} (the {@code .done}
 * event carries {@code name}, {@code item_id}, {@code output_index} and {@code arguments}). A part's
 * {@code PartEnded} writes its part-level {@code .done} events; its item's
 * {@code response.output_item.done} follows when the next item opens or the response ends, so that
 * the upstream's seals for the part, which come after its end, are known when it closes. Every
 * {@code .done} event carries the full text; for reasoning it is the provider's own final text
 * ({@code ReasoningFinal}) when one came, else the streamed text. Every event carries a
 * {@code sequence_number}, contiguous from 0.
 *
 * <p><b>Reasoning.</b> Upstream summary parts stream as {@code response.reasoning_summary_*}
 * events; consecutive summary parts of one upstream reasoning item stay one item, with
 * {@code summary_index} 0, 1, …. Raw reasoning streams as summary too with
 * {@link ReasoningSummaries#MIRROR} (the default), so that clients that read only summaries see it,
 * or as {@code response.reasoning_text.*} events and {@code content[]} with
 * {@link ReasoningSummaries#OFF}; see {@link ReasoningSummaries} for why.
 *
 * <p><b>End.</b> The stream ends with {@code response.completed} holding the whole response; with
 * {@code response.incomplete} when the output was cut (finish reason {@code length} or
 * {@code content_filter}); or with {@code response.failed} when the upstream flux fails, ends
 * without {@code ResponseCompleted}, or reports an error. Before {@code response.failed} every open
 * item is closed (its part-level {@code .done} events, then {@code response.output_item.done} with
 * status {@code incomplete}); the response's {@code error} is
 * {@link dev.ruminate.providers.serving.OpenAiError#ofUpstreamFailure}: a code from OpenAI's set
 * ({@code server_error}, {@code rate_limit_exceeded}) and a message of this service's own words,
 * never an excerpt of the upstream's payload. An upstream error therefore never breaks the stream:
 * it becomes its last event.
 *
 * <p><b>The response object</b> (in {@code created}, {@code in_progress} and the terminal event, and
 * the non-streaming body of {@link #encodeBody}) carries every field the official SDKs' types
 * declare: {@code id}, {@code object}, {@code created_at}, {@code status}, {@code error},
 * {@code incomplete_details}, {@code instructions}, {@code max_output_tokens}, {@code metadata},
 * {@code model}, {@code output}, {@code parallel_tool_calls}, {@code previous_response_id},
 * {@code reasoning}, {@code store}, {@code temperature}, {@code text}, {@code tool_choice},
 * {@code tools}, {@code top_p}, {@code truncation}, {@code usage}; the request's values come from
 * {@link ResponsesStreamOptions#echo()}. {@code usage} is null until the end, and null when the
 * upstream reported none; otherwise every count is written, 0 where the upstream gave none.
 *
 * <p><b>Opaque state.</b> Seals (signatures, another server's encrypted reasoning, item ids) are
 * never written as they are: they mean nothing to this endpoint's clients, and browsers must not
 * receive them. With an {@link EncryptedContentWriter} in the options, the service seals them into
 * {@code encrypted_content} of its own (see there, including the extra reasoning item after a
 * message or call whose parts carry seals, and reasoning that has state but no text); without one
 * no {@code encrypted_content} is written. Server tool blocks, which name the upstream provider's
 * own tools, are left out.
 *
 * <p>Stateless and thread-safe; each subscription encodes independently. <b>Backpressure</b> is
 * honoured and <b>cancellation</b> propagates upstream.
 *
 * @since 0.1
 */
public final class ResponsesStreamEncoder {

    private ResponsesStreamEncoder() {
    }

    /**
     * Encodes events with {@link ResponsesStreamOptions#defaults()}.
     *
     * @param events the events of one response
     * @return the SSE frames; the event name is the Responses event type
     */
    public static Flux<SseFrame> encode(Flux<ChatEvent> events) {
        return encode(events, ResponsesStreamOptions.defaults());
    }

    /**
     * Encodes events as a stream.
     *
     * @param events the events of one response
     * @param options the response id, creation time, model, echoed request fields and hooks
     * @return the SSE frames; the event name is the Responses event type. The flux completes after
     *     {@code response.completed}, {@code response.incomplete} or {@code response.failed} and
     *     never signals an error for an upstream failure
     */
    public static Flux<SseFrame> encode(Flux<ChatEvent> events, ResponsesStreamOptions options) {
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(options, "options");
        return Flux.defer(() -> {
            ResponsesEventWriter writer = new ResponsesEventWriter(options);
            return events.concatMapIterable(writer::onEvent)
                    .concatWith(Flux.defer(() -> Flux.fromIterable(writer.onComplete())))
                    .onErrorResume(e -> Flux.fromIterable(writer.onError(e)));
        });
    }

    /**
     * Encodes events as a whole, non-streaming response body: the response object that
     * {@code response.completed}, {@code response.incomplete} or {@code response.failed} would carry.
     * On an upstream failure the body has {@code status} {@code failed} and its {@code error}; the
     * caller chooses the HTTP status (for example
     * {@link dev.ruminate.providers.serving.OpenAiError#ofUpstreamFailure}'s).
     *
     * @param events the events of one response
     * @param options as for {@link #encode(Flux, ResponsesStreamOptions)}
     * @return the JSON body; the mono never signals an error for an upstream failure
     */
    public static Mono<String> encodeBody(Flux<ChatEvent> events, ResponsesStreamOptions options) {
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(options, "options");
        return Mono.defer(() -> {
            ResponsesEventWriter writer = new ResponsesEventWriter(options);
            return events.concatMapIterable(writer::onEvent)
                    .concatWith(Flux.defer(() -> Flux.fromIterable(writer.onComplete())))
                    .onErrorResume(e -> Flux.fromIterable(writer.onError(e)))
                    .then(Mono.fromCallable(writer::responseBody));
        });
    }
}
