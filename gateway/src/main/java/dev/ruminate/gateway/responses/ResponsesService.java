package dev.ruminate.gateway.responses;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.Reduction;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.gateway.provenance.Provenance;
import dev.ruminate.gateway.route.Route;
import dev.ruminate.gateway.route.Routes;
import dev.ruminate.gateway.state.SealedState;
import dev.ruminate.gateway.state.StateSealer;
import dev.ruminate.gateway.store.ItemStore;
import dev.ruminate.gateway.store.StoredResponse;
import dev.ruminate.providers.responses.ResponsesInput;
import dev.ruminate.providers.responses.ResponsesStreamEncoder;
import dev.ruminate.providers.responses.ResponsesStreamOptions;
import dev.ruminate.providers.serving.ClientRequestException;
import dev.ruminate.providers.serving.OpenAiError;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Answers {@code POST /v1/responses}: reads the request, resolves what it names in the store,
 * relabels the turns by provenance, calls the route's provider and encodes its events as a
 * Responses stream or body, storing the response when asked to.
 *
 * <p>Every failure in what the client sent (malformed JSON, unknown item types, unknown ids,
 * tampered sealed state, unknown model) fails the returned {@code Mono} with a
 * {@link ClientRequestException} before anything is sent upstream. Upstream failures are part of
 * the answer: a {@code response.failed} event when streaming; when not, the upstream failure's
 * status and OpenAI-shaped body if it failed before its first event, else a response whose status
 * is {@code failed}.
 *
 * <p>Thread-safe; each call is independent.
 *
 * @since 0.2
 */
public final class ResponsesService {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Routes routes;
    private final ItemStore store;
    private final StateSealer sealer;
    private final ContextResolver resolver;
    private final SealedInput sealedInput;
    private final Clock clock;

    /**
     * Creates the service.
     *
     * @param routes the routes by model name
     * @param store where responses are stored and looked up
     * @param sealer seals and opens the state handed to clients
     * @param clock the clock for creation times and seals
     */
    public ResponsesService(Routes routes, ItemStore store, StateSealer sealer, Clock clock) {
        this.routes = Objects.requireNonNull(routes, "routes");
        this.store = Objects.requireNonNull(store, "store");
        this.sealer = Objects.requireNonNull(sealer, "sealer");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.resolver = new ContextResolver(store);
        this.sealedInput = new SealedInput(sealer);
    }

    /**
     * Answers a request.
     *
     * @param body the request body
     * @return the answer; fails with a {@link ClientRequestException} for a bad request
     */
    public Mono<Answer> answer(String body) {
        return Mono.fromCallable(() -> ClientCall.read(body)).flatMap(call -> {
            Route route = routes.find(call.model()).orElseThrow(() -> new ClientRequestException(new OpenAiError(404,
                    "invalid_request_error", "model_not_found", "The model '" + call.model() + "' does not exist.",
                    "model")));
            return resolver.resolve(call.previousResponseId(), call.inputItems(), call.referencedItemIds())
                    .flatMap(context -> run(call, route, context));
        });
    }

    /** Prepares the upstream request (failing on bad input before anything is sent) and runs it. */
    private Mono<Answer> run(ClientCall call, Route route, ResolvedContext context) {
        Map<String, SealedState> opened = sealedInput.open(context);
        List<Message> messages = Provenance.relabel(messages(context.all(), call.instructions()),
                new Provenance.Target(route.name(), route.backendName(), route.reasoningToBackend()), opened);
        ChatRequest request = call.toChatRequest(route.upstreamModel(), messages);
        if (call.stream()) {
            return Mono.just(new Answer.Streamed(Flux.defer(() -> new Exchange(call, route, context, request).frames())));
        }
        return Mono.defer(() -> new Exchange(call, route, context, request).body());
    }

    /** One upstream call and its encoding: the state of a single subscription. */
    private final class Exchange {
        private final ClientCall call;
        private final Route route;
        private final ResolvedContext context;
        private final ChatRequest request;
        private final Reduction reduction = ChatReducer.defaults().start();
        private final AtomicBoolean sawEvent = new AtomicBoolean();
        private final AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
        private final String responseId = newId("resp_");
        private final Instant createdAt = clock.instant();

        Exchange(ClientCall call, Route route, ResolvedContext context, ChatRequest request) {
            this.call = call;
            this.route = route;
            this.context = context;
            this.request = request;
        }

        Flux<SseFrame> frames() {
            Flux<ChatEvent> events = route.provider().stream(request)
                    .doOnNext(e -> {
                        sawEvent.set(true);
                        reduction.accept(e);
                    })
                    .doOnError(failure::set);
            return ResponsesStreamEncoder.encode(events, ResponsesStreamOptions.fixed(responseId,
                            createdAt.getEpochSecond(), route.name()))
                    .concatMap(f -> isLast(f) ? finish(f) : Mono.just(f));
        }

        Mono<Answer> body() {
            return frames().last().map(f -> {
                Throwable failed = failure.get();
                if (failed != null && !sawEvent.get()) {
                    OpenAiError error = OpenAiError.ofUpstreamFailure(failed);
                    return new Answer.Json(error.status(), error.toJson());
                }
                return new Answer.Json(200, JSON.readTree(f.data()).path("response").toString());
            });
        }

        private static boolean isLast(SseFrame f) {
            return switch (f.event()) {
                case "response.completed", "response.incomplete", "response.failed" -> true;
                default -> false;
            };
        }

        /** Seals the output's state, stores the response, and gives the client the output it may see. */
        private Mono<SseFrame> finish(SseFrame last) {
            ObjectNode root = (ObjectNode) JSON.readTree(last.data());
            ObjectNode response = (ObjectNode) root.path("response");
            if ("failed".equals(response.path("status").asString("")) || !response.path("output").isArray()) {
                Throwable failed = failure.get();
                if (failed != null) {
                    // the client learns the kind of failure in OpenAI's words, never the upstream's payload
                    response.set("error", JSON.readTree(OpenAiError.ofUpstreamFailure(failed).toResponsesErrorJson()));
                }
                return Mono.just(new SseFrame(last.event(), root.toString()));
            }
            String model = reduction.partial().model() != null ? reduction.partial().model() : route.upstreamModel();
            Instant now = clock.instant();
            List<ObjectNode> sealed = OutputSealing.seal((ArrayNode) response.path("output"), reduction.partial().parts(),
                    parts -> sealer.seal(new SealedState(route.name(), route.backendName(), model, now, parts)),
                    "rs_" + responseId.substring("resp_".length()) + "_state");
            if (!call.store() || call.includeEncryptedContent()) {
                ArrayNode output = response.putArray("output");
                sealed.forEach(output::add);
            }
            SseFrame out = new SseFrame(last.event(), root.toString());
            if (!call.store()) {
                return Mono.just(out);
            }
            List<String> items = sealed.stream().map(JsonNode::toString).toList();
            String instructions = call.instructions() != null ? call.instructions() : "";
            return store.put(new StoredResponse(responseId, route.name(), createdAt, instructions, context.all(), items))
                    .thenReturn(out);
        }
    }

    private static List<Message> messages(List<String> items, @Nullable String instructions) {
        List<Message> out = new ArrayList<>();
        if (instructions != null && !instructions.isEmpty()) {
            out.add(new SystemMessage(instructions));
        }
        try {
            out.addAll(ResponsesInput.read("[" + String.join(",", items) + "]"));
        } catch (ProtocolException e) {
            throw ClientRequestException.invalid("Invalid input: " + e.getMessage(), "input", "invalid_value");
        }
        return out;
    }

    private static String newId(String prefix) {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return prefix + HexFormat.of().formatHex(bytes);
    }
}
