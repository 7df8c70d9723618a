package dev.ruminate.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Requests the gateway must refuse, each with a clear OpenAI-shaped error and nothing forwarded
 * upstream; keys; the model list; and upstream failures, which reach the client in OpenAI's words
 * without the upstream's payload.
 */
@ExtendWith(NettyLeakCheck.class)
class BadRequestsTest {

    private static final String RECORDING = "deepseek/vercel-deepseek-reasoning-tool-call-stream.sse";
    private static GatewayHarness gateway;
    private static Http http;
    private int upstreamBefore;

    @BeforeAll
    static void start() {
        gateway = new GatewayHarness("ruminate.gateway.max-request-size=8KB");
        http = gateway.http();
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @BeforeEach
    void countUpstreamRequests() {
        gateway.deepseek.always(EmulatorResponse.replay(GatewayHarness.fixture(RECORDING), "text/event-stream"));
        upstreamBefore = upstreamRequests();
    }

    private static int upstreamRequests() {
        return gateway.deepseek.requests().size() + gateway.tags.requests().size() + gateway.anthropic.requests().size()
                + gateway.gemini.requests().size();
    }

    private void assertNothingForwarded() {
        assertThat(upstreamRequests()).isEqualTo(upstreamBefore);
    }

    private static void assertError(Http.Failure failure, int status, String type, String code, String param) {
        assertThat(failure.status()).isEqualTo(status);
        JsonNode error = failure.body().path("error");
        assertThat(error.path("type").asString()).isEqualTo(type);
        assertThat(error.path("code").asString()).isEqualTo(code);
        assertThat(error.path("message").asString()).isNotBlank();
        if (param == null) {
            assertThat(error.path("param").isNull()).isTrue();
        } else {
            assertThat(error.path("param").asString()).isEqualTo(param);
        }
    }

    @Test
    void malformedJsonIs400() {
        assertError(http.fail("{\"model\":\"deepseek-reasoner\",\"input\":"), 400, "invalid_request_error", "invalid_json", null);
        assertNothingForwarded();
    }

    @Test
    void anUnknownItemTypeIs400NamingTheItem() {
        ObjectNode request = Http.request("deepseek-reasoner", null);
        ArrayNode input = request.putArray("input");
        input.addObject().put("role", "user").put("content", "Hi");
        input.addObject().put("type", "telepathy_call").put("id", "tp_1");
        assertError(http.fail(request), 400, "invalid_request_error", "invalid_value", "input[1].type");
        assertNothingForwarded();
    }

    @Test
    void aMissingInputIs400() {
        assertError(http.fail(Http.request("deepseek-reasoner", null)), 400, "invalid_request_error",
                "missing_required_parameter", "input");
        assertNothingForwarded();
    }

    @Test
    void anOversizedBodyIs413() {
        assertError(http.fail(Http.request("deepseek-reasoner", "x".repeat(9000))), 413, "invalid_request_error",
                "request_too_large", null);
        assertNothingForwarded();
    }

    @Test
    void anUnknownPreviousResponseIdIs404InOpenAisWords() {
        ObjectNode request = Http.request("deepseek-reasoner", "Hi");
        request.put("previous_response_id", "resp_unknown");
        Http.Failure failure = http.fail(request);
        assertThat(failure.status()).isEqualTo(404);
        assertThat(failure.body().toString()).isEqualTo("{\"error\":{\"message\":\"Previous response with id 'resp_unknown' "
                + "not found.\",\"type\":\"invalid_request_error\",\"param\":\"previous_response_id\","
                + "\"code\":\"previous_response_not_found\"}}");
        assertNothingForwarded();
    }

    @Test
    void anUnknownItemReferenceIs404NamingTheItem() {
        ObjectNode request = Http.request("deepseek-reasoner", null);
        ArrayNode input = request.putArray("input");
        input.addObject().put("role", "user").put("content", "Hi");
        input.addObject().put("type", "item_reference").put("id", "msg_unknown");
        assertError(http.fail(request), 404, "invalid_request_error", "item_not_found", "input[1]");
        assertNothingForwarded();
    }

    @Test
    void anUnknownModelIs404() {
        assertError(http.fail(Http.request("gpt-nonexistent", "Hi")), 404, "invalid_request_error", "model_not_found", "model");
        assertNothingForwarded();
    }

    @Test
    void aTamperedEncryptedContentIs400AndNothingIsForwarded() {
        ObjectNode first = Http.request("deepseek-reasoner", "What is the weather?");
        first.put("store", false);
        JsonNode turn1 = http.post(first);
        upstreamBefore = upstreamRequests();
        String sealed = turn1.path("output").get(0).path("encrypted_content").asString();
        char last = sealed.charAt(sealed.length() - 1);
        String tampered = sealed.substring(0, sealed.length() - 1) + (last == 'a' ? 'b' : 'a');

        ObjectNode turn2 = Http.request("deepseek-reasoner", null);
        ArrayNode input = turn2.putArray("input");
        input.addObject().put("role", "user").put("content", "What is the weather?");
        ((ObjectNode) input.add(turn1.path("output").get(0).deepCopy()).get(1)).put("encrypted_content", tampered);
        Http.Failure failure = http.fail(turn2);

        assertThat(failure.status()).isEqualTo(400);
        assertThat(failure.body().path("error").path("param").asString()).isEqualTo("input[1].encrypted_content");
        assertThat(failure.body().toString()).doesNotContain(tampered);
        assertNothingForwarded();
    }

    @Test
    void aMissingOrWrongKeyIs401WithoutEchoingTheKey() {
        Http.Reply missing = gateway.http(null).send(Http.request("deepseek-reasoner", "Hi").toString());
        assertThat(missing.status()).isEqualTo(401);
        assertThat(missing.json().path("error").path("code").asString()).isEqualTo("invalid_api_key");
        String wrongKey = "sk-wrong-key-that-must-not-be-echoed";
        Http.Reply wrong = gateway.http(wrongKey).get("/v1/models");
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.body()).contains("invalid_api_key").doesNotContain(wrongKey);
        assertNothingForwarded();
    }

    @Test
    void theAgUiEndpointIsGuardedByTheSameKeys() {
        String run = "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"u\",\"role\":\"user\",\"content\":\"Hi\"}]}";
        for (String path : List.of("/ag-ui", "/ag-ui;x=y", "/%61g-ui")) {
            Http.Reply missing = gateway.http(null).send(path, run);
            assertThat(missing.status()).as(path).isIn(401, 404);
            assertThat(missing.body()).as(path).doesNotContain("RUN_STARTED");
        }
        assertThat(gateway.http(null).send("/ag-ui", run).status()).isEqualTo(401);
        assertNothingForwarded();
        Http.Reply keyed = gateway.http().send("/ag-ui", run);
        assertThat(keyed.status()).isEqualTo(200);
        assertThat(keyed.body()).startsWith("data: {\"type\":\"RUN_STARTED\"");
    }

    @Test
    void aPathSpelledAnotherWayIsGuardedAsTheRouteItReaches() {
        // the router matches decoded segments without matrix variables; so must the key check
        for (String path : List.of("/%761/models", "/v1;x=y/models", "/v1%3Bx/models")) {
            Http.Reply reply = gateway.http(null).get(path);
            assertThat(reply.status()).as(path).isIn(401, 404);
            assertThat(reply.body()).as(path).doesNotContain("\"object\":\"list\"");
        }
        Http.Reply post = gateway.http(null).send("/%761/responses", Http.request("deepseek-reasoner", "Hi").toString());
        assertThat(post.status()).isEqualTo(401);
        assertNothingForwarded();
    }

    @Test
    void modelsListsTheRoutesInOpenAisShape() {
        Http.Reply reply = http.get("/v1/models");
        assertThat(reply.status()).isEqualTo(200);
        JsonNode list = reply.json();
        assertThat(list.path("object").asString()).isEqualTo("list");
        assertThat(list.path("data").findValuesAsString("id")).containsExactlyInAnyOrder("deepseek-reasoner", "r1-distill",
                "claude", "gemini-3");
        JsonNode first = list.path("data").get(0);
        assertThat(first.path("object").asString()).isEqualTo("model");
        assertThat(first.path("created").isIntegralNumber()).isTrue();
        assertThat(list.path("data").findValuesAsString("owned_by")).containsExactlyInAnyOrder("deepseek", "tags",
                "anthropic", "gemini");
    }

    @Test
    void anUnknownPathIsAnOpenAiShaped404() {
        Http.Reply reply = http.get("/v1/nothing-here");
        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.json().path("error").path("code").asString()).isEqualTo("unknown_url");
    }

    @Test
    void anUpstreamFailureBeforeTheFirstEventIsTheUpstreamStatusWithoutItsPayload() {
        gateway.deepseek.enqueue(EmulatorResponse.httpError(500,
                "{\"error\":{\"message\":\"internal detail of tenant 42\",\"type\":\"server_error\"}}"));
        Http.Failure failure = http.fail(Http.request("deepseek-reasoner", "Hi"));
        assertError(failure, 502, "server_error", "server_error", null);
        assertThat(failure.body().toString()).doesNotContain("tenant 42");
    }

    @Test
    void anUpstreamFailureWhileStreamingEndsWithResponseFailed() {
        gateway.deepseek.enqueue(EmulatorResponse.httpError(500,
                "{\"error\":{\"message\":\"internal detail of tenant 42\",\"type\":\"server_error\"}}"));
        List<Http.Event> events = http.stream(Http.request("deepseek-reasoner", "Hi"));
        Http.Event last = events.get(events.size() - 1);
        assertThat(last.event()).isEqualTo("response.failed");
        assertThat(last.data()).doesNotContain("tenant 42");
        assertThat(Http.json(last.data()).path("response").path("status").asString()).isEqualTo("failed");
        assertThat(Http.json(last.data()).path("response").path("error").path("code").asString()).isEqualTo("server_error");
    }
}
