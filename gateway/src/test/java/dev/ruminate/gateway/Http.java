package dev.ruminate.gateway;

import io.netty.handler.codec.http.HttpHeaderNames;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A client of the gateway for tests, on a plain Reactor Netty client (every buffer it reads is
 * released), and helpers over Responses JSON.
 */
public final class Http {

    public static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final HttpClient client;

    Http(String baseUrl, @Nullable String key) {
        HttpClient c = HttpClient.create().baseUrl(baseUrl).responseTimeout(TIMEOUT);
        this.client = key == null ? c : c.headers(h -> h.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + key));
    }

    /** An answer: its status and body. */
    public record Reply(int status, String body) {
        public JsonNode json() {
            return JSON.readTree(body);
        }
    }

    /** An error answer. */
    public record Failure(int status, JsonNode body) {
    }

    /** One Server-Sent Event. */
    public record Event(String event, String data) {
    }

    public static ObjectNode request(String model, @Nullable String userText) {
        ObjectNode r = JSON.createObjectNode();
        r.put("model", model);
        if (userText != null) {
            r.put("input", userText);
        }
        return r;
    }

    public static ObjectNode toolOutput(String callId, String output) {
        ObjectNode o = JSON.createObjectNode();
        o.put("type", "function_call_output");
        o.put("call_id", callId);
        o.put("output", output);
        return o;
    }

    public static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    public static List<String> types(JsonNode output) {
        List<String> types = new ArrayList<>();
        output.forEach(i -> types.add(i.path("type").asString()));
        return types;
    }

    /** The text of the response's reasoning items: their content, else their summary. */
    public static String reasoningText(JsonNode response) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode item : response.path("output")) {
            if ("reasoning".equals(item.path("type").asString())) {
                JsonNode parts = item.path("content").isArray() && !item.path("content").isEmpty() ? item.path("content")
                        : item.path("summary");
                parts.forEach(p -> sb.append(p.path("text").asString()));
            }
        }
        return sb.toString();
    }

    public static String callId(JsonNode response) {
        for (JsonNode item : response.path("output")) {
            if ("function_call".equals(item.path("type").asString())) {
                return item.path("call_id").asString();
            }
        }
        throw new AssertionError("no function call in " + response);
    }

    public Reply get(String path) {
        return client.get().uri(path)
                .responseSingle((res, body) -> body.asString(StandardCharsets.UTF_8).defaultIfEmpty("")
                        .map(b -> new Reply(res.status().code(), b)))
                .block(TIMEOUT);
    }

    public Reply send(String body) {
        return send("/v1/responses", body);
    }

    public Reply send(String path, String body) {
        return client.headers(h -> h.set(HttpHeaderNames.CONTENT_TYPE, "application/json"))
                .post().uri(path).send(ByteBufFlux.fromString(Flux.just(body)))
                .responseSingle((res, b) -> b.asString(StandardCharsets.UTF_8).defaultIfEmpty("")
                        .map(s -> new Reply(res.status().code(), s)))
                .block(TIMEOUT);
    }

    public JsonNode post(ObjectNode request) {
        Reply reply = send(request.toString());
        if (reply.status() != 200) {
            throw new AssertionError("expected 200, got " + reply.status() + ": " + reply.body());
        }
        return reply.json();
    }

    public Failure fail(ObjectNode request) {
        return fail(request.toString());
    }

    public Failure fail(String body) {
        Reply reply = send(body);
        return new Failure(reply.status(), reply.json());
    }

    /** The raw chunks of a streamed answer, as they arrive; cancelling closes the connection. */
    public Flux<String> chunks(ObjectNode request) {
        return chunks("/v1/responses", request);
    }

    public Flux<String> chunks(String path, ObjectNode request) {
        request.put("stream", true);
        return client.headers(h -> h.set(HttpHeaderNames.CONTENT_TYPE, "application/json"))
                .post().uri(path).send(ByteBufFlux.fromString(Flux.just(request.toString())))
                .response((res, body) -> {
                    if (res.status().code() != 200 || !String.valueOf(res.responseHeaders().get("Content-Type"))
                            .startsWith("text/event-stream")) {
                        return body.asString().collectList().flatMapMany(b -> Flux.error(new AssertionError(
                                "expected an event stream, got " + res.status() + ": " + b)));
                    }
                    return body.asString(StandardCharsets.UTF_8);
                });
    }

    public List<Event> stream(ObjectNode request) {
        String text = String.join("", chunks(request).collectList().block(TIMEOUT));
        List<Event> events = new ArrayList<>();
        for (String frame : text.split("\n\n")) {
            String event = null;
            StringBuilder data = new StringBuilder();
            for (String line : frame.split("\n")) {
                if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data.append(line.substring(6));
                }
            }
            if (event != null) {
                events.add(new Event(event, data.toString()));
            }
        }
        return events;
    }
}
