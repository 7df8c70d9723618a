package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.StructuredOutput;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.http.ApiKey;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The example of {@code docs/requests.md} (a request with an image and an output schema) compiles and
 * runs against an emulator on loopback, and the guide shows it as written here: the lines between
 * the {@code guide:} markers below are the guide's {@code java} block that follows its
 * {@code <!-- example: RequestsGuideExampleTest -->} comment. It lives in the cli module, the one that
 * depends on the core, the providers and the testkit together.
 */
@ExtendWith(NettyLeakCheck.class)
class RequestsGuideExampleTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The guide's example, as a method: {@code openai} and {@code photo} are what the guide's text introduces. */
    static ChatResult receipt(ChatProvider openai, byte[] photo) {
        // guide:start RequestsGuideExampleTest
        ChatRequest request = ChatRequest.builder("gpt-5-mini")
                .user("What is the total on this receipt?", Media.image(photo, "image/png"))
                .output(OutputSchema.of("receipt", """
                        {"type": "object",
                         "properties": {"total": {"type": "number"}, "currency": {"type": "string"}},
                         "required": ["total", "currency"], "additionalProperties": false}
                        """))
                .build();
        ChatResult result = ChatReducer.defaults().reduce(openai.stream(request)).block();
        StructuredOutput output = result.output();            // the verdict on the answer
        if (output.valid()) {
            String json = output.json();                      // {"total":42.5,"currency":"EUR"}
            System.out.println(json + " (" + output.method() + ")");   // NATIVE: response_format json_schema
        } else {
            output.violations().forEach(System.err::println); // "$.total: ..." per violation
        }
        result.warnings().forEach(w -> System.err.println(w.code() + ": " + w.message()));
        // guide:end RequestsGuideExampleTest
        return result;
    }

    @Test
    void theExampleRunsAndReadsTheAnswer() {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(ChatCompletionsScript.create().model("gpt-5-mini")
                    .content("{\"total\":42.5,\"currency\":\"EUR\"}").usage(120, 12, 0).toResponse());
            ChatProvider openai = ChatCompletionsProvider.builder(Profiles.OPENAI)
                    .baseUrl(emulator.baseUrl()).apiKey(ApiKey.of("emulator-key")).build();

            ChatResult result = receipt(openai, TestFiles.PNG);

            assertThat(result.message().text()).isEqualTo("{\"total\":42.5,\"currency\":\"EUR\"}");
            assertThat(result.output()).isEqualTo(new StructuredOutput("receipt", StructuredOutputMethod.NATIVE, true,
                    List.of(), 1, "{\"total\":42.5,\"currency\":\"EUR\"}"));
            assertThat(emulator.requests()).hasSize(1);
            assertThat(emulator.requests().get(0).body()).contains("What is the total on this receipt?");
        }
    }

    @Test
    void theExampleSendsTheImageAndTheSchemaInTheChatCompletionsForm() {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(ChatCompletionsScript.create().model("gpt-5-mini")
                    .content("{\"total\":42.5,\"currency\":\"EUR\"}").toResponse());
            ChatProvider openai = ChatCompletionsProvider.builder(Profiles.OPENAI)
                    .baseUrl(emulator.baseUrl()).apiKey(ApiKey.of("emulator-key")).build();

            receipt(openai, TestFiles.PNG);

            JsonNode body = JSON.readTree(emulator.requests().get(0).body());
            assertThat(RequestOptionsCommandTest.strings(body, s -> s.equals("data:image/png;base64,"
                    + TestFiles.base64(TestFiles.PNG)))).hasSize(1);
            JsonNode format = body.get("response_format");
            assertThat(format.get("type").stringValue()).isEqualTo("json_schema");
            assertThat(format.get("json_schema").get("name").stringValue()).isEqualTo("receipt");
            assertThat(format.get("json_schema").get("schema").get("required").toString()).contains("total", "currency");
        }
    }

    @Test
    void theGuideShowsTheExampleAsWrittenHere() {
        List<String> code = GuideBlocks.inSource("RequestsGuideExampleTest", "RequestsGuideExampleTest");
        assertThat(GuideBlocks.inGuide("requests.md", "RequestsGuideExampleTest")).isNotEmpty().isEqualTo(code);
    }
}
