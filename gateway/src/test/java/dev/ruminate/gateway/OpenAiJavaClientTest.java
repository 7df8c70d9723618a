package dev.ruminate.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonField;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionAssistantMessageParam;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import com.openai.models.responses.EasyInputMessage;
import com.openai.models.responses.FunctionTool;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseIncludable;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ResponseOutputItem;
import com.openai.models.responses.ResponseReasoningItem;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.ResponseUsage;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.RecordedRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official OpenAI Java client (openai-java, as a Java user of the gateway would use it) against the gateway
 * started on a free port in front of the testkit's emulators: the Responses and Chat Completions endpoints streamed
 * and whole, a tool loop over each endpoint (Chat Completions with reasoning_content put back as an additional
 * property, which openai-java drops from the message it sends back otherwise; Responses both scripted and from a
 * recorded DeepSeek stream), and a stateless reasoning round trip
 * (store false, encrypted_content asked for) in which the backend receives its own signed thinking byte for byte.
 * openai-java's models validate every field its types require, so each answer and each streamed event is also
 * checked against the official types; each second turn is built by the client from its first answer.
 */
@ExtendWith(NettyLeakCheck.class)
class OpenAiJavaClientTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String RECORDED_DEEPSEEK_TOOL_CALL = "deepseek/vercel-deepseek-reasoning-tool-call-stream.sse";
    private static final String DEEPSEEK = "deepseek-reasoner";
    private static final String CLAUDE = "claude";
    private static final String REASONING = "The user wants the weather; the weather tool answers that.";
    private static final String ANSWER = "It is 21 degrees and sunny in Paris.";
    // Shaped like Anthropic's: base64 with '+', '/' and padding, so any re-encoding on the way would show.
    private static final String SIGNATURE = "EqQBCkYIBRgCKkBx+/3kq9Vv0o2n+Z/fP1bY4mZ6gk7t0tq4p0x1+abc/def";

    private static GatewayHarness gateway;
    private static OpenAIClient client;

    // Each test sets the emulator's standing answer (always) before each exchange, rather than queueing: an
    // exchange that fails before reaching the backend then leaves nothing behind for the next test.

    @BeforeAll
    static void start() {
        gateway = new GatewayHarness();
        client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey(GatewayHarness.KEY)
                .maxRetries(0).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        gateway.close();
    }

    private static ChatCompletionsScript deepSeekAnswer() {
        return ChatCompletionsScript.create().model(DEEPSEEK).reasoning(REASONING).content(ANSWER).finish("stop")
                .usage(40, 30, 12).usageOnFinishChunk(true);
    }

    private static ChatCompletionsScript deepSeekToolCall() {
        return ChatCompletionsScript.create().model(DEEPSEEK).reasoning(REASONING)
                .toolCall("call_weather_1", "weather", "{\"city\":\"Paris\"}").finish("tool_calls")
                .usage(40, 20, 12).usageOnFinishChunk(true);
    }

    private static FunctionTool weatherTool() {
        return FunctionTool.builder().name("weather").description("The current weather in a city.").strict(false)
                .parameters(FunctionTool.Parameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
                        .putAdditionalProperty("required", JsonValue.from(List.of("city")))
                        .build())
                .build();
    }

    private static ResponseInputItem user(String text) {
        return ResponseInputItem.ofEasyInputMessage(
                EasyInputMessage.builder().role(EasyInputMessage.Role.USER).content(text).build());
    }

    /** An output item of turn 1 as the input item a client sends back in turn 2. */
    private static ResponseInputItem asInput(ResponseOutputItem item) {
        if (item.isReasoning()) {
            return ResponseInputItem.ofReasoning(item.asReasoning());
        }
        if (item.isFunctionCall()) {
            return ResponseInputItem.ofFunctionCall(item.asFunctionCall());
        }
        return ResponseInputItem.ofResponseOutputMessage(item.asMessage());
    }

    private static String reasoningText(Response response) {
        StringBuilder text = new StringBuilder();
        for (ResponseOutputItem item : response.output()) {
            if (item.isReasoning()) {
                ResponseReasoningItem reasoning = item.asReasoning();
                List<ResponseReasoningItem.Content> content = reasoning.content().orElse(List.of());
                if (!content.isEmpty()) {
                    content.forEach(c -> text.append(c.text()));
                } else {
                    reasoning.summary().forEach(s -> text.append(s.text()));
                }
            }
        }
        return text.toString();
    }

    private static String outputText(Response response) {
        StringBuilder text = new StringBuilder();
        for (ResponseOutputItem item : response.output()) {
            if (item.isMessage()) {
                item.asMessage().content().forEach(c -> c.outputText().ifPresent(t -> text.append(t.text())));
            }
        }
        return text.toString();
    }

    private static List<ResponseFunctionToolCall> calls(Response response) {
        return response.output().stream().filter(ResponseOutputItem::isFunctionCall)
                .map(ResponseOutputItem::asFunctionCall).toList();
    }

    /**
     * The reasoning_content of a Chat Completions message or delta: openai-java has no typed field for it, so it is
     * among the additional properties, the client's own escape for fields outside OpenAI's schema.
     */
    private static Optional<String> reasoningContent(Map<String, JsonValue> fields) {
        JsonField<?> value = fields.get("reasoning_content");
        return value == null ? Optional.empty() : value.asString();
    }

    private static RecordedRequest lastRequest(List<RecordedRequest> requests) {
        assertThat(requests).isNotEmpty();
        return requests.get(requests.size() - 1);
    }

    @Test
    void responsesStreamedReachTheClientWithReasoningTextAndUsage() {
        gateway.deepseek.always(deepSeekAnswer().toResponse());
        ResponseCreateParams params = ResponseCreateParams.builder().model(DEEPSEEK).input("Weather in Paris?").build();

        ResponseAccumulator accumulator = ResponseAccumulator.create();
        StringBuilder deltas = new StringBuilder();
        try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(params)) {
            stream.stream().forEach(event -> {
                event.validate();
                accumulator.accumulate(event);
                event.outputTextDelta().ifPresent(d -> deltas.append(d.delta()));
            });
        }
        Response response = accumulator.response().validate();

        assertThat(reasoningText(response)).isEqualTo(REASONING);
        assertThat(outputText(response)).isEqualTo(ANSWER);
        assertThat(deltas).hasToString(ANSWER);
        ResponseUsage usage = response.usage().orElseThrow();
        assertThat(usage.inputTokens()).isEqualTo(40);
        assertThat(usage.outputTokens()).isEqualTo(30);
        assertThat(usage.outputTokensDetails().reasoningTokens()).isEqualTo(12);
    }

    @Test
    void responsesWholeCarryTheSameAnswer() {
        gateway.deepseek.always(deepSeekAnswer().toResponse());

        Response response = client.responses()
                .create(ResponseCreateParams.builder().model(DEEPSEEK).input("Weather in Paris?").build()).validate();

        assertThat(response.id()).isNotBlank();
        assertThat(reasoningText(response)).isEqualTo(REASONING);
        assertThat(outputText(response)).isEqualTo(ANSWER);
        assertThat(response.usage().orElseThrow().outputTokensDetails().reasoningTokens()).isEqualTo(12);
    }

    @Test
    @SuppressWarnings("deprecation") // _additionalProperties(): the only way openai-java shows reasoning_content
    void chatCompletionsStreamedCarryReasoningContentTextAndUsage() {
        gateway.deepseek.always(deepSeekAnswer().toResponse());
        // Usage comes in a stream only when asked for, as from OpenAI.
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder().model(DEEPSEEK)
                .addUserMessage("Weather in Paris?")
                .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build();

        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        StringBuilder reasoning = new StringBuilder();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params)) {
            stream.stream().forEach(chunk -> {
                chunk.validate();
                accumulator.accumulate(chunk);
                for (ChatCompletionChunk.Choice choice : chunk.choices()) {
                    reasoningContent(choice.delta()._additionalProperties()).ifPresent(reasoning::append);
                }
            });
        }
        ChatCompletion completion = accumulator.chatCompletion().validate();

        assertThat(reasoning).hasToString(REASONING);
        assertThat(completion.choices().get(0).message().content()).contains(ANSWER);
        assertThat(completion.usage().orElseThrow().completionTokensDetails().orElseThrow().reasoningTokens())
                .contains(12L);
    }

    @Test
    @SuppressWarnings("deprecation") // _additionalProperties(): the only way openai-java shows reasoning_content
    void chatCompletionsWholeCarryReasoningContent() {
        gateway.deepseek.always(deepSeekAnswer().toResponse());

        ChatCompletion completion = client.chat().completions().create(ChatCompletionCreateParams.builder()
                .model(DEEPSEEK).addUserMessage("Weather in Paris?").build()).validate();

        ChatCompletionMessage message = completion.choices().get(0).message();
        assertThat(message.content()).contains(ANSWER);
        assertThat(reasoningContent(message._additionalProperties())).contains(REASONING);
        assertThat(completion.usage().orElseThrow().promptTokens()).isEqualTo(40);
    }

    @Test
    @SuppressWarnings("deprecation") // _additionalProperties(): the only way openai-java shows reasoning_content
    void aChatCompletionsToolLoopSendsReasoningContentBackWhenTheUserPutsItBackAsAnAdditionalProperty() {
        gateway.deepseek.always(deepSeekToolCall().toResponse());
        ChatCompletionCreateParams first = ChatCompletionCreateParams.builder().model(DEEPSEEK)
                .addUserMessage("Weather in Paris?").build();

        ChatCompletionMessage message = client.chat().completions().create(first).validate().choices().get(0)
                .message();
        assertThat(reasoningContent(message._additionalProperties())).contains(REASONING);
        String callId = message.toolCalls().orElseThrow().get(0).asFunction().id();

        // openai-java turns the message into the assistant message it sends back (addMessage(message) does the same)
        // without its additional properties: reasoning_content is dropped unless the user puts it back, as here.
        ChatCompletionAssistantMessageParam asSent = message.toParam();
        assertThat(asSent._additionalProperties()).doesNotContainKey("reasoning_content");
        ChatCompletionAssistantMessageParam withReasoning = asSent.toBuilder()
                .putAdditionalProperty("reasoning_content", JsonValue.from(REASONING)).build();
        gateway.deepseek.always(deepSeekAnswer().toResponse());
        int before = gateway.deepseek.requests().size();
        ChatCompletion turn2 = client.chat().completions().create(first.toBuilder().addMessage(withReasoning)
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId(callId).content("{\"celsius\":21}")
                        .build()).build()).validate();

        assertThat(turn2.choices().get(0).message().content()).contains(ANSWER);
        RecordedRequest sent = gateway.deepseek.requests().get(before);
        assertThat(sent.rejectedBy()).as("DeepSeek's acceptance rules").isNull();
        JsonNode messages = JSON.readTree(sent.body()).path("messages");
        JsonNode assistant = messages.get(1);
        assertThat(assistant.path("role").asString()).isEqualTo("assistant");
        assertThat(assistant.path("reasoning_content").asString()).isEqualTo(REASONING);
        assertThat(assistant.path("tool_calls").get(0).path("id").asString()).isEqualTo(callId);
        assertThat(messages.get(2).path("role").asString()).isEqualTo("tool");
        assertThat(messages.get(2).path("tool_call_id").asString()).isEqualTo(callId);
    }

    @Test
    void aStreamedToolLoopOverARecordedDeepSeekAnswerSendsTheStreamedReasoningBack() {
        gateway.deepseek.always(EmulatorResponse.replay(GatewayHarness.fixture(RECORDED_DEEPSEEK_TOOL_CALL),
                "text/event-stream"));
        ResponseCreateParams first = ResponseCreateParams.builder().model(DEEPSEEK).input("What is the weather?")
                .store(false).build();
        StringBuilder summary = new StringBuilder();
        AtomicReference<Response> completed = new AtomicReference<>();
        try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(first)) {
            stream.stream().forEach(event -> {
                event.validate();
                event.reasoningSummaryTextDelta().ifPresent(d -> summary.append(d.delta()));
                event.completed().ifPresent(c -> completed.set(c.response()));
            });
        }
        Response turn1 = completed.get();
        assertThat(turn1).as("response.completed").isNotNull();
        turn1.validate();
        assertThat(summary).isNotEmpty();
        assertThat(reasoningText(turn1)).isEqualTo(summary.toString());
        String callId = calls(turn1).get(0).callId();

        List<ResponseInputItem> input = new ArrayList<>(List.of(user("What is the weather?")));
        turn1.output().forEach(item -> input.add(asInput(item)));
        input.add(ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput.builder().callId(callId)
                .output("{\"temperature\":21}").build()));
        int before = gateway.deepseek.requests().size();
        client.responses().create(ResponseCreateParams.builder().model(DEEPSEEK)
                .input(ResponseCreateParams.Input.ofResponse(input)).store(false).build()).validate();

        RecordedRequest sent = gateway.deepseek.requests().get(before);
        assertThat(sent.rejectedBy()).as("DeepSeek's acceptance rules").isNull();
        JsonNode assistant = JSON.readTree(sent.body()).path("messages").get(1);
        assertThat(assistant.path("reasoning_content").asString()).isEqualTo(summary.toString());
        assertThat(assistant.path("tool_calls").get(0).path("id").asString()).isEqualTo(callId);
    }

    @Test
    void aToolLoopOverResponsesSendsTheCallItsResultAndTheReasoningToDeepSeek() {
        gateway.deepseek.always(deepSeekToolCall().toResponse());
        List<ResponseInputItem> input = new ArrayList<>(List.of(user("Weather in Paris?")));

        Response turn1 = client.responses().create(ResponseCreateParams.builder().model(DEEPSEEK).addTool(weatherTool())
                .input(ResponseCreateParams.Input.ofResponse(input)).build()).validate();
        ResponseFunctionToolCall call = calls(turn1).get(0);
        assertThat(call.name()).isEqualTo("weather");
        assertThat(JSON.readTree(call.arguments()).path("city").asString()).isEqualTo("Paris");

        turn1.output().forEach(item -> input.add(asInput(item)));
        input.add(ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput.builder()
                .callId(call.callId()).output("{\"celsius\":21,\"sky\":\"sunny\"}").build()));
        gateway.deepseek.always(deepSeekAnswer().toResponse());
        int before = gateway.deepseek.requests().size();
        Response turn2 = client.responses().create(ResponseCreateParams.builder().model(DEEPSEEK).addTool(weatherTool())
                .input(ResponseCreateParams.Input.ofResponse(input)).build()).validate();

        assertThat(outputText(turn2)).isEqualTo(ANSWER);
        RecordedRequest sent = gateway.deepseek.requests().get(before);
        assertThat(sent.rejectedBy()).as("DeepSeek's acceptance rules").isNull();
        JsonNode messages = JSON.readTree(sent.body()).path("messages");
        JsonNode assistant = null;
        JsonNode tool = null;
        for (JsonNode m : messages) {
            if ("assistant".equals(m.path("role").asString())) {
                assistant = m;
            } else if ("tool".equals(m.path("role").asString())) {
                tool = m;
            }
        }
        assertThat(assistant).isNotNull();
        assertThat(assistant.path("reasoning_content").asString()).isEqualTo(REASONING);
        String upstreamCallId = assistant.path("tool_calls").get(0).path("id").asString();
        assertThat(assistant.path("tool_calls").get(0).path("function").path("name").asString()).isEqualTo("weather");
        assertThat(tool).isNotNull();
        assertThat(tool.path("tool_call_id").asString()).isEqualTo(upstreamCallId);
        assertThat(tool.path("content").asString()).contains("sunny");
    }

    @Test
    void storeFalseCarriesAnthropicsSignedThinkingThroughEncryptedContentByteForByte() {
        String thinking = "The user asks for Paris; I call the weather tool.";
        gateway.anthropic.always(AnthropicScript.create().model("claude-sonnet-4-20250514")
                .thinking(thinking, SIGNATURE).toolUse("toolu_01", "weather", "{\"city\":\"Paris\"}")
                .stopReason("tool_use").usage(50, 40).toResponse());
        List<ResponseInputItem> input = new ArrayList<>(List.of(user("Weather in Paris?")));

        Response turn1 = client.responses().create(ResponseCreateParams.builder().model(CLAUDE).addTool(weatherTool())
                .store(false).addInclude(ResponseIncludable.REASONING_ENCRYPTED_CONTENT)
                .input(ResponseCreateParams.Input.ofResponse(input)).build()).validate();
        ResponseReasoningItem reasoning = turn1.output().stream().filter(ResponseOutputItem::isReasoning)
                .map(ResponseOutputItem::asReasoning).findFirst().orElseThrow();
        String sealed = reasoning.encryptedContent().orElseThrow();
        assertThat(sealed).doesNotContain(SIGNATURE).doesNotContain(thinking);
        assertThat(reasoningText(turn1)).isEqualTo(thinking);

        turn1.output().forEach(item -> input.add(asInput(item)));
        input.add(ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput.builder()
                .callId(calls(turn1).get(0).callId()).output("{\"celsius\":21}").build()));
        gateway.anthropic.always(AnthropicScript.create().model("claude-sonnet-4-20250514").text(ANSWER)
                .stopReason("end_turn").usage(90, 12).toResponse());
        int before = gateway.anthropic.requests().size();
        Response turn2 = client.responses().create(ResponseCreateParams.builder().model(CLAUDE).addTool(weatherTool())
                .store(false).addInclude(ResponseIncludable.REASONING_ENCRYPTED_CONTENT)
                .input(ResponseCreateParams.Input.ofResponse(input)).build()).validate();

        assertThat(outputText(turn2)).isEqualTo(ANSWER);
        RecordedRequest sent = gateway.anthropic.requests().get(before);
        assertThat(sent.rejectedBy()).as("Anthropic's acceptance rules").isNull();
        assertThat(sent.body()).doesNotContain(sealed);
        JsonNode assistant = null;
        for (JsonNode m : JSON.readTree(sent.body()).path("messages")) {
            if ("assistant".equals(m.path("role").asString())) {
                assistant = m;
            }
        }
        assertThat(assistant).isNotNull();
        JsonNode first = assistant.path("content").get(0);
        assertThat(first.path("type").asString()).isEqualTo("thinking");
        assertThat(first.path("thinking").asString()).isEqualTo(thinking);
        assertThat(first.path("signature").asString()).isEqualTo(SIGNATURE);
        assertThat(assistant.path("content").get(1).path("type").asString()).isEqualTo("tool_use");
        assertThat(lastRequest(gateway.anthropic.requests()).body()).contains("tool_result");
    }
}
