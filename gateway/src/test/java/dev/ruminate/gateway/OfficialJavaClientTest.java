package dev.ruminate.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import com.openai.models.responses.EasyInputMessage;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseIncludable;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ResponseOutputItem;
import com.openai.models.responses.ResponseStreamEvent;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.RecordedRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * The official OpenAI Java client (openai-java 4.x) against the gateway: both endpoints, streamed
 * and not, a tool loop, and a reasoning round trip with {@code store: false}. Each answer passes the
 * client's own {@code validate()}, which checks it against the types the SDK declares; each second
 * turn is built by the client from its first answer, and the backend gets what its rules require.
 */
@ExtendWith(NettyLeakCheck.class)
class OfficialJavaClientTest {

    private static final String DEEPSEEK = "deepseek/vercel-deepseek-reasoning-tool-call-stream.sse";
    private static final String ANTHROPIC = "anthropic/pydantic-thinking-stream.sse";
    private static GatewayHarness gateway;
    private static OpenAIClient client;

    @BeforeAll
    static void start() {
        gateway = new GatewayHarness();
        gateway.deepseek.always(EmulatorResponse.replay(GatewayHarness.fixture(DEEPSEEK), "text/event-stream"));
        gateway.anthropic.always(EmulatorResponse.replay(GatewayHarness.fixture(ANTHROPIC), "text/event-stream"));
        client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey(GatewayHarness.KEY)
                .maxRetries(0).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        gateway.close();
    }

    private static ResponseInputItem user(String text) {
        return ResponseInputItem.ofEasyInputMessage(EasyInputMessage.builder().role(EasyInputMessage.Role.USER)
                .content(text).build());
    }

    /** The output items as the client sends them back. */
    private static List<ResponseInputItem> asInput(Response response) {
        List<ResponseInputItem> items = new ArrayList<>();
        for (ResponseOutputItem item : response.output()) {
            if (item.isReasoning()) {
                items.add(ResponseInputItem.ofReasoning(item.asReasoning()));
            } else if (item.isMessage()) {
                items.add(ResponseInputItem.ofResponseOutputMessage(item.asMessage()));
            } else if (item.isFunctionCall()) {
                items.add(ResponseInputItem.ofFunctionCall(item.asFunctionCall()));
            }
        }
        return items;
    }

    @Test
    void responsesReasoningRoundTripWithStoreFalse() {
        Response turn1 = client.responses().create(ResponseCreateParams.builder().model("claude")
                .input("How do I cross the street?").store(false).addInclude(ResponseIncludable.REASONING_ENCRYPTED_CONTENT)
                .build());
        turn1.validate();
        ResponseOutputItem reasoning = turn1.output().get(0);
        assertThat(reasoning.isReasoning()).isTrue();
        assertThat(reasoning.asReasoning().encryptedContent()).hasValueSatisfying(v -> assertThat(v).startsWith("rgw1."));
        assertThat(reasoning.asReasoning().summary()).isNotEmpty();
        int before = gateway.anthropic.requests().size();

        List<ResponseInputItem> input = new ArrayList<>();
        input.add(user("How do I cross the street?"));
        input.addAll(asInput(turn1));
        input.add(user("And at night?"));
        client.responses().create(ResponseCreateParams.builder().model("claude").inputOfResponse(input).store(false)
                .build()).validate();

        RecordedRequest sent = gateway.anthropic.requests().get(before);
        assertThat(sent.rejectedBy()).isNull();
        JsonNode thinking = Http.json(sent.body()).path("messages").get(1).path("content").get(0);
        assertThat(thinking.path("type").asString()).isEqualTo("thinking");
        assertThat(thinking.path("signature").asString()).startsWith("EvMCCkYICxgCKkCHP2cSuEdc");
    }

    @Test
    void responsesStreamedToolLoop() {
        ResponseCreateParams first = ResponseCreateParams.builder().model("deepseek-reasoner")
                .input("What is the weather?").store(false).build();
        StringBuilder summary = new StringBuilder();
        AtomicReference<Response> completed = new AtomicReference<>();
        try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(first)) {
            stream.stream().forEach(e -> {
                e.validate();
                if (e.isReasoningSummaryTextDelta()) {
                    summary.append(e.asReasoningSummaryTextDelta().delta());
                } else if (e.isCompleted()) {
                    completed.set(e.asCompleted().response());
                }
            });
        }
        Response turn1 = completed.get();
        assertThat(turn1).isNotNull();
        turn1.validate();
        assertThat(summary.toString()).isNotEmpty();
        String callId = turn1.output().stream().filter(ResponseOutputItem::isFunctionCall).findFirst().orElseThrow()
                .asFunctionCall().callId();
        int before = gateway.deepseek.requests().size();

        List<ResponseInputItem> input = new ArrayList<>();
        input.add(user("What is the weather?"));
        input.addAll(asInput(turn1));
        input.add(ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput.builder().callId(callId)
                .output("{\"temperature\":21}").build()));
        client.responses().create(ResponseCreateParams.builder().model("deepseek-reasoner").inputOfResponse(input)
                .store(false).build()).validate();

        RecordedRequest sent = gateway.deepseek.requests().get(before);
        assertThat(sent.rejectedBy()).isNull();
        JsonNode assistant = Http.json(sent.body()).path("messages").get(1);
        assertThat(assistant.path("reasoning_content").asString()).isEqualTo(summary.toString());
        assertThat(assistant.path("tool_calls").get(0).path("id").asString()).isEqualTo(callId);
    }

    @Test
    // _additionalProperties() is deprecated for fields the SDK declares; reasoning_content is not one of them,
    // and this is how an openai-java user reads it
    @SuppressWarnings("deprecation")
    void chatCompletionsWholeAndStreamedWithAToolLoop() {
        ChatCompletionCreateParams first = ChatCompletionCreateParams.builder().model("deepseek-reasoner")
                .addUserMessage("What is the weather?").build();
        ChatCompletion turn1 = client.chat().completions().create(first);
        turn1.validate();
        ChatCompletionMessage message = turn1.choices().get(0).message();
        Map<String, JsonValue> extra = message._additionalProperties();
        String reasoning = extra.get("reasoning_content").convert(String.class);
        assertThat(reasoning).isNotEmpty();
        String callId = message.toolCalls().orElseThrow().get(0).asFunction().id();

        StringBuilder streamed = new StringBuilder();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(first)) {
            stream.stream().forEach(chunk -> {
                chunk.validate();
                chunk.choices().forEach(c -> {
                    JsonValue r = c.delta()._additionalProperties().get("reasoning_content");
                    if (r != null) {
                        streamed.append(r.convert(String.class));
                    }
                });
            });
        }
        assertThat(streamed.toString()).isEqualTo(reasoning);
        int before = gateway.deepseek.requests().size();

        client.chat().completions().create(first.toBuilder().addMessage(message)
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId(callId).content("{\"temperature\":21}")
                        .build()).build()).validate();

        RecordedRequest sent = gateway.deepseek.requests().get(before);
        assertThat(sent.rejectedBy()).isNull();
        assertThat(Http.json(sent.body()).path("messages").get(1).path("tool_calls").get(0).path("id").asString())
                .isEqualTo(callId);
    }
}
