package dev.ruminate.gateway.http;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.ui.ServerTurns;
import dev.ruminate.core.ui.UiChat;
import dev.ruminate.core.ui.UiChatRequest;
import dev.ruminate.core.ui.UiMessageStream;
import dev.ruminate.gateway.chatcompletions.ChatCompletionsService;
import dev.ruminate.gateway.responses.Answer;
import dev.ruminate.gateway.responses.ResponsesService;
import dev.ruminate.gateway.route.Route;
import dev.ruminate.gateway.route.Routes;
import dev.ruminate.providers.serving.OpenAiError;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Function;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The gateway's HTTP endpoints, as WebFlux functional routes: {@code POST /v1/responses},
 * {@code POST /v1/chat/completions}, {@code GET /v1/models}, an OpenAI-shaped 404 for any other
 * {@code /v1/} path, and {@code POST /api/chat}: the Vercel AI SDK's UI message stream, for a page built with
 * {@code useChat}, answered by the route the body's optional {@code model} names (the first route when it names
 * none), each complete turn kept in a {@link ServerTurns} so that its opaque state never reaches the page.
 *
 * <p>A request body larger than the configured bound is refused with 413 before it is read
 * further. A streamed answer is written frame by frame as the upstream produces it; when the
 * client goes away, the subscription, and with it the upstream exchange, is cancelled.
 *
 * <p>Thread-safe.
 *
 * @since 0.2
 */
public final class GatewayEndpoints {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ResponsesService responses;
    private final ChatCompletionsService chatCompletions;
    private final Routes routes;
    private final int maxRequestBytes;
    private final long createdAt;
    private final ServerTurns turns;

    /**
     * Creates the endpoints.
     *
     * @param responses answers {@code /v1/responses}
     * @param chatCompletions answers {@code /v1/chat/completions}
     * @param routes the routes, listed by {@code /v1/models}
     * @param maxRequestBytes the largest request body accepted
     * @param startedAt when the gateway started, reported as each model's {@code created}
     */
    public GatewayEndpoints(ResponsesService responses, ChatCompletionsService chatCompletions, Routes routes,
                            int maxRequestBytes, Instant startedAt) {
        this(responses, chatCompletions, routes, maxRequestBytes, startedAt, ServerTurns.inMemory(10_000));
    }

    /**
     * Creates the endpoints with a store for the turns served on {@code /api/chat}.
     *
     * @param responses answers {@code /v1/responses}
     * @param chatCompletions answers {@code /v1/chat/completions}
     * @param routes the routes, listed by {@code /v1/models}
     * @param maxRequestBytes the largest request body accepted
     * @param startedAt when the gateway started, reported as each model's {@code created}
     * @param turns the turns served on {@code /api/chat}, with their opaque state
     * @since 0.4
     */
    public GatewayEndpoints(ResponsesService responses, ChatCompletionsService chatCompletions, Routes routes,
                            int maxRequestBytes, Instant startedAt, ServerTurns turns) {
        this.turns = Objects.requireNonNull(turns, "turns");
        this.responses = Objects.requireNonNull(responses, "responses");
        this.chatCompletions = Objects.requireNonNull(chatCompletions, "chatCompletions");
        this.routes = Objects.requireNonNull(routes, "routes");
        if (maxRequestBytes < 1) {
            throw new IllegalArgumentException("maxRequestBytes must be positive");
        }
        this.maxRequestBytes = maxRequestBytes;
        this.createdAt = startedAt.getEpochSecond();
    }

    /**
     * Returns the routes.
     *
     * @return the router function
     */
    public RouterFunction<ServerResponse> router() {
        return RouterFunctions.route()
                .POST("/v1/responses", request -> answer(request, responses::answer))
                .POST("/v1/chat/completions", request -> answer(request, chatCompletions::answer))
                .GET("/v1/models", this::models)
                .POST("/api/chat", this::uiChat)
                .route(RequestPredicates.path("/v1/**"), request -> ErrorResponses.of(new OpenAiError(404,
                        "invalid_request_error", "unknown_url", "Unknown request URL: " + request.method().name() + " "
                        + request.path() + ".", null)))
                .build();
    }

    private Mono<ServerResponse> answer(ServerRequest request, Function<String, Mono<Answer>> service) {
        return body(request)
                .flatMap(service)
                .flatMap(GatewayEndpoints::write)
                .onErrorResume(ErrorResponses::of);
    }

    private static Mono<ServerResponse> write(Answer answer) {
        if (answer instanceof Answer.Json json) {
            return ServerResponse.status(json.status()).contentType(MediaType.APPLICATION_JSON).bodyValue(json.json());
        }
        Flux<DataBuffer> frames = ((Answer.Streamed) answer).frames()
                .map(f -> DefaultDataBufferFactory.sharedInstance.wrap(f.getBytes(StandardCharsets.UTF_8)));
        return ServerResponse.ok()
                .contentType(MediaType.TEXT_EVENT_STREAM)
                .header("Cache-Control", "no-cache")
                // a reverse proxy (nginx) must pass each event on at once, not buffer the stream
                .header("X-Accel-Buffering", "no")
                .body(BodyInserters.fromDataBuffers(frames));
    }

    private Mono<String> body(ServerRequest request) {
        return RequestBodies.text(request, maxRequestBytes);
    }

    /** {@code POST /api/chat}: one useChat turn, as a UI message stream; a bad body is a 400 naming the place. */
    private Mono<ServerResponse> uiChat(ServerRequest request) {
        return body(request).flatMap(text -> {
            UiChatRequest chat = UiChatRequest.read(text, turns);
            Route route = uiRoute(text);
            Flux<DataBuffer> frames = UiChat.answer(chat, route.provider(),
                            messages -> ChatRequest.builder(route.upstreamModel()).messages(messages).build(), turns)
                    .map(d -> DefaultDataBufferFactory.sharedInstance.wrap(
                            UiMessageStream.sse(d).getBytes(StandardCharsets.UTF_8)));
            return ServerResponse.ok()
                    .contentType(MediaType.TEXT_EVENT_STREAM)
                    .header(UiMessageStream.HEADER, UiMessageStream.VERSION)
                    .header("Cache-Control", "no-cache")
                    .header("X-Accel-Buffering", "no")
                    .body(BodyInserters.fromDataBuffers(frames));
        }).onErrorResume(ProtocolException.class, e -> ErrorResponses.of(new OpenAiError(400,
                "invalid_request_error", "invalid_request", String.valueOf(e.getMessage()), null)))
                .onErrorResume(ErrorResponses::of);
    }

    /** The route a useChat body names in its optional {@code model} (extra body of the transport), else the first. */
    private Route uiRoute(String body) {
        JsonNode model = JSON.readTree(body).get("model");
        if (model != null && model.isString()) {
            return routes.require(model.asString());
        }
        return routes.all().iterator().next();
    }

    private Mono<ServerResponse> models(ServerRequest request) {
        ObjectNode list = JSON.createObjectNode();
        list.put("object", "list");
        ArrayNode data = list.putArray("data");
        for (Route r : routes.all()) {
            ObjectNode m = data.addObject();
            m.put("id", r.name());
            m.put("object", "model");
            m.put("created", createdAt);
            m.put("owned_by", r.providerName());
        }
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(list.toString());
    }
}
