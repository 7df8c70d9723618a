package dev.ruminate.providers.bedrock;

import static dev.ruminate.providers.testing.GoldenRequests.AUTO_INSTRUCTION;
import static dev.ruminate.providers.testing.GoldenRequests.OUTPUT;
import static dev.ruminate.providers.testing.GoldenRequests.PDF;
import static dev.ruminate.providers.testing.GoldenRequests.PNG;
import static dev.ruminate.providers.testing.GoldenRequests.SCHEMA;
import static dev.ruminate.providers.testing.GoldenRequests.TOOL_DESCRIPTION;
import static dev.ruminate.providers.testing.GoldenRequests.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.spi.UnsupportedInput;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.GoldenRequests;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Golden Converse request bodies for issue 18's features: structured output (tool forced, tool auto
 * with thinking, the native form when asked), images and documents, cache points; the warnings for
 * every option the encoder ignores or coerces; cache usage decoding.
 */
class BedrockRequestFeaturesGoldensTest {

    /** For the schema as a JSON string, the form Converse takes it in. */
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final BedrockCodec CODEC = BedrockCodec.of("bedrock");

    private final GoldenRequests golden = new GoldenRequests(CODEC);

    private static final String SONNET_4 = "us.anthropic.claude-sonnet-4-20250514-v1:0";

    // ---- structured output

    @Test
    void withThinkingOffTheOutputToolIsForced() {
        ChatRequest request = ChatRequest.builder(SONNET_4).user("Where?").output(OUTPUT).build();

        assertThat(golden.encode(request)).isEqualTo(json("""
                {"messages":[{"role":"user","content":[{"text":"Where?"}]}],
                 "toolConfig":{"tools":[{"toolSpec":{"name":"answer","description":"%s","inputSchema":{"json":%s}}}],
                               "toolChoice":{"tool":{"name":"answer"}}}}""".formatted(TOOL_DESCRIPTION, SCHEMA)));
        assertThat(CODEC.structuredOutputMethod(request)).isEqualTo(StructuredOutputMethod.TOOL_FORCED);
    }

    @Test
    void withThinkingOnTheOutputToolIsOfferedWithAutoAndTheInstruction() {
        ChatRequest request = ChatRequest.builder(SONNET_4).system("Be brief.").user("Where?").output(OUTPUT)
                .reasoning(ReasoningOptions.budget(2048)).build();

        assertThat(golden.encode(request)).isEqualTo(json("""
                {"messages":[{"role":"user","content":[{"text":"Where?"}]}],
                 "system":[{"text":"Be brief."},{"text":"%s"}],
                 "toolConfig":{"tools":[{"toolSpec":{"name":"answer","description":"%s","inputSchema":{"json":%s}}}],
                               "toolChoice":{"auto":{}}},
                 "additionalModelRequestFields":{"thinking":{"type":"enabled","budget_tokens":2048}}}"""
                .formatted(AUTO_INSTRUCTION, TOOL_DESCRIPTION, SCHEMA)));
        assertThat(CODEC.structuredOutputMethod(request)).isEqualTo(StructuredOutputMethod.TOOL_AUTO);
    }

    @Test
    void adaptiveThinkingCountsAsThinkingOn() {
        ChatRequest request = ChatRequest.builder("us.anthropic.claude-sonnet-4-6").user("Where?")
                .output(OUTPUT.withStrategy(OutputSchema.Strategy.TOOL)).reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH))
                .build();

        assertThat(golden.encode(request).get("toolConfig").get("toolChoice")).isEqualTo(json("{\"auto\":{}}"));
        assertThat(CODEC.structuredOutputMethod(request)).isEqualTo(StructuredOutputMethod.TOOL_AUTO);
    }

    @Test
    void theNativeStrategyWritesOutputConfigTextFormatWithTheSchemaAsAString() {
        OutputSchema described = new OutputSchema("answer", SCHEMA, "The city.", true, OutputSchema.Strategy.NATIVE);
        ChatRequest request = ChatRequest.builder(SONNET_4).user("Where?").output(described).build();

        JsonNode body = golden.encode(request);

        assertThat(body).isEqualTo(json("""
                {"messages":[{"role":"user","content":[{"text":"Where?"}]}],
                 "outputConfig":{"textFormat":{"type":"json_schema","structure":{"jsonSchema":
                   {"schema":%s,"name":"answer","description":"The city."}}}}}""".formatted(MAPPER.writeValueAsString(SCHEMA))));
        assertThat(body.get("outputConfig").get("textFormat").get("structure").get("jsonSchema").get("schema").isString()).isTrue();
        assertThat(CODEC.structuredOutputMethod(request)).isEqualTo(StructuredOutputMethod.NATIVE);
    }

    // ---- images and documents

    @Test
    void imagesAndDocumentsGoBeforeTheTextWithFormatsAndSafeNames() {
        ChatRequest request = ChatRequest.builder(SONNET_4)
                .user("Compare.", Media.image(PNG, "image/png"), Media.imageUrl("s3://bucket/photos/a.JPG", null),
                        Media.document(PDF, "application/pdf", "Q3 report.pdf"), Media.document(PDF, "application/pdf", null),
                        Media.documentUrl("s3://bucket/notes.md", "text/markdown", "notes:  draft/1"))
                .build();

        assertThat(golden.encode(request)).isEqualTo(json("""
                {"messages":[{"role":"user","content":[
                  {"image":{"format":"png","source":{"bytes":"iVBORw=="}}},
                  {"image":{"format":"jpeg","source":{"s3Location":{"uri":"s3://bucket/photos/a.JPG"}}}},
                  {"document":{"format":"pdf","name":"Q3 report-pdf","source":{"bytes":"JVBERi0xLjc="}}},
                  {"document":{"format":"pdf","name":"document-2","source":{"bytes":"JVBERi0xLjc="}}},
                  {"document":{"format":"md","name":"notes- draft-1","source":{"s3Location":{"uri":"s3://bucket/notes.md"}}}},
                  {"text":"Compare."}]}]}"""));
    }

    @Test
    void documentNamesAreMadeUnique() {
        Set<String> used = new HashSet<>();
        assertThat(BedrockMedia.uniqueName("a", 1, used)).isEqualTo("a");
        assertThat(BedrockMedia.uniqueName("a", 2, used)).isEqualTo("a (2)");
        assertThat(BedrockMedia.uniqueName("...", 3, used)).isEqualTo("---");
        assertThat(BedrockMedia.uniqueName("   ", 4, used)).isEqualTo("document-4");
    }

    @Test
    void aToolResultTakesAnImage() {
        ChatRequest request = ChatRequest.builder(SONNET_4).user("Screenshot?")
                .message(new AssistantMessage(List.of(new ToolCallPart("tu_1", "shot", "{}", true, Seals.NONE)), "bedrock", SONNET_4,
                        FinishReason.TOOL_CALLS, "tool_use", Usage.UNKNOWN))
                .message(new ToolResultMessage("tu_1", "shot", "the screen", false, List.of(Media.image(PNG, "image/png"))))
                .build();

        assertThat(golden.encode(request).get("messages").get(2)).isEqualTo(json("""
                {"role":"user","content":[{"toolResult":{"toolUseId":"tu_1","content":[
                  {"image":{"format":"png","source":{"bytes":"iVBORw=="}}},{"text":"the screen"}],"status":"success"}}]}"""));
    }

    @Test
    void mediaConverseDoesNotTakeAreRefusedNamingThePlace() {
        assertRefused(ChatRequest.builder(SONNET_4).user("x", Media.imageUrl("https://example.com/a.png", "image/png")).build(),
                UnsupportedInputException.Reason.SOURCE, "message 0, media 0: image image/png is given by a https: URL");
        assertRefused(ChatRequest.builder(SONNET_4).user("x", Media.image(PNG, "image/bmp")).build(),
                UnsupportedInputException.Reason.MEDIA_TYPE, "message 0, media 0: image image/bmp");
        assertRefused(ChatRequest.builder(SONNET_4).user("x", Media.image(new byte[3_932_161], "image/png")).build(),
                UnsupportedInputException.Reason.TOO_LARGE, "has 3932161 bytes: Converse takes images of at most 3.75 MB");
        assertRefused(ChatRequest.builder(SONNET_4).user("x", Media.document(new byte[4_718_593], "application/pdf", null)).build(),
                UnsupportedInputException.Reason.TOO_LARGE, "documents of at most 4.5 MB");
        Media[] six = new Media[6];
        for (int i = 0; i < six.length; i++) {
            six[i] = Media.document(PDF, "application/pdf", null);
        }
        assertRefused(ChatRequest.builder(SONNET_4).user("x", six).build(), UnsupportedInputException.Reason.TOO_LARGE,
                "6 documents: Converse takes at most 5 per request");
        Media[] images = new Media[21];
        for (int i = 0; i < images.length; i++) {
            images[i] = Media.image(PNG, "image/png");
        }
        assertRefused(ChatRequest.builder(SONNET_4).user("x", images).build(), UnsupportedInputException.Reason.TOO_LARGE,
                "21 images: Converse takes at most 20 per request");
    }

    private void assertRefused(ChatRequest request, UnsupportedInputException.Reason reason, String detail) {
        assertThatThrownBy(() -> CODEC.encode(request, false, golden.warnings())).isInstanceOfSatisfying(UnsupportedInput.class, e -> {
            assertThat(e.reason()).isEqualTo(reason);
            assertThat(e.getMessage()).contains(detail);
        });
    }

    // ---- cache points

    @Test
    void cachePointsFollowTheSystemTheToolsAndTheMarkedMessages() {
        ChatRequest request = ChatRequest.builder(SONNET_4).system("Be brief.").user("One.").message(AssistantMessage.ofText("Two."))
                .user("Three.").tool(new ToolDefinition("weather", "", "{\"type\":\"object\"}"))
                .caching(new PromptCaching(true, true, List.of(2), true, PromptCaching.Ttl.ONE_HOUR, "tenant-7")).build();

        assertThat(golden.encode(request)).isEqualTo(json("""
                {"messages":[{"role":"user","content":[{"text":"One."}]},
                             {"role":"assistant","content":[{"text":"Two."},{"cachePoint":{"type":"default"}}]},
                             {"role":"user","content":[{"text":"Three."},{"cachePoint":{"type":"default"}}]}],
                 "system":[{"text":"Be brief."},{"cachePoint":{"type":"default"}}],
                 "toolConfig":{"tools":[{"toolSpec":{"name":"weather","inputSchema":{"json":{"type":"object"}}}},
                                        {"cachePoint":{"type":"default"}}]}}"""));
        assertThat(golden.warningTexts()).containsExactly(
                "option-ignored: prompt cache key not sent: Converse has no cache routing key",
                "option-ignored: cache ttl ONE_HOUR not sent: Converse's cachePoint is written without a ttl");
    }

    // ---- warnings

    @Test
    void anEffortOnAModelWithoutAdaptiveThinkingIsSentAsABudgetAndReported() {
        JsonNode body = golden.encode(ChatRequest.builder(SONNET_4).user("U").reasoning(ReasoningOptions.effort(ReasoningEffort.MEDIUM))
                .sampling(new SamplingOptions(0.7, 0.99, null, List.of(), 3L)).build());

        assertThat(body.get("additionalModelRequestFields")).isEqualTo(json("{\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":4096}}"));
        assertThat(body.get("inferenceConfig")).isEqualTo(json("{\"topP\":0.99}"));
        assertThat(golden.warningTexts()).containsExactly(
                "option-coerced: reasoning effort medium sent as thinking.budget_tokens 4096: " + SONNET_4
                        + " takes a thinking budget, not an effort level",
                "option-ignored: temperature 0.7 not sent: Claude takes no temperature other than 1 while thinking is on",
                "option-ignored: seed not sent: Converse has no seed");
    }

    @Test
    void anotherFamilysEffortAboveHighIsReported() {
        JsonNode body = golden.encode(ChatRequest.builder("qwen.qwen3-32b-v1:0").user("U").reasoning(ReasoningOptions.effort(ReasoningEffort.MAX))
                .build());

        assertThat(body.get("additionalModelRequestFields")).isEqualTo(json("{\"reasoning_config\":\"high\"}"));
        assertThat(golden.warningTexts()).containsExactly(
                "option-coerced: reasoning effort max sent as reasoning_config high: it has no level above high");
    }

    @Test
    void aSmallBudgetIsRaisedAndReported() {
        JsonNode body = golden.encode(ChatRequest.builder(SONNET_4).user("U").reasoning(ReasoningOptions.budget(100)).build());

        assertThat(body.get("additionalModelRequestFields").get("thinking").get("budget_tokens").asInt()).isEqualTo(1024);
        assertThat(golden.warningTexts()).containsExactly(
                "option-coerced: reasoning budgetTokens 100 sent as 1024: thinking.budget_tokens must be at least 1024");
    }

    // ---- usage

    @Test
    void cacheReadsAndWritesAreReadFromABody() {
        String body = "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":\"Hi\"}]}},\"stopReason\":\"end_turn\","
                + "\"usage\":{\"inputTokens\":12,\"outputTokens\":3,\"totalTokens\":6159,\"cacheReadInputTokens\":4096,"
                + "\"cacheWriteInputTokens\":2048}}";

        List<Usage> usages = BedrockCodec.decodeResponse("bedrock", SONNET_4, body.getBytes(StandardCharsets.UTF_8))
                .ofType(UsageUpdate.class).map(UsageUpdate::usage).collectList().block();

        assertThat(usages).containsExactly(new Usage(12L, 3L, null, 4096L, 2048L));
    }

    @Test
    void aRecordedBodysZeroCacheCountsAreZeroNotUnknown() {
        byte[] body = Recorded.bytes("bedrock/pydantic-bedrock-claude-adaptive-effort.turn1.json");

        Usage usage = BedrockFixturesTest.reduce(BedrockCodec.decodeResponse("bedrock", SONNET_4, body).collectList().block())
                .message().usage();

        assertThat(usage.cachedTokens()).isEqualTo(0L);
        assertThat(usage.cacheWriteTokens()).isEqualTo(0L);
    }
}
