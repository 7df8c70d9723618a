package dev.ruminate.gateway.chatcompletions;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.gateway.provenance.Provenance;
import dev.ruminate.gateway.responses.Answer;
import dev.ruminate.gateway.route.Route;
import dev.ruminate.gateway.route.Routes;
import dev.ruminate.providers.chatcompletions.ChatCompletionsRequestReader;
import dev.ruminate.providers.chatcompletions.ChatCompletionsStreamEncoder;
import dev.ruminate.providers.chatcompletions.ChatCompletionsStreamOptions;
import dev.ruminate.providers.serving.ClientRequestException;
import dev.ruminate.providers.serving.OpenAiError;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Answers {@code POST /v1/chat/completions}: reads the request, relabels its assistant turns by
 * provenance (a Chat Completions client holds no gateway state, so every earlier turn is foreign:
 * its reasoning, as {@code reasoning_content}, reaches the backend by the route's
 * {@code reasoning-to-backend}), calls the route's provider, and encodes its events as chunks with
 * {@code reasoning_content}, tool calls and usage, or as one {@code chat.completion} body.
 *
 * <p>A bad request fails the returned {@code Mono} with a {@link ClientRequestException}, nothing
 * sent upstream. An upstream failure ends a stream with an error chunk; without streaming it is the
 * answer's status and OpenAI-shaped body, never the upstream's payload.
 *
 * <p>Thread-safe.
 *
 * @since 0.2
 */
public final class ChatCompletionsService {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Routes routes;
    private final int maxBodyChars;
    private final Clock clock;

    /**
     * Creates the service.
     *
     * @param routes the routes by model name
     * @param maxBodyChars the largest request body read, in characters
     * @param clock the clock for creation times
     */
    public ChatCompletionsService(Routes routes, int maxBodyChars, Clock clock) {
        this.routes = Objects.requireNonNull(routes, "routes");
        if (maxBodyChars < 1) {
            throw new IllegalArgumentException("maxBodyChars must be positive");
        }
        this.maxBodyChars = maxBodyChars;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Answers a request.
     *
     * @param body the request body
     * @return the answer; fails with a {@link ClientRequestException} for a bad request
     */
    public Mono<Answer> answer(String body) {
        return Mono.fromCallable(() -> ChatCompletionsRequestReader.read(body, maxBodyChars)).flatMap(call -> {
            Route route = routes.require(call.model());
            ChatRequest request = call.toChatRequest(route.upstreamModel());
            List<Message> messages = Provenance.relabel(request.messages(),
                    new Provenance.Target(route.name(), route.backendName(), route.reasoningToBackend()), Map.of());
            ChatRequest.Builder b = ChatRequest.builder(request.model()).messages(messages).reasoning(request.reasoning())
                    .sampling(request.sampling());
            request.tools().forEach(b::tool);
            request.extras().forEach(b::extra);
            ChatRequest relabelled = b.build();
            byte[] id = new byte[12];
            RANDOM.nextBytes(id);
            ChatCompletionsStreamOptions options = ChatCompletionsStreamOptions.fixed("chatcmpl-" + HexFormat.of().formatHex(id),
                    clock.instant().getEpochSecond(), route.name()).withIncludeUsage(call.includeUsage());
            Flux<ChatEvent> events = Flux.defer(() -> route.provider().stream(relabelled));
            if (call.stream()) {
                // OpenAI writes data lines only, no event name
                return Mono.just(new Answer.Streamed(ChatCompletionsStreamEncoder.encode(events, options)
                        .map(f -> "data: " + f.data() + "\n\n")));
            }
            return ChatCompletionsStreamEncoder.encodeBody(events, options)
                    .<Answer>map(json -> new Answer.Json(200, json))
                    .onErrorResume(e -> !(e instanceof ClientRequestException), e -> {
                        OpenAiError error = OpenAiError.ofUpstreamFailure(e);
                        return Mono.just(new Answer.Json(error.status(), error.toJson()));
                    });
        });
    }
}
