package dev.ruminate.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.RecordedRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /v1/chat/completions} in front of recorded backends: reasoning of any backend as
 * {@code reasoning_content}, tool calls and usage, streamed and whole; a client's tool loop sends the
 * reasoning back by the backend's rules; bad requests and upstream failures in OpenAI's shape.
 */
@ExtendWith(NettyLeakCheck.class)
class ChatCompletionsEndpointTest {

    private static final String PATH = "/v1/chat/completions";
    private static final String DEEPSEEK = "deepseek/vercel-deepseek-reasoning-tool-call-stream.sse";
    private static final String ANTHROPIC = "anthropic/pydantic-thinking-stream.sse";
    private static final String TAGS = "think-tags/pydantic-groq-deepseek-r1-distill-think-tags-stream.sse";
    private static GatewayHarness gateway;
    private static Http http;

    @BeforeAll
    static void start() {
        gateway = new GatewayHarness();
        http = gateway.http();
        gateway.deepseek.always(EmulatorResponse.replay(GatewayHarness.fixture(DEEPSEEK), "text/event-stream"));
        gateway.anthropic.always(EmulatorResponse.replay(GatewayHarness.fixture(ANTHROPIC), "text/event-stream"));
        gateway.tags.always(EmulatorResponse.replay(GatewayHarness.fixture(TAGS), "text/event-stream"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static ObjectNode request(String model, String user) {
        ObjectNode r = Http.JSON.createObjectNode();
        r.put("model", model);
        r.putArray("messages").addObject().put("role", "user").put("content", user);
        return r;
    }

    private static JsonNode complete(ObjectNode request) {
        Http.Reply reply = http.send(PATH, request.toString());
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.json();
    }

    @Test
    void streamsReasoningContentToolCallsAndUsage() {
        ObjectNode request = request("deepseek-reasoner", "What is the weather?");
        request.putObject("stream_options").put("include_usage", true);
        String text = String.join("", http.chunks(PATH, request).collectList().block(Duration.ofSeconds(20)));

        List<JsonNode> chunks = new ArrayList<>();
        for (String frame : text.split("\n\n")) {
            assertThat(frame).startsWith("data: ");
            if (!frame.equals("data: [DONE]")) {
                chunks.add(Http.json(frame.substring(6)));
            }
        }
        assertThat(text).endsWith("data: [DONE]\n\n");
        assertThat(chunks).allSatisfy(c -> assertThat(c.path("model").asString()).isEqualTo("deepseek-reasoner"));
        assertThat(text).contains("\"reasoning_content\":").contains("\"tool_calls\":");
        assertThat(chunks.get(chunks.size() - 1).path("usage").path("completion_tokens_details").has("reasoning_tokens"))
                .isTrue();
    }

    @Test
    void aToolLoopSendsDeepSeekItsReasoningBack() {
        JsonNode turn1 = complete(request("deepseek-reasoner", "What is the weather?"));
        JsonNode message = turn1.path("choices").get(0).path("message");
        assertThat(message.path("reasoning_content").asString()).isNotEmpty();
        String callId = message.path("tool_calls").get(0).path("id").asString();
        int before = gateway.deepseek.requests().size();

        ObjectNode turn2 = request("deepseek-reasoner", "What is the weather?");
        ArrayNode messages = (ArrayNode) turn2.path("messages");
        messages.add(message.deepCopy());
        messages.addObject().put("role", "tool").put("tool_call_id", callId).put("content", "{\"temperature\":21}");
        complete(turn2);

        RecordedRequest sent = gateway.deepseek.requests().get(before);
        assertThat(sent.rejectedBy()).isNull();
        JsonNode assistant = Http.json(sent.body()).path("messages").get(1);
        assertThat(assistant.path("reasoning_content").asString()).isEqualTo(message.path("reasoning_content").asString());
        assertThat(assistant.path("tool_calls").get(0).path("id").asString()).isEqualTo(callId);
    }

    @Test
    void anthropicThinkingReachesAChatCompletionsClientAsReasoningContent() {
        JsonNode body = complete(request("claude", "How do I cross the street?"));
        JsonNode message = body.path("choices").get(0).path("message");
        assertThat(message.path("reasoning_content").asString()).startsWith("This is a straightforward question");
        assertThat(message.path("content").asString()).startsWith("Here are");
        assertThat(body.toString()).doesNotContain("signature");
    }

    @Test
    void reasoningContentAClientSendsGoesToATagBackendAsTags() {
        int before = gateway.tags.requests().size();
        ObjectNode request = request("r1-distill", "Hi");
        ArrayNode messages = (ArrayNode) request.path("messages");
        messages.addObject().put("role", "assistant").put("content", "Hello!").put("reasoning_content", "A greeting.");
        messages.addObject().put("role", "user").put("content", "How are you?");
        complete(request);

        JsonNode assistant = Http.json(gateway.tags.requests().get(before).body()).path("messages").get(1);
        assertThat(assistant.path("content").asString()).isEqualTo("<think>\nA greeting.\n</think>\n\nHello!");
        assertThat(assistant.has("reasoning_content")).isFalse();
    }

    @Test
    void badRequestsAreOpenAiShapedAndNothingIsForwarded() {
        int before = gateway.deepseek.requests().size();
        Http.Reply malformed = http.send(PATH, "{\"model\":");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.json().path("error").path("type").asString()).isEqualTo("invalid_request_error");
        Http.Reply unknown = http.send(PATH, request("no-such-model", "Hi").toString());
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().path("error").path("code").asString()).isEqualTo("model_not_found");
        assertThat(gateway.deepseek.requests()).hasSize(before);
    }

    @Test
    void anUpstreamFailureIsTheUpstreamStatusWithoutItsPayload() {
        gateway.deepseek.enqueue(EmulatorResponse.httpError(503, "{\"error\":{\"message\":\"tenant 42 overloaded\"}}"));
        Http.Reply reply = http.send(PATH, request("deepseek-reasoner", "Hi").toString());
        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.json().path("error").path("code").asString()).isEqualTo("server_error");
        assertThat(reply.body()).doesNotContain("tenant 42");
    }
}
