package dev.ruminate.examples.webflux;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.WebsocketClientSpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A minimal Chrome DevTools Protocol client: commands with ids, their replies, and events, as JSON
 * over one WebSocket (Reactor Netty), with flattened sessions for pages. Enough for a test; not a
 * general driver.
 */
final class DevTools implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(20);

    private final Sinks.Many<String> outbound = Sinks.many().unicast().onBackpressureBuffer();
    private final Sinks.Many<JsonNode> events = Sinks.many().multicast().directBestEffort();
    private final Map<Integer, Sinks.One<JsonNode>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final Disposable connection;

    DevTools(String browserUrl) {
        this.connection = HttpClient.create()
                .websocket(WebsocketClientSpec.builder().maxFramePayloadLength(16 * 1024 * 1024).build())
                .uri(browserUrl)
                .handle((in, out) -> out.sendString(outbound.asFlux()).then()
                        .and(in.aggregateFrames(64 * 1024 * 1024).receive().asString().doOnNext(this::onMessage)))
                .subscribe();
    }

    private void onMessage(String text) {
        JsonNode message = JSON.readTree(text);
        JsonNode id = message.get("id");
        if (id != null) {
            Sinks.One<JsonNode> reply = pending.remove(id.asInt());
            if (reply != null) {
                reply.tryEmitValue(message);
            }
        } else {
            events.tryEmitNext(message);
        }
    }

    /**
     * Sends a command and waits for its result.
     *
     * @param sessionId the page session, or null for the browser
     * @throws IllegalStateException when the browser answers with an error
     */
    JsonNode call(@Nullable String sessionId, String method, Map<String, ?> params) {
        int id = ids.incrementAndGet();
        Sinks.One<JsonNode> reply = Sinks.one();
        pending.put(id, reply);
        ObjectNode command = JSON.createObjectNode();
        command.put("id", id);
        command.put("method", method);
        command.set("params", JSON.valueToTree(params));
        if (sessionId != null) {
            command.put("sessionId", sessionId);
        }
        synchronized (outbound) { // a unicast sink takes one emitter at a time
            outbound.emitNext(JSON.writeValueAsString(command), Sinks.EmitFailureHandler.FAIL_FAST);
        }
        JsonNode answer = reply.asMono().block(REPLY_TIMEOUT);
        if (answer == null || answer.has("error")) {
            throw new IllegalStateException(method + " failed: " + answer);
        }
        return answer.get("result");
    }

    /** Events of one session (or of the browser, for a null session), from now on. */
    Flux<JsonNode> events(@Nullable String sessionId, String method) {
        return events.asFlux().filter(e -> method.equals(e.path("method").asString())
                && (sessionId == null ? !e.has("sessionId") : sessionId.equals(e.path("sessionId").asString())));
    }

    /** Evaluates an expression in the page, awaiting it if it is a promise, and returns its value as a string. */
    String evaluate(String sessionId, String expression) {
        JsonNode result = call(sessionId, "Runtime.evaluate",
                Map.of("expression", expression, "awaitPromise", true, "returnByValue", true));
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException("the page threw: " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value").asString();
    }

    /** Waits for the first matching event, subscribed before {@code action} runs so it cannot be missed. */
    JsonNode awaitEvent(@Nullable String sessionId, String method, Runnable action, Duration timeout) {
        Mono<JsonNode> first = events(sessionId, method).next().cache();
        Disposable subscription = first.subscribe();
        try {
            action.run();
            JsonNode event = first.block(timeout);
            if (event == null) {
                throw new IllegalStateException("no " + method + " event");
            }
            return event;
        } finally {
            subscription.dispose();
        }
    }

    @Override
    public void close() {
        outbound.tryEmitComplete();
        connection.dispose();
    }
}
