package dev.ruminate.gateway.http;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.ui.AgUiEncoder;
import dev.ruminate.core.ui.AgUiInput;
import dev.ruminate.core.ui.AgUiInputReader;
import dev.ruminate.core.ui.ServerTurns;
import dev.ruminate.gateway.provenance.Provenance;
import dev.ruminate.gateway.route.Route;
import dev.ruminate.gateway.route.Routes;
import dev.ruminate.providers.serving.ClientRequestException;
import dev.ruminate.providers.serving.OpenAiError;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code POST /ag-ui}: an AG-UI agent endpoint (the HTTP transport of {@code @ag-ui/client}'s {@code HttpAgent})
 * in front of the gateway's routes. The body is a {@code RunAgentInput}; the answer is the run as Server-Sent
 * Events ({@code data: <event JSON>}), encoded by {@link AgUiEncoder}: reasoning, text and tool calls stream to the
 * browser while each turn's opaque state stays in the gateway's {@link ServerTurns}, and comes back into the
 * conversation when the front end sends the turn's id (or a handle) on a later run.
 *
 * <p>The route is {@code forwardedProps.model} when the front end gives it, else the first configured route. The
 * front end's {@code tools} are offered to the model; a call of one ends the run with the call, for the front end
 * to run and answer on the next run. A body that is not a {@code RunAgentInput} is answered 400 with an
 * OpenAI-shaped error naming the place; the endpoint is guarded by the gateway's keys and rate limits like
 * {@code /v1/}.
 *
 * <p>Thread-safe.
 *
 * @since 0.4
 */
public final class AgUiEndpoint {

    private final Routes routes;
    private final ServerTurns turns;
    private final int maxRequestBytes;

    /**
     * Creates the endpoint.
     *
     * @param routes the routes a run may use
     * @param turns the turns shown to front ends
     * @param maxRequestBytes the largest request body accepted
     */
    public AgUiEndpoint(Routes routes, ServerTurns turns, int maxRequestBytes) {
        this.routes = Objects.requireNonNull(routes, "routes");
        this.turns = Objects.requireNonNull(turns, "turns");
        if (maxRequestBytes < 1) {
            throw new IllegalArgumentException("maxRequestBytes must be positive");
        }
        this.maxRequestBytes = maxRequestBytes;
    }

    /**
     * Returns the route.
     *
     * @return the router function for {@code POST /ag-ui}
     */
    public RouterFunction<ServerResponse> router() {
        return RouterFunctions.route().POST("/ag-ui", this::run).build();
    }

    private Mono<ServerResponse> run(ServerRequest request) {
        return body(request)
                .map(this::start)
                .flatMap(events -> ServerResponse.ok()
                        .contentType(MediaType.TEXT_EVENT_STREAM)
                        .header("Cache-Control", "no-cache")
                        .header("X-Accel-Buffering", "no")
                        .body(BodyInserters.fromDataBuffers(events.map(e -> (DataBuffer) DefaultDataBufferFactory
                                .sharedInstance.wrap(AgUiEncoder.sse(e).getBytes(StandardCharsets.UTF_8))))))
                .onErrorResume(ErrorResponses::of);
    }

    private Flux<String> start(String body) {
        AgUiInput input;
        try {
            input = AgUiInputReader.read(body, turns);
        } catch (ProtocolException e) {
            throw new ClientRequestException(OpenAiError.invalidRequest("The body is not an AG-UI RunAgentInput: "
                    + e.detail(), null, null));
        }
        Route route = route(input);
        ChatRequest.Builder b = input.request(route.upstreamModel());
        ChatRequest asked = b.build();
        ChatRequest relabelled = asked.withMessages(Provenance.relabel(asked.messages(),
                new Provenance.Target(route.name(), route.backendName(), route.reasoningToBackend()), Map.of()));
        Flux<ChatEvent> events = Flux.defer(() -> route.provider().stream(relabelled));
        return AgUiEncoder.chat(input, events, turns);
    }

    private Route route(AgUiInput input) {
        String model = input.forwardedString("model");
        if (model != null) {
            return routes.require(model);
        }
        return routes.all().iterator().next();
    }

    private Mono<String> body(ServerRequest request) {
        return RequestBodies.text(request, maxRequestBytes);
    }
}
