package dev.ruminate.spring;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.loop.LoopEvent;
import dev.ruminate.core.ui.AgUiEncoder;
import dev.ruminate.core.ui.AgUiInput;
import dev.ruminate.core.ui.AgUiInputReader;
import dev.ruminate.core.ui.ServerTurns;
import java.util.Objects;
import java.util.function.Function;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;

/**
 * Serves AG-UI runs (the protocol of {@code @ag-ui/client}'s {@code HttpAgent}) from a Spring WebFlux controller: the
 * posted {@code RunAgentInput} is read with {@link AgUiInputReader} (earlier turns come back from {@link ServerTurns}
 * with their opaque state), the run's events are encoded with {@link AgUiEncoder}, and each AG-UI event becomes one
 * Server-Sent Event with only a {@code data} line, as AG-UI's HTTP transport reads it.
 *
 * <pre>{@code
 * private final ServerTurns turns = ServerTurns.inMemory(10_000);
 *
 * @PostMapping(path = "/ag-ui", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
 * ResponseEntity<Flux<ServerSentEvent<String>>> agUi(@RequestBody String body) {
 *     return AgUiRuns.serve(body, turns, input -> provider.stream(input.request("claude-sonnet-4-5").build()));
 * }
 * }</pre>
 *
 * <p>A body that is not a {@code RunAgentInput} is answered 400 with one {@code RUN_ERROR} event naming the place
 * (never a value) and the run function is not called. A failure of the run after it started becomes one final
 * {@code RUN_ERROR} event. The browser never receives signatures or encrypted reasoning: the encrypted values it holds
 * are handles to the turns kept in {@code turns}.
 *
 * <p>Needs {@code spring-web} on the class path. Stateless and thread-safe; the returned fluxes are cold, honour
 * backpressure and pass cancellation (the browser going away) upstream, closing the provider's HTTP exchange.
 *
 * @since 0.4
 */
public final class AgUiRuns {

    private AgUiRuns() {
    }

    /**
     * Serves one run of a single model response.
     *
     * @param body the posted {@code RunAgentInput}
     * @param turns the turns shown to front ends, shared by every run of the application
     * @param run the provider's events for the input, usually {@code provider.stream(input.request(model).build())};
     *     the front end's tools are in the request, and a call of one ends the run for the front end to answer
     * @return 200 with the run's events, or 400 with one {@code RUN_ERROR} for a body that is not a
     *     {@code RunAgentInput}
     */
    public static ResponseEntity<Flux<ServerSentEvent<String>>> serve(String body, ServerTurns turns,
                                                                      Function<AgUiInput, Flux<ChatEvent>> run) {
        Objects.requireNonNull(run, "run");
        return respond(body, turns, input -> AgUiEncoder.chat(input, Flux.defer(() -> run.apply(input)), turns));
    }

    /**
     * Serves one run of a tool loop: each step an AG-UI step, the server's tool results as tool messages.
     *
     * @param body the posted {@code RunAgentInput}
     * @param turns the turns shown to front ends
     * @param run the loop's events for the input, usually {@code loop.run(input.request(model).build())}
     * @return 200 with the run's events, or 400 with one {@code RUN_ERROR} for a body that is not a
     *     {@code RunAgentInput}
     */
    public static ResponseEntity<Flux<ServerSentEvent<String>>> serveLoop(String body, ServerTurns turns,
                                                                          Function<AgUiInput, Flux<LoopEvent>> run) {
        Objects.requireNonNull(run, "run");
        return respond(body, turns, input -> AgUiEncoder.loop(input, Flux.defer(() -> run.apply(input)), turns));
    }

    private static ResponseEntity<Flux<ServerSentEvent<String>>> respond(String body, ServerTurns turns,
                                                                         Function<AgUiInput, Flux<String>> encode) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(turns, "turns");
        AgUiInput input;
        try {
            input = AgUiInputReader.read(body, turns);
        } catch (ProtocolException e) {
            String refusal = "{\"type\":\"RUN_ERROR\",\"message\":" + quoted("not an AG-UI RunAgentInput: " + e.detail())
                    + ",\"code\":\"invalid_request\"}";
            return ResponseEntity.status(HttpStatus.BAD_REQUEST).contentType(MediaType.TEXT_EVENT_STREAM)
                    .body(Flux.just(ServerSentEvent.builder(refusal).build()));
        }
        return ResponseEntity.ok().contentType(MediaType.TEXT_EVENT_STREAM)
                .body(encode.apply(input).map(json -> ServerSentEvent.builder(json).build()));
    }

    /** A JSON string literal: the detail names places (paths, kinds), so only quotes and backslashes need escaping. */
    private static String quoted(String text) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(' ');
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
