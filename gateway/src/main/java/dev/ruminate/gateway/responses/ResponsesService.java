package dev.ruminate.gateway.responses;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.gateway.provenance.Provenance;
import dev.ruminate.gateway.route.Route;
import dev.ruminate.gateway.route.Routes;
import dev.ruminate.gateway.state.SealedState;
import dev.ruminate.gateway.state.StateSealer;
import dev.ruminate.gateway.store.ItemStore;
import dev.ruminate.gateway.store.StoredResponse;
import dev.ruminate.providers.responses.EncryptedContentWriter;
import dev.ruminate.providers.responses.ResponsesCall;
import dev.ruminate.providers.responses.ResponsesInput;
import dev.ruminate.providers.responses.ResponsesRequestReader;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;
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
 * <p>Opaque state: every reasoning item, and every message or call whose parts carry signatures or
 * encrypted state, gets an {@code encrypted_content} sealing
 * {@code SealedState(route, provider, model, now, parts)}. The stored output keeps it; the client
 * sees it with {@code store: false}, or when it asked with
 * {@code include: ["reasoning.encrypted_content"]}.
 *
 * <p>Thread-safe; each call is independent.
 *
 * @since 0.2
 */
public final class ResponsesService {

    private static final Logger LOG = LoggerFactory.getLogger(ResponsesService.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String INCLUDE_ENCRYPTED = "reasoning.encrypted_content";
    private static final Pattern INPUT_PARAM = Pattern.compile("^input\\[(\\d+)](.*)$");

    private final Routes routes;
    private final ItemStore store;
    private final StateSealer sealer;
    private final ResponsesRequestReader reader;
    private final ContextResolver resolver;
    private final SealedInput sealedInput;
    private final Clock clock;

    /**
     * Creates the service.
     *
     * @param routes the routes by model name
     * @param store where responses are stored and looked up
     * @param sealer seals and opens the state handed to clients
     * @param reader reads request bodies, with the gateway's limits
     * @param clock the clock for creation times and seals
     */
    public ResponsesService(Routes routes, ItemStore store, StateSealer sealer, ResponsesRequestReader reader, Clock clock) {
        this.routes = Objects.requireNonNull(routes, "routes");
        this.store = Objects.requireNonNull(store, "store");
        this.sealer = Objects.requireNonNull(sealer, "sealer");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.resolver = new ContextResolver(store, sealer);
        this.sealedInput = new SealedInput(sealer);
    }

    /**
     * Answers a request.
     *
     * @param body the request body
     * @return the answer; fails with a {@link ClientRequestException} for a bad request
     */
    public Mono<Answer> answer(String body) {
        return Mono.fromCallable(() -> reader.readBody(body)).flatMap(call -> {
            Route route = routes.require(call.model());
            return resolver.resolve(call.previousResponseId(), call.inputItems())
                    .flatMap(context -> run(call, route, context));
        });
    }

    /** Prepares the upstream request (failing on bad input before anything is sent) and runs it. */
    private Mono<Answer> run(ResponsesCall call, Route route, ResolvedContext context) {
        if (context.all().isEmpty()) {
            throw ClientRequestException.invalid("Missing required parameter: 'input'.", "input",
                    "missing_required_parameter");
        }
        Map<String, SealedState> opened = sealedInput.open(context);
        List<Message> messages = Provenance.relabel(messages(context, call.instructions()),
                new Provenance.Target(route.name(), route.backendName(), route.reasoningToBackend()), opened);
        ChatRequest request = call.toChatRequest(route.upstreamModel(), messages);
        if (call.stream()) {
            return Mono.just(new Answer.Streamed(Flux.defer(() -> new Exchange(call, route, context, request).frames())
                    .map(SseFrame::text)));
        }
        return Mono.defer(() -> new Exchange(call, route, context, request).body());
    }

    /**
     * Reads the resolved items; an error in the request's own items names its place in the
     * request's input, one in stored items names {@code previous_response_id}.
     */
    private static List<Message> messages(ResolvedContext context, @Nullable String instructions) {
        try {
            return ResponsesInput.readItems(context.all(), instructions);
        } catch (ClientRequestException e) {
            OpenAiError error = e.error();
            String param = error.param();
            Matcher m = param == null ? null : INPUT_PARAM.matcher(param);
            if (m == null || !m.matches()) {
                throw e;
            }
            int index = Integer.parseInt(m.group(1)) - context.previous().size();
            String where = index < 0 ? "previous_response_id" : "input[" + context.inputIndex().get(index) + "]" + m.group(2);
            String message = index < 0 ? "A stored item could not be read." : error.message().replace(param, where);
            throw new ClientRequestException(new OpenAiError(error.status(), error.type(), error.code(), message, where));
        }
    }

    private static String newId(String prefix) {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return prefix + HexFormat.of().formatHex(bytes);
    }

    /** One upstream call and its encoding: the state of a single subscription. */
    private final class Exchange {
        private final ResponsesCall call;
        private final Route route;
        private final ResolvedContext context;
        private final ChatRequest request;
        private final AtomicBoolean sawEvent = new AtomicBoolean();
        private final AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
        private final AtomicReference<@Nullable String> upstreamModel = new AtomicReference<>();
        private final String responseId = newId("resp_");
        private final Instant createdAt = clock.instant();
        private final boolean showState;

        Exchange(ResponsesCall call, Route route, ResolvedContext context, ChatRequest request) {
            this.call = call;
            this.route = route;
            this.context = context;
            this.request = request;
            this.showState = !call.store() || call.include().contains(INCLUDE_ENCRYPTED);
        }

        Flux<SseFrame> frames() {
            Flux<ChatEvent> events = route.provider().stream(request)
                    .doOnNext(e -> {
                        sawEvent.set(true);
                        if (e instanceof ResponseStarted s && s.model() != null) {
                            upstreamModel.set(s.model());
                        }
                    })
                    .doOnError(failure::set);
            ResponsesStreamOptions options = ResponsesStreamOptions.fixed(responseId, createdAt.getEpochSecond(), route.name())
                    .withEcho(call.echo())
                    .withReasoningSummaries(route.reasoningSummaries())
                    .withEncryptedContent(sealing());
            return ResponsesStreamEncoder.encode(events, options).concatMap(this::toClient);
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

        /**
         * Seals each reasoning item's parts, and the parts of a message or call that carry reasoning
         * state (signatures, encrypted or redacted data; an item id alone is not worth a round trip).
         */
        private EncryptedContentWriter sealing() {
            return item -> {
                if (!"reasoning".equals(item.type()) && item.parts().stream().noneMatch(ResponsesService::carriesState)) {
                    return null;
                }
                String model = upstreamModel.get() != null ? upstreamModel.get() : route.upstreamModel();
                return sealer.seal(new SealedState(route.name(), route.backendName(), model, clock.instant(),
                        item.parts()));
            };
        }

        /** What the client may see of a frame; the last frame is stored first, when the response is to be kept. */
        private Mono<SseFrame> toClient(SseFrame frame) {
            boolean last = switch (frame.event()) {
                case "response.completed", "response.incomplete", "response.failed" -> true;
                default -> false;
            };
            if (!last && (showState || !frame.data().contains("\"encrypted_content\""))) {
                return Mono.just(frame);
            }
            ObjectNode root = (ObjectNode) JSON.readTree(frame.data());
            Mono<Void> stored = Mono.empty();
            if (last && call.store() && !"response.failed".equals(frame.event())) {
                List<String> output = new ArrayList<>();
                root.path("response").path("output").forEach(item -> output.add(item.toString()));
                String instructions = call.instructions() != null ? call.instructions() : "";
                stored = store.put(new StoredResponse(responseId, route.name(), createdAt, instructions, context.all(),
                        output));
            }
            if (!showState) {
                root.findParents("encrypted_content").forEach(p -> ((ObjectNode) p).remove("encrypted_content"));
            }
            SseFrame out = showState ? frame : new SseFrame(frame.event(), root.toString());
            return stored.thenReturn(out).onErrorResume(e -> Mono.just(storeFailed(root, e)));
        }

        /**
         * The last frame when the response could not be stored: a completed response that later
         * requests cannot name would fail them with an unknown id, so the client hears now, in the
         * stream's own terms, rather than from a dropped connection.
         */
        private SseFrame storeFailed(ObjectNode root, Throwable e) {
            LOG.warn("Response {} could not be stored ({}); answering response.failed", responseId, e.getClass().getName());
            root.put("type", "response.failed");
            ObjectNode response = (ObjectNode) root.path("response");
            response.put("status", "failed");
            ObjectNode error = response.putObject("error");
            error.put("code", "server_error");
            error.put("message", "The response could not be stored, so it could not be continued later; try again.");
            return new SseFrame("response.failed", root.toString());
        }
    }

    private static boolean carriesState(Part p) {
        Seals s = p.seals();
        return s.signature() != null || s.encrypted() != null || s.redacted() != null;
    }
}
