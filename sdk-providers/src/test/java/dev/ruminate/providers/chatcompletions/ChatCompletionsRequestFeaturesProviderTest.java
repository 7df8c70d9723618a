package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.error.UnsupportedInputException.Reason;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.DeepSeekForcedToolChoiceRule;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The 0.3 request features over real HTTP: bad input refused before any request is made, the
 * structured-output negotiation with DeepSeek's thinking mode against the checking emulator, and
 * warnings reaching the result.
 */
@ExtendWith(NettyLeakCheck.class)
class ChatCompletionsRequestFeaturesProviderTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10};
    private static final OutputSchema CITY = OutputSchema.of("city",
            "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"]}");

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private Emulated.Reduced stream(CompatProfile profile, ChatRequest request) {
        return Emulated.reduce(Emulated.provider(emulator, profile).build().stream(request));
    }

    private void refusedBeforeSending(CompatProfile profile, ChatRequest request, Reason reason) {
        emulator.always(ChatCompletionsScript.create().content("never served").toResponse());

        RuminateException error = stream(profile, request).failed();

        assertThat(error).isInstanceOfSatisfying(UnsupportedInputException.class, e -> {
            assertThat(e.reason()).isEqualTo(reason);
            assertThat(e.getMessage()).startsWith("cannot encode the request for " + profile.name() + ": ");
        });
        assertThat(emulator.requests()).isEmpty();
    }

    @Test
    void anUnsupportedImageTypeIsRefusedBeforeAnyRequest() {
        refusedBeforeSending(Profiles.OPENAI, ChatRequest.builder("gpt-4.1").user("what?", Media.image(PNG, "image/heic")).build(),
                Reason.MEDIA_TYPE);
    }

    @Test
    void anOversizedImageIsRefusedBeforeAnyRequest() {
        refusedBeforeSending(Profiles.OPENAI, ChatRequest.builder("gpt-4.1")
                .user("what?", Media.image(new byte[20 * 1024 * 1024 + 1], "image/png")).build(), Reason.TOO_LARGE);
    }

    @Test
    void aDocumentOnAProfileWithoutFilesIsRefusedBeforeAnyRequest() {
        refusedBeforeSending(Profiles.GROQ, ChatRequest.builder("m")
                .user("summarise", Media.document("%PDF".getBytes(java.nio.charset.StandardCharsets.US_ASCII), "application/pdf", "a.pdf"))
                .build(), Reason.KIND);
    }

    @Test
    void mediaInAToolResultIsRefusedBeforeAnyRequest() {
        refusedBeforeSending(Profiles.OPENAI, ChatRequest.builder("gpt-4.1").user("go")
                .message(new ToolResultMessage("c1", "shot", "done", false, List.of(Media.image(PNG, "image/png")))).build(), Reason.KIND);
    }

    @Test
    void theNativeStrategyOnAJsonObjectOnlyProfileIsRefusedBeforeAnyRequest() {
        refusedBeforeSending(Profiles.DEEPSEEK, ChatRequest.builder("deepseek-v4-flash").user("capital of France?")
                .output(CITY.withStrategy(OutputSchema.Strategy.NATIVE)).build(), Reason.KIND);
    }

    @Test
    void anImageOnTextOnlyDeepSeekIsRefusedBeforeAnyRequest() {
        refusedBeforeSending(Profiles.DEEPSEEK, ChatRequest.builder("deepseek-chat").user("what?", Media.image(PNG, "image/png")).build(),
                Reason.KIND);
    }

    /**
     * DeepSeek refuses a forced tool choice in thinking mode: the output schema goes as JSON mode
     * (AUTO) or as a tool with {@code tool_choice: auto} (TOOL), which the checking emulator accepts,
     * while a hand-built forced choice in the same mode is refused with DeepSeek's 400.
     */
    @Test
    void deepSeekThinkingWithAnOutputSchemaIsAcceptedWhereAForcedToolIsRefused() {
        emulator.checking(AcceptanceRules.deepSeek());
        emulator.always(ChatCompletionsScript.create().model("deepseek-v4-flash").reasoning("France's capital.")
                .content("{\"name\":\"Paris\"}").toResponse());
        ChatRequest.Builder thinking = ChatRequest.builder("deepseek-v4-flash").user("Capital of France?")
                .reasoning(new ReasoningOptions(true, null, null, null));

        ChatResult jsonMode = stream(Profiles.DEEPSEEK, thinking.output(CITY).build()).ok();
        ChatResult toolAuto = stream(Profiles.DEEPSEEK, thinking.output(CITY.withStrategy(OutputSchema.Strategy.TOOL)).build()).ok();
        RuminateException forced = stream(Profiles.DEEPSEEK, thinking.output(null)
                .tool(new ToolDefinition("city", "answer", CITY.schema()))
                .extra("tool_choice", Map.of("type", "function", "function", Map.of("name", "city"))).build()).failed();

        assertThat(jsonMode.message().text()).isEqualTo("{\"name\":\"Paris\"}");
        assertThat(toolAuto.message().text()).isEqualTo("{\"name\":\"Paris\"}");
        List<RecordedRequest> sent = emulator.requests();
        assertThat(sent).hasSize(3);
        JsonNode first = MAPPER.readTree(sent.get(0).body());
        assertThat(first.get("response_format").toString()).isEqualTo("{\"type\":\"json_object\"}");
        assertThat(first.has("tool_choice")).isFalse();
        assertThat(sent.get(0).rejectedBy()).isNull();
        JsonNode second = MAPPER.readTree(sent.get(1).body());
        assertThat(second.get("tool_choice").stringValue()).isEqualTo("auto");
        assertThat(second.get("tools").get(0).get("function").get("name").stringValue()).isEqualTo("city");
        assertThat(sent.get(1).rejectedBy()).isNull();
        assertThat(forced).isInstanceOfSatisfying(ProviderHttpException.class, e -> assertThat(e.status()).isEqualTo(400));
        assertThat(sent.get(2).rejectedBy()).isEqualTo(DeepSeekForcedToolChoiceRule.NAME);
    }

    @Test
    void warningsReachTheResultBeforeTheAnswer() {
        emulator.enqueue(ChatCompletionsScript.create().model("o3").content("Hi").toResponse());

        ChatResult result = stream(Profiles.OPENAI, ChatRequest.builder("o3").user("hi")
                .sampling(new SamplingOptions(0.2, null, null, List.of(), null)).build()).ok();

        assertThat(result.warnings()).singleElement().satisfies(w -> {
            assertThat(w.code()).isEqualTo(Warning.OPTION_IGNORED);
            assertThat(w.message()).contains("refuses temperature and top_p");
        });
        assertThat(MAPPER.readTree(emulator.requests().get(0).body()).has("temperature")).isFalse();
    }
}
