package dev.ruminate.spring;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.json.EventJson;
import dev.ruminate.core.json.LoopEventJson;
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.loop.LoopEvent;
import dev.ruminate.providers.responses.ResponsesStreamEncoder;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;

/**
 * Turns provider events into Spring WebFlux {@link ServerSentEvent}s for a controller to return:
 * in Ruminate's JSON wire format ({@link #json(Flux)}) or in the OpenAI Responses stream shape
 * ({@link #responses(Flux)}), and the events of a tool loop in the wire format ({@link #loop(Flux)}). Both are thin mappings of the encoders of {@code sdk-core} and
 * {@code sdk-providers}: each {@link SseFrame} becomes one event with the same name and data.
 *
 * <pre>{@code
 * @GetMapping(path = "/chat", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
 * Flux<ServerSentEvent<String>> chat(@RequestParam String q) {
 *     return ChatServerSentEvents.json(providers.get("deepseek").stream(providers.request("deepseek").user(q).build()));
 * }
 * }</pre>
 *
 * <p>Needs {@code spring-web} on the class path (any WebFlux application has it; it is optional for
 * this module). Stateless and thread-safe; the returned fluxes are cold, honour backpressure, and
 * pass cancellation (the browser going away) upstream, which closes the provider's HTTP exchange.
 * Opaque provider state (signatures, encrypted reasoning) is never sent.
 *
 * @since 0.1
 */
public final class ChatServerSentEvents {

    private ChatServerSentEvents() {
    }

    /**
     * Encodes events in Ruminate's JSON wire format, one SSE event per chat event, named by its type
     * ({@code reasoning.delta}, {@code content.delta}, …), opaque state left out; an upstream error
     * becomes one final {@code response.failed} event ({@link EventJson#errorFrame}) and the stream completes,
     * so that a browser's {@code EventSource} reports it instead of reconnecting.
     *
     * @param events the provider's events
     * @return the server-sent events
     */
    public static Flux<ServerSentEvent<String>> json(Flux<ChatEvent> events) {
        return EventJson.toSseForClient(events).map(ChatServerSentEvents::toServerSentEvent);
    }

    /**
     * Encodes a tool loop's events in Ruminate's JSON wire format ({@link LoopEventJson}), one SSE
     * event per loop event: each step's chat events under their own type with a {@code step} field,
     * then {@code tool.started}, {@code tool.finished}, {@code step.completed} and finally
     * {@code loop.completed}. Opaque state is left out (no {@code seal} events, messages in the client
     * form, no conversation in {@code loop.completed}). A failure of the loop (a provider error, a
     * tool failing it under {@code ToolErrorPolicy.FAIL_LOOP}, the loop timeout) becomes one final
     * {@code loop.failed} event and the stream completes.
     *
     * <pre>{@code
     * @GetMapping(path = "/agent", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
     * Flux<ServerSentEvent<String>> agent(@RequestParam String q) {
     *     return ChatServerSentEvents.loop(toolLoop.run(providers.request("deepseek").user(q).build()));
     * }
     * }</pre>
     *
     * <p>Cancelling (the browser going away) cancels the loop: its provider call in flight and its
     * running tools.
     *
     * @param events the loop's events, from {@code ToolLoop.run}
     * @return the server-sent events
     */
    public static Flux<ServerSentEvent<String>> loop(Flux<LoopEvent> events) {
        return LoopEventJson.toSseForClient(events).map(ChatServerSentEvents::toServerSentEvent);
    }

    /**
     * Encodes events as an OpenAI Responses-style stream ({@code response.created}, reasoning as
     * {@code response.reasoning_summary_text.delta}, {@code response.output_text.delta}, {@code .done}
     * events with the full text, {@code response.completed}), with
     * {@code ResponsesStreamOptions.defaults()}; an upstream error closes the open items and becomes a
     * final {@code response.failed} event.
     *
     * @param events the provider's events
     * @return the server-sent events
     */
    public static Flux<ServerSentEvent<String>> responses(Flux<ChatEvent> events) {
        return ResponsesStreamEncoder.encode(events).map(ChatServerSentEvents::toServerSentEvent);
    }

    /**
     * Maps one frame.
     *
     * @param frame the frame
     * @return the event with the frame's name and data
     */
    public static ServerSentEvent<String> toServerSentEvent(SseFrame frame) {
        return ServerSentEvent.builder(frame.data()).event(frame.event()).build();
    }
}
