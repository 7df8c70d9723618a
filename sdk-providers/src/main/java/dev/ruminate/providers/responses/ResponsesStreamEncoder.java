package dev.ruminate.providers.responses;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.json.SseFrame;
import java.util.Objects;
import reactor.core.publisher.Flux;

/**
 * Encodes Ruminate events, from any provider, as an OpenAI Responses-style stream of Server-Sent
 * Events, so that a service can expose a Responses-shaped endpoint backed by any model.
 *
 * <p>The stream opens with {@code response.created} and {@code response.in_progress}. Each part
 * becomes one output item, announced by {@code response.output_item.added} at its first event
 * (for reasoning and text, at its first non-empty fragment: a part with no text makes no item) and
 * closed by {@code response.output_item.done} at its {@code PartEnded} (or at the end of the
 * response): reasoning as a {@code reasoning} item streamed with {@code response.reasoning_text.*}
 * events ({@code response.reasoning_summary_*} for a summary), answer text as a {@code message}
 * item with {@code response.content_part.*} and {@code response.output_text.*}, a tool call as a
 * {@code function_call} item with {@code response.function_call_arguments.*}. Every {@code .done}
 * event carries the full text; for reasoning it is the provider's own final text
 * ({@code ReasoningFinal}) when one came, else the streamed text. The stream ends with
 * {@code response.completed} holding the whole response (output items and usage with
 * {@code output_tokens_details.reasoning_tokens}); with {@code response.incomplete} when the output
 * was cut (finish reason {@code length} or {@code content_filter}); or with {@code response.failed}
 * when the upstream flux fails, ends without {@code ResponseCompleted}, or reports an error. An
 * upstream error therefore never breaks the stream: it becomes its last event. Every event carries
 * a {@code sequence_number} from 0.
 *
 * <p>Left out on purpose: opaque provider state ({@code Seal}s: signatures, another server's
 * encrypted reasoning and item ids mean nothing to this endpoint's clients, and browsers must not
 * receive them), so no {@code encrypted_content} is written; and server tool blocks, which name the
 * upstream provider's own tools. Usage counts the upstream did not report are left out, not
 * written as 0.
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
     * Encodes events.
     *
     * @param events the events of one response
     * @param options the response id, creation time and model to report
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
}
