package dev.ruminate.providers.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.UnsupportedInputException.Reason;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.spi.RequestWarnings;
import dev.ruminate.providers.spi.UnsupportedInput;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Golden request bodies of issue 18 on Ollama's native API: the output schema as {@code format} on
 * {@code /api/chat} and {@code /api/generate}, the TOOL strategy (offered, never forced), images;
 * the refusals before anything is written; and the warning for every option Ollama ignores or
 * coerces.
 */
class OllamaRequestFeaturesTest {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},"
            + "\"required\":[\"city\"]}";
    private static final OutputSchema OUTPUT = OutputSchema.of("city_answer", SCHEMA);
    static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    private static final OllamaCodec CHAT = OllamaCodec.chat(OllamaProvider.NAME);
    private static final OllamaCodec GENERATE = OllamaCodec.generate(OllamaProvider.NAME);

    private record Encoded(String body, List<Warning> warnings) {
        List<String> codes() {
            return warnings.stream().map(Warning::code).toList();
        }
    }

    private static Encoded encode(OllamaCodec codec, ChatRequest request) {
        RequestWarnings warnings = new RequestWarnings();
        String body = new String(codec.encode(request, false, warnings), StandardCharsets.UTF_8);
        return new Encoded(body, warnings.list());
    }

    @Test
    void theOutputSchemaIsFormatOnChatAlongsideThink() {
        ChatRequest request = ChatRequest.builder("gpt-oss:20b").user("Capital of France?").output(OUTPUT)
                .reasoning(ReasoningOptions.effort(ReasoningEffort.LOW)).build();

        assertThat(encode(CHAT, request).body()).isEqualTo("{\"model\":\"gpt-oss:20b\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"Capital of France?\"}],\"format\":" + SCHEMA + ",\"stream\":false,\"think\":\"low\"}");
        assertThat(CHAT.structuredOutputMethod(request)).isEqualTo(StructuredOutputMethod.NATIVE);
    }

    @Test
    void theOutputSchemaIsFormatOnGenerate() {
        ChatRequest request = ChatRequest.builder("qwen3").system("Be terse.").user("Capital of France?").output(OUTPUT).build();

        assertThat(encode(GENERATE, request).body()).isEqualTo("{\"model\":\"qwen3\",\"prompt\":\"Capital of France?\","
                + "\"system\":\"Be terse.\",\"format\":" + SCHEMA + ",\"stream\":false}");
        assertThat(GENERATE.structuredOutputMethod(request)).isEqualTo(StructuredOutputMethod.NATIVE);
    }

    @Test
    void theToolStrategyOffersTheToolWithAnInstructionOnChatAndIsRefusedOnGenerate() {
        ChatRequest request = ChatRequest.builder("qwen3").system("Be terse.").user("Capital of France?")
                .tool(new ToolDefinition("lookup", "Looks up.", "{\"type\":\"object\"}"))
                .output(OUTPUT.withStrategy(OutputSchema.Strategy.TOOL)).build();

        assertThat(CHAT.structuredOutputMethod(request)).isEqualTo(StructuredOutputMethod.TOOL_AUTO);
        assertThat(encode(CHAT, request).body()).isEqualTo("{\"model\":\"qwen3\",\"messages\":["
                + "{\"role\":\"system\",\"content\":\"Be terse.\"},"
                + "{\"role\":\"system\",\"content\":\"When you have the final answer, call the tool city_answer with the "
                + "answer as its arguments, instead of answering in text.\"},"
                + "{\"role\":\"user\",\"content\":\"Capital of France?\"}],"
                + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"description\":\"Looks up.\","
                + "\"parameters\":{\"type\":\"object\"}}},{\"type\":\"function\",\"function\":{\"name\":\"city_answer\","
                + "\"description\":\"Give the final answer by calling this tool: its arguments are the answer.\","
                + "\"parameters\":" + SCHEMA + "}}],\"stream\":false}");
        ChatRequest prompt = ChatRequest.builder("qwen3").user("Capital?").output(OUTPUT.withStrategy(OutputSchema.Strategy.TOOL))
                .build();
        assertThatThrownBy(() -> GENERATE.structuredOutputMethod(prompt)).isInstanceOf(UnsupportedInput.class);
        assertThatThrownBy(() -> encode(GENERATE, prompt)).isInstanceOf(UnsupportedInput.class)
                .satisfies(e -> assertThat(((UnsupportedInput) e).reason()).isEqualTo(Reason.KIND));
    }

    @Test
    void imagesGoBase64OnTheUserMessageOrTheGenerateRequest() {
        ChatRequest request = ChatRequest.builder("llava").user("What is this?", Media.image(PNG, "image/png"),
                Media.image(new byte[] {1, 2, 3}, "image/jpeg")).build();

        assertThat(encode(CHAT, request).body()).isEqualTo("{\"model\":\"llava\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"What is this?\",\"images\":[\"iVBORw0KGgo=\",\"AQID\"]}],\"stream\":false}");
        assertThat(encode(GENERATE, request).body()).isEqualTo("{\"model\":\"llava\",\"prompt\":\"What is this?\","
                + "\"images\":[\"iVBORw0KGgo=\",\"AQID\"],\"stream\":false}");
    }

    private static void refused(ChatRequest request, Reason reason, String... words) {
        for (OllamaCodec codec : List.of(CHAT, GENERATE)) {
            assertThatThrownBy(() -> encode(codec, request)).isInstanceOf(UnsupportedInput.class)
                    .hasMessageContaining(words[0])
                    .satisfies(e -> assertThat(((UnsupportedInput) e).reason()).isEqualTo(reason))
                    .satisfies(e -> assertThat(e.getMessage()).contains(words));
        }
    }

    @Test
    void urlsDocumentsAndToolResultMediaAreRefusedBeforeAnythingIsWritten() {
        refused(ChatRequest.builder("llava").user("x", Media.imageUrl("https://example.com/private/cat.png", "image/png")).build(),
                Reason.SOURCE, "message 0, media 0", "not by URL");
        refused(ChatRequest.builder("llava").user("x", Media.document(PNG, "application/pdf", "a.pdf")).build(),
                Reason.KIND, "message 0, media 0", "application/pdf", "no documents");
        assertThatThrownBy(() -> encode(CHAT, ChatRequest.builder("llava").user("x")
                .message(new ToolResultMessage("c", "shot", "ok", false, List.of(Media.image(PNG, "image/png")))).build()))
                .isInstanceOf(UnsupportedInput.class).hasMessageContaining("message 1, media 0")
                .satisfies(e -> assertThat(((UnsupportedInput) e).reason()).isEqualTo(Reason.KIND))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("example.com"));
    }

    @Test
    void effortLevelsAreGptOssOnesAndOthersCountAsOnWithAWarning() {
        Encoded gptOss = encode(CHAT, ChatRequest.builder("gpt-oss:20b").user("x")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).build());
        Encoded gptOssMax = encode(CHAT, ChatRequest.builder("gpt-oss:120b").user("x")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.MAX)).build());
        Encoded gptOssMinimal = encode(GENERATE, ChatRequest.builder("gpt-oss:20b").user("x")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.MINIMAL)).build());
        Encoded qwen = encode(CHAT, ChatRequest.builder("qwen3:8b").user("x")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.MEDIUM)).build());

        assertThat(gptOss.body()).contains("\"think\":\"high\"");
        assertThat(gptOss.warnings()).isEmpty();
        assertThat(gptOssMax.body()).contains("\"think\":\"high\"");
        assertThat(gptOssMax.codes()).containsExactly(Warning.OPTION_COERCED);
        assertThat(gptOssMinimal.body()).contains("\"think\":\"low\"");
        assertThat(gptOssMinimal.codes()).containsExactly(Warning.OPTION_COERCED);
        assertThat(qwen.body()).contains("\"think\":\"medium\"");
        assertThat(qwen.codes()).containsExactly(Warning.OPTION_COERCED);
        assertThat(qwen.warnings().get(0).message()).contains("only gpt-oss").contains("think:true");
    }

    @Test
    void offOnGptOssBudgetsAndHiddenReasoningAreIgnoredWithWarnings() {
        Encoded gptOssOff = encode(CHAT, ChatRequest.builder("gpt-oss:20b").user("x")
                .reasoning(new ReasoningOptions(false, null, null, null)).build());
        Encoded qwenOff = encode(CHAT, ChatRequest.builder("qwen3").user("x")
                .reasoning(new ReasoningOptions(false, null, null, null)).build());
        Encoded budget = encode(CHAT, ChatRequest.builder("qwen3").user("x").reasoning(ReasoningOptions.budget(2048)).build());
        Encoded hidden = encode(CHAT, ChatRequest.builder("qwen3").user("x")
                .reasoning(new ReasoningOptions(true, null, null, false)).build());

        assertThat(gptOssOff.body()).contains("\"think\":false");
        assertThat(gptOssOff.codes()).containsExactly(Warning.OPTION_IGNORED);
        assertThat(gptOssOff.warnings().get(0).message()).contains("cannot turn reasoning off");
        assertThat(qwenOff.body()).contains("\"think\":false");
        assertThat(qwenOff.warnings()).isEmpty();
        assertThat(budget.body()).contains("\"think\":true");
        assertThat(budget.codes()).containsExactly(Warning.OPTION_IGNORED);
        assertThat(budget.warnings().get(0).message()).contains("budgetTokens");
        assertThat(hidden.body()).contains("\"think\":true");
        assertThat(hidden.codes()).containsExactly(Warning.OPTION_IGNORED);
    }

    @Test
    void promptCachingAndAFormatExtraOverTheSchemaAreIgnoredWithWarnings() {
        Encoded cached = encode(CHAT, ChatRequest.builder("qwen3").system("Manual.").user("x")
                .caching(PromptCaching.conversation()).build());
        Encoded format = encode(GENERATE, ChatRequest.builder("qwen3").user("x").output(OUTPUT).extra("format", "json").build());
        Encoded plain = encode(CHAT, ChatRequest.builder("qwen3").user("x").build());

        assertThat(cached.codes()).containsExactly(Warning.OPTION_IGNORED);
        assertThat(cached.body()).doesNotContain("cache");
        assertThat(format.codes()).containsExactly(Warning.OPTION_IGNORED);
        assertThat(format.body()).endsWith("\"stream\":false,\"format\":\"json\"}");
        assertThat(plain.warnings()).isEmpty();
        Encoded described = encode(CHAT, ChatRequest.builder("qwen3").user("x")
                .output(new OutputSchema("city_answer", SCHEMA, "The city.", true, OutputSchema.Strategy.AUTO)).build());
        assertThat(described.codes()).containsExactly(Warning.OPTION_IGNORED);
        assertThat(described.warnings().get(0).message()).contains("description");
        assertThat(described.body()).contains("\"format\":" + SCHEMA).doesNotContain("The city.");
    }
}
