package dev.ruminate.gateway;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** A client of the gateway's Responses endpoint for tests, and helpers over Responses JSON. */
final class Http {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ParameterizedTypeReference<ServerSentEvent<String>> SSE = new ParameterizedTypeReference<>() {
    };

    private final WebTestClient client;

    Http(WebTestClient client) {
        this.client = client;
    }

    /** An error answer. */
    record Failure(int status, JsonNode body) {
    }

    static ObjectNode request(String model, @Nullable String userText) {
        ObjectNode r = JSON.createObjectNode();
        r.put("model", model);
        if (userText != null) {
            r.put("input", userText);
        }
        return r;
    }

    static ObjectNode toolOutput(String callId, String output) {
        ObjectNode o = JSON.createObjectNode();
        o.put("type", "function_call_output");
        o.put("call_id", callId);
        o.put("output", output);
        return o;
    }

    static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    static List<String> types(JsonNode output) {
        List<String> types = new ArrayList<>();
        output.forEach(i -> types.add(i.path("type").asString()));
        return types;
    }

    /** The text of the response's reasoning items: their content, else their summary. */
    static String reasoningText(JsonNode response) {
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

    static String callId(JsonNode response) {
        for (JsonNode item : response.path("output")) {
            if ("function_call".equals(item.path("type").asString())) {
                return item.path("call_id").asString();
            }
        }
        throw new AssertionError("no function call in " + response);
    }

    JsonNode post(ObjectNode request) {
        EntityExchangeResult<byte[]> result = client.post().uri("/v1/responses").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(request.toString()).exchange().expectStatus().isOk().expectBody().returnResult();
        return JSON.readTree(result.getResponseBodyContent());
    }

    Failure fail(ObjectNode request) {
        return fail(request.toString());
    }

    Failure fail(String body) {
        EntityExchangeResult<byte[]> result = client.post().uri("/v1/responses").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body).exchange().expectBody().returnResult();
        return new Failure(result.getStatus().value(), JSON.readTree(result.getResponseBodyContent()));
    }

    List<ServerSentEvent<String>> stream(ObjectNode request) {
        request.put("stream", true);
        return client.post().uri("/v1/responses").contentType(MediaType.APPLICATION_JSON)
                .accept(MediaType.TEXT_EVENT_STREAM).bodyValue(request.toString()).exchange()
                .expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_EVENT_STREAM)
                .returnResult(SSE).getResponseBody().collectList().block();
    }
}
