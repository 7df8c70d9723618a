package dev.ruminate.providers.anthropic;

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
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.spi.UnsupportedInput;
import dev.ruminate.providers.testing.GoldenRequests;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * Golden request bodies of the Messages API for issue 18's features: structured output (native,
 * tool forced, tool auto with thinking), images and documents, cache breakpoints; and the warnings
 * for every option the encoder ignores or coerces. Each body is compared whole, as a JSON tree.
 */
class AnthropicRequestFeaturesGoldensTest {

    private static final AnthropicCodec CODEC = AnthropicCodec.of(1000);

    private final GoldenRequests golden = new GoldenRequests(CODEC);


    // ---- structured output

    @Test
    void aModelWithTheNativeFormGetsOutputConfigFormatMergedWithTheEffort() {
        ChatRequest request = ChatRequest.builder("claude-opus-4-6").user("Where?").output(OUTPUT)
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).build();

        assertThat(golden.encode(request)).isEqualTo(json("""
                {"model":"claude-opus-4-6","max_tokens":1000,
                 "messages":[{"role":"user","content":[{"type":"text","text":"Where?"}]}],
                 "thinking":{"type":"adaptive"},
                 "output_config":{"effort":"high","format":{"type":"json_schema","schema":%s}}}""".formatted(SCHEMA)));
        assertThat(CODEC.structuredOutputMethod(request)).isEqualTo(StructuredOutputMethod.NATIVE);
        assertThat(golden.warnings().isEmpty()).isTrue();
    }

    @Test
    void withoutTheNativeFormAndThinkingOffTheOutputToolIsForced() {
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-0").system("Be brief.").user("Where?").output(OUTPUT).build();

        assertThat(golden.encode(request)).isEqualTo(json("""
                {"model":"claude-sonnet-4-0","max_tokens":1000,"system":"Be brief.",
                 "messages":[{"role":"user","content":[{"type":"text","text":"Where?"}]}],
                 "tools":[{"name":"answer","description":"%s","input_schema":%s}],
                 "tool_choice":{"type":"tool","name":"answer"}}""".formatted(TOOL_DESCRIPTION, SCHEMA)));
        assertThat(CODEC.structuredOutputMethod(request)).isEqualTo(StructuredOutputMethod.TOOL_FORCED);
    }

    @Test
    void withThinkingOnTheOutputToolIsOfferedWithAutoAndTheInstruction() {
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-0").system("Be brief.").user("Where?").output(OUTPUT)
                .reasoning(ReasoningOptions.budget(2048)).build();

        assertThat(golden.encode(request)).isEqualTo(json("""
                {"model":"claude-sonnet-4-0","max_tokens":1000,
                 "system":[{"type":"text","text":"Be brief."},{"type":"text","text":"%s"}],
                 "messages":[{"role":"user","content":[{"type":"text","text":"Where?"}]}],
                 "tools":[{"name":"answer","description":"%s","input_schema":%s}],
                 "tool_choice":{"type":"auto"},
                 "thinking":{"type":"enabled","budget_tokens":2048}}""".formatted(AUTO_INSTRUCTION, TOOL_DESCRIPTION, SCHEMA)));
        assertThat(CODEC.structuredOutputMethod(request)).isEqualTo(StructuredOutputMethod.TOOL_AUTO);
    }

    @Test
    void theToolStrategyOnANativeModelWithAdaptiveThinkingIsAutoToo() {
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-6").user("Where?")
                .output(OUTPUT.withStrategy(OutputSchema.Strategy.TOOL)).reasoning(ReasoningOptions.effort(ReasoningEffort.LOW))
                .build();

        JsonNode body = golden.encode(request);

        assertThat(body.get("tool_choice")).isEqualTo(json("{\"type\":\"auto\"}"));
        assertThat(body.has("output_config")).isTrue();
        assertThat(body.get("output_config").has("format")).isFalse();
        assertThat(CODEC.structuredOutputMethod(request)).isEqualTo(StructuredOutputMethod.TOOL_AUTO);
    }

    @Test
    void theNativeStrategyOnAModelWithoutItIsRefusedBeforeAnythingIsWritten() {
        ChatRequest request = ChatRequest.builder("claude-3-7-sonnet-20250219").user("Where?")
                .output(OUTPUT.withStrategy(OutputSchema.Strategy.NATIVE)).build();

        assertThatThrownBy(() -> CODEC.encode(request, false, golden.warnings())).isInstanceOfSatisfying(UnsupportedInput.class,
                e -> assertThat(e.reason()).isEqualTo(UnsupportedInputException.Reason.KIND));
        assertThatThrownBy(() -> CODEC.structuredOutputMethod(request)).isInstanceOf(UnsupportedInput.class);
    }

    @ParameterizedTest
    @CsvSource({
        "claude-sonnet-4-5, true", "claude-sonnet-4-5-20250929, true", "claude-haiku-4-5, true", "claude-opus-4-1, true",
        "claude-opus-4-1-20250805, true", "claude-opus-4-5, true", "claude-opus-4-6, true", "claude-opus-4-7, true",
        "claude-sonnet-4-6, true", "claude-sonnet-5, true", "claude-haiku-5-1, true",
        "claude-sonnet-4-0, false", "claude-sonnet-4-20250514, false", "claude-opus-4-0, false", "claude-opus-4-20250514, false",
        "claude-3-7-sonnet-20250219, false", "claude-3-5-haiku-latest, false", "claude-haiku-4-0, false", "gpt-5, false"})
    void theNativeFormIsReadFromTheModelId(String model, boolean expected) {
        assertThat(AnthropicStructuredOutput.hasNativeForm(model)).isEqualTo(expected);
    }

    // ---- images and documents

    @Test
    void imagesAndDocumentsGoBeforeTheTextInTheirBlockForms() {
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-5")
                .user("Compare.", Media.image(PNG, "image/png"), Media.imageUrl("https://example.com/a.jpg", "image/jpeg"),
                        Media.document(PDF, "application/pdf", "Q3 report"), Media.documentUrl("https://example.com/b.pdf", null, null),
                        Media.document("plain words".getBytes(StandardCharsets.UTF_8), "text/plain", "notes.txt"))
                .build();

        assertThat(golden.encode(request)).isEqualTo(json("""
                {"model":"claude-sonnet-4-5","max_tokens":1000,"messages":[{"role":"user","content":[
                  {"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw=="}},
                  {"type":"image","source":{"type":"url","url":"https://example.com/a.jpg"}},
                  {"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0xLjc="},"title":"Q3 report"},
                  {"type":"document","source":{"type":"url","url":"https://example.com/b.pdf"}},
                  {"type":"document","source":{"type":"text","media_type":"text/plain","data":"plain words"},"title":"notes.txt"},
                  {"type":"text","text":"Compare."}]}]}"""));
    }

    @Test
    void aToolResultWithAnImageHasContentBlocks() {
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-5").user("Screenshot?")
                .message(new dev.ruminate.core.message.AssistantMessage(List.of(new dev.ruminate.core.message.ToolCallPart(
                        "toolu_1", "shot", "{}", true, dev.ruminate.core.message.Seals.NONE)), "anthropic", "claude-sonnet-4-5",
                        dev.ruminate.core.message.FinishReason.TOOL_CALLS, "tool_use", dev.ruminate.core.message.Usage.UNKNOWN))
                .message(new ToolResultMessage("toolu_1", "shot", "the screen", false, List.of(Media.image(PNG, "image/png"))))
                .build();

        assertThat(golden.encode(request).get("messages").get(2)).isEqualTo(json("""
                {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[
                  {"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw=="}},
                  {"type":"text","text":"the screen"}],"is_error":false}]}"""));
    }

    @Test
    void mediaTheApiDoesNotTakeAreRefusedNamingThePlace() {
        assertRefused(ChatRequest.builder("claude-sonnet-4-5").user("x", Media.image(PNG, "image/heic")).build(),
                UnsupportedInputException.Reason.MEDIA_TYPE, "message 0, media 0: image image/heic");
        assertRefused(ChatRequest.builder("claude-sonnet-4-5").user("x").user("y", Media.image(PNG, "image/png"),
                Media.image(new byte[5 * 1024 * 1024 + 1], "image/png")).build(),
                UnsupportedInputException.Reason.TOO_LARGE, "message 1, media 1: image image/png has 5242881 bytes");
        assertRefused(ChatRequest.builder("claude-sonnet-4-5").user("x", Media.imageUrl("s3://bucket/a.png", "image/png")).build(),
                UnsupportedInputException.Reason.SOURCE, "message 0, media 0: image image/png is given by a s3: URL");
        assertRefused(ChatRequest.builder("claude-sonnet-4-5").user("x", Media.document(PDF, "application/msword", "a")).build(),
                UnsupportedInputException.Reason.MEDIA_TYPE, "message 0, media 0: document application/msword");
        assertRefused(ChatRequest.builder("claude-sonnet-4-5").user("x",
                Media.document(new byte[] {(byte) 0xff, (byte) 0xfe}, "text/plain", null)).build(),
                UnsupportedInputException.Reason.MEDIA_TYPE, "is not UTF-8 text");
    }

    @Test
    void mediaAboveTheRequestLimitInBase64AreRefused() {
        // 7 PDFs of 3.7 MB: 25.9 MB of bytes, 34.5 MB in base64, over 32 MiB
        byte[] big = new byte[3_700_000];
        Media[] pdfs = new Media[7];
        for (int i = 0; i < pdfs.length; i++) {
            pdfs[i] = Media.document(big, "application/pdf", null);
        }
        assertRefused(ChatRequest.builder("claude-sonnet-4-5").user("x", pdfs).build(),
                UnsupportedInputException.Reason.TOO_LARGE, "32 MB");
    }

    private void assertRefused(ChatRequest request, UnsupportedInputException.Reason reason, String detail) {
        assertThatThrownBy(() -> CODEC.encode(request, false, golden.warnings())).isInstanceOfSatisfying(UnsupportedInput.class, e -> {
            assertThat(e.reason()).isEqualTo(reason);
            assertThat(e.getMessage()).contains(detail);
        });
    }

    // ---- prompt caching

    private static final ToolDefinition WEATHER = new ToolDefinition("weather", "Weather", "{\"type\":\"object\"}");

    @Test
    void breakpointsGoOnTheLastToolTheLastSystemBlockAndTheMarkedMessagesWithTheirTtl() {
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-5").system("Be brief.").user("One.", Media.image(PNG, "image/png"))
                .user("Two.").tool(WEATHER)
                .caching(new PromptCaching(true, true, List.of(1), true, PromptCaching.Ttl.ONE_HOUR, null)).build();

        assertThat(golden.encode(request)).isEqualTo(json("""
                {"model":"claude-sonnet-4-5","max_tokens":1000,
                 "system":[{"type":"text","text":"Be brief.","cache_control":{"type":"ephemeral","ttl":"1h"}}],
                 "messages":[{"role":"user","content":[
                   {"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw=="}},
                   {"type":"text","text":"One.","cache_control":{"type":"ephemeral","ttl":"1h"}},
                   {"type":"text","text":"Two.","cache_control":{"type":"ephemeral","ttl":"1h"}}]}],
                 "tools":[{"name":"weather","description":"Weather","input_schema":{"type":"object"},
                           "cache_control":{"type":"ephemeral","ttl":"1h"}}]}"""));
        assertThat(golden.warnings().isEmpty()).isTrue();
    }

    @Test
    void theDefaultTtlWritesNoTtlAndFiveMinutesWritesFiveM() {
        ChatRequest plain = ChatRequest.builder("claude-sonnet-4-5").system("S").user("U").caching(PromptCaching.conversation()).build();
        assertThat(golden.encode(plain).get("system").get(0).get("cache_control")).isEqualTo(json("{\"type\":\"ephemeral\"}"));

        ChatRequest five = plain.withCaching(PromptCaching.conversation().withTtl(PromptCaching.Ttl.FIVE_MINUTES));
        assertThat(golden.encode(five).get("messages").get(0).get("content").get(0).get("cache_control"))
                .isEqualTo(json("{\"type\":\"ephemeral\",\"ttl\":\"5m\"}"));
        // no tools: the tools breakpoint of conversation() has nothing to end on
        assertThat(golden.warningTexts()).contains("option-ignored: cache breakpoint on the tools not sent: the request writes no tools");
    }

    @Test
    void beyondFourBreakpointsTheLastFourByPositionAreKeptAndEachDroppedOneIsReported() {
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-5").system("S").user("A").message(AssistantMessage.ofText("B")).user("C")
                .tool(WEATHER).caching(new PromptCaching(true, true, List.of(1, 2), true, PromptCaching.Ttl.DEFAULT, "tenant-7")).build();

        JsonNode body = golden.encode(request);

        assertThat(body.toString().split("cache_control", -1)).hasSize(5); // four breakpoints
        assertThat(body.get("tools").get(0).has("cache_control")).isFalse();
        assertThat(body.get("system").get(0).has("cache_control")).isTrue();
        assertThat(golden.warningTexts()).containsExactly(
                "option-ignored: prompt cache key not sent: the Messages API has no cache routing key",
                "option-ignored: cache breakpoint on the tools not sent: Anthropic takes at most 4 cache_control blocks per "
                        + "request (5 asked; the last 4 by position are kept)");
    }

    // ---- warnings for what is ignored or coerced

    @Test
    void samplingClaudeRefusesWithThinkingIsLeftOutAndReported() {
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-5").user("U").reasoning(ReasoningOptions.budget(500))
                .sampling(new SamplingOptions(0.3, 0.5, null, List.of(), 7L)).extra("top_k", 5).build();

        JsonNode body = golden.encode(request);

        assertThat(body.has("temperature")).isFalse();
        assertThat(body.has("top_p")).isFalse();
        assertThat(body.has("top_k")).isFalse();
        assertThat(body.get("thinking")).isEqualTo(json("{\"type\":\"enabled\",\"budget_tokens\":1024}"));
        assertThat(golden.warningTexts()).containsExactly(
                "option-coerced: reasoning budgetTokens 500 sent as 1024: thinking.budget_tokens must be at least 1024",
                "option-ignored: temperature 0.3 not sent: Claude takes no temperature other than 1 while thinking is on",
                "option-ignored: top_p 0.5 not sent: Claude takes top_p only between 0.95 and 1 while thinking is on",
                "option-ignored: seed not sent: the Messages API has no seed",
                "option-ignored: top_k (an extra) not sent: Claude takes no top_k while thinking is on");
    }

    @Test
    void samplingIsKeptWithThinkingOff() {
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-5").user("U")
                .sampling(new SamplingOptions(0.3, 0.5, null, List.of(), null)).extra("top_k", 5).build();

        JsonNode body = golden.encode(request);

        assertThat(body.get("temperature").asDouble()).isEqualTo(0.3);
        assertThat(body.get("top_p").asDouble()).isEqualTo(0.5);
        assertThat(body.get("top_k").asInt()).isEqualTo(5);
        assertThat(golden.warnings().isEmpty()).isTrue();
    }

    @Test
    void anEffortMappedToAnotherLevelIsReported() {
        JsonNode body = golden.encode(ChatRequest.builder("claude-opus-4-6").user("U").reasoning(ReasoningOptions.effort(ReasoningEffort.XHIGH))
                .build());

        assertThat(body.get("output_config").get("effort").asString()).isEqualTo("high");
        assertThat(golden.warningTexts()).containsExactly("option-coerced: reasoning effort xhigh sent as output_config.effort high: "
                + "Claude's levels are low, medium, high, max, and xhigh only on Opus 4.7 and later");
    }

    @Test
    void aBudgetOnAnAdaptiveOnlyModelBecomesAdaptiveThinking() {
        JsonNode body = golden.encode(ChatRequest.builder("claude-opus-4-7").user("U").reasoning(ReasoningOptions.budget(4096)).build());

        assertThat(body.get("thinking")).isEqualTo(json("{\"type\":\"adaptive\"}"));
        assertThat(golden.warningTexts()).singleElement().asString().startsWith("option-coerced: reasoning budgetTokens 4096 sent as "
                + "adaptive thinking: claude-opus-4-7 refuses thinking.budget_tokens");
    }

    @Test
    void includeReasoningWithoutThinkingIsReported() {
        JsonNode body = golden.encode(ChatRequest.builder("claude-sonnet-4-5").user("U")
                .reasoning(new ReasoningOptions(null, null, null, true)).build());

        assertThat(body.has("thinking")).isFalse();
        assertThat(golden.warnings().list()).extracting(Warning::code).containsExactly(Warning.OPTION_IGNORED);
    }
}
