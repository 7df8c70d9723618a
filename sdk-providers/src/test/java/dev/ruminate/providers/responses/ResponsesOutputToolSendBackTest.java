package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.testkit.ResponsesScript;
import dev.ruminate.transport.http.ApiKey;
import java.time.Duration;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The output tool's call, which the pipeline turns into answer text, sent back in a later turn on
 * the Responses API: the {@code function_call} item's {@code fc_} id must not ride on the assistant
 * message the text becomes (the API refuses a message item with a function call's id), and the
 * reasoning item before it keeps its id and encrypted content, against the checking emulator.
 */
@ExtendWith(NettyLeakCheck.class)
class ResponsesOutputToolSendBackTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},"
            + "\"required\":[\"city\"],\"additionalProperties\":false}";
    private static final String VALID = "{\"city\":\"Paris\"}";

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    @Test
    void theOutputToolsCallBecomesTextThatGoesBackWithoutTheFunctionCallsItemId() {
        emulator.checking(AcceptanceRules.responses());
        emulator.enqueue(ResponsesScript.create().model("o3").reasoning("rs_1", "enc-1", "Thinking.")
                .functionCall("call_1", "answer", VALID).toResponse());
        emulator.enqueue(ResponsesScript.create().model("o3").text("You are welcome.").toResponse());
        ResponsesProvider provider = ResponsesProvider.builder(ResponsesProfiles.OPENAI)
                .baseUrl(emulator.baseUrl() + "/v1").apiKey(ApiKey.of("sk-test-1")).build();
        ChatRequest first = ChatRequest.builder("o3").user("Capital of France?")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH))
                .output(OutputSchema.of("answer", SCHEMA).withStrategy(OutputSchema.Strategy.TOOL)).build();

        ChatResult result = Objects.requireNonNull(ChatReducer.defaults().reduce(provider.stream(first)).block(WAIT));

        assertThat(result.output()).isNotNull();
        assertThat(Objects.requireNonNull(result.output()).method()).isEqualTo(StructuredOutputMethod.TOOL_FORCED);
        assertThat(Objects.requireNonNull(result.output()).valid()).isTrue();
        AssistantMessage answer = result.message();
        assertThat(answer.parts()).hasSize(2);
        assertThat(answer.parts().get(0)).isInstanceOf(ReasoningPart.class);
        assertThat(answer.parts().get(1)).isInstanceOf(TextPart.class);
        assertThat(answer.text()).isEqualTo(VALID);

        ChatResult next = Objects.requireNonNull(ChatReducer.defaults().reduce(provider.stream(
                ChatRequest.builder("o3").user("Capital of France?").message(answer).user("Thanks")
                        .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).build())).block(WAIT));

        assertThat(next.message().text()).isEqualTo("You are welcome.");
        assertThat(emulator.requests()).extracting(RecordedRequest::rejectedBy).containsExactly(null, null);
        JsonNode input = MAPPER.readTree(emulator.requests().get(1).body()).get("input");
        assertThat(input.size()).isEqualTo(4);
        assertThat(input.get(1).get("type").asString()).isEqualTo("reasoning");
        assertThat(input.get(1).get("id").asString()).isEqualTo("rs_1");
        assertThat(input.get(1).get("encrypted_content").asString()).isEqualTo("enc-1");
        JsonNode text = input.get(2);
        assertThat(text.get("role").asString()).isEqualTo("assistant");
        assertThat(text.get("content").asString()).isEqualTo(VALID);
        assertThat(text.has("id")).isFalse();
        assertThat(input.toString()).doesNotContain("fc_").doesNotContain("function_call");
    }
}
