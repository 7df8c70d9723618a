package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.Warning;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.providers.spi.RequestWarnings;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the Gemini encoder sends for reasoning options per model generation, and the warning for
 * every option it maps to the nearest value or leaves out: never silence.
 */
class GeminiRequestWarningsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private record Encoded(JsonNode body, List<Warning> warnings) {
        String thinking() {
            return body.path("generationConfig").path("thinkingConfig").toString();
        }

        List<String> codes() {
            return warnings.stream().map(Warning::code).toList();
        }
    }

    private static Encoded encode(ChatRequest request) {
        RequestWarnings warnings = new RequestWarnings();
        byte[] body = GeminiCodec.of("gemini", false).encode(request, true, warnings);
        return new Encoded(JSON.readTree(new String(body, StandardCharsets.UTF_8)), warnings.list());
    }

    private static Encoded thinking(String model, ReasoningOptions options) {
        return encode(ChatRequest.builder(model).user("x").reasoning(options).build());
    }

    @Test
    void gemini3EffortsItHasGoAsTheyAreWithoutAWarning() {
        Encoded flash = thinking("gemini-3-flash-preview", ReasoningOptions.effort(ReasoningEffort.MINIMAL));
        Encoded pro = thinking("gemini-3.1-pro-preview", ReasoningOptions.effort(ReasoningEffort.MEDIUM));

        assertThat(flash.thinking()).isEqualTo("{\"includeThoughts\":true,\"thinkingLevel\":\"minimal\"}");
        assertThat(flash.warnings()).isEmpty();
        assertThat(pro.thinking()).isEqualTo("{\"includeThoughts\":true,\"thinkingLevel\":\"medium\"}");
        assertThat(pro.warnings()).isEmpty();
    }

    @Test
    void gemini3EffortsItLacksGoToTheNearestLevelWithACoercedWarning() {
        Encoded max = thinking("gemini-3-flash-preview", ReasoningOptions.effort(ReasoningEffort.MAX));
        Encoded minimalOnPro = thinking("gemini-3-pro-preview", ReasoningOptions.effort(ReasoningEffort.MINIMAL));
        Encoded mediumOnPro = thinking("gemini-3-pro-preview", ReasoningOptions.effort(ReasoningEffort.MEDIUM));

        assertThat(max.thinking()).isEqualTo("{\"includeThoughts\":true,\"thinkingLevel\":\"high\"}");
        assertThat(max.codes()).containsExactly(Warning.OPTION_COERCED);
        assertThat(max.warnings().get(0).message()).contains("max").contains("sent high");
        assertThat(minimalOnPro.thinking()).contains("\"thinkingLevel\":\"low\"");
        assertThat(minimalOnPro.codes()).containsExactly(Warning.OPTION_COERCED);
        // a tie goes up: Google's own OpenAI-compatible mapping sends medium to high on 3 Pro
        assertThat(mediumOnPro.thinking()).contains("\"thinkingLevel\":\"high\"");
        assertThat(mediumOnPro.codes()).containsExactly(Warning.OPTION_COERCED);
    }

    @Test
    void gemini3CannotTurnThinkingOffSoOffIsTheLowestLevelWithAWarning() {
        Encoded pro = thinking("gemini-3-pro-preview", new ReasoningOptions(false, null, null, null));
        Encoded flash = thinking("gemini-3-flash-preview", ReasoningOptions.effort(ReasoningEffort.NONE));

        assertThat(pro.thinking()).isEqualTo("{\"thinkingLevel\":\"low\"}");
        assertThat(pro.codes()).containsExactly(Warning.OPTION_COERCED);
        assertThat(pro.warnings().get(0).message()).contains("cannot turn thinking off");
        assertThat(flash.thinking()).isEqualTo("{\"thinkingLevel\":\"minimal\"}");
        assertThat(flash.codes()).containsExactly(Warning.OPTION_COERCED);
    }

    @Test
    void gemini3TakesALevelOrABudgetNotBoth() {
        Encoded both = thinking("gemini-3-pro-preview", new ReasoningOptions(true, ReasoningEffort.HIGH, 4096, null));
        Encoded budget = thinking("gemini-3-pro-preview", ReasoningOptions.budget(4096));

        assertThat(both.thinking()).isEqualTo("{\"includeThoughts\":true,\"thinkingLevel\":\"high\"}");
        assertThat(both.codes()).containsExactly(Warning.OPTION_IGNORED);
        assertThat(both.warnings().get(0).message()).contains("budgetTokens");
        assertThat(budget.thinking()).isEqualTo("{\"includeThoughts\":true,\"thinkingBudget\":4096}");
        assertThat(budget.warnings()).isEmpty();
    }

    @Test
    void gemini25TakesBudgetsSoAnEffortBecomesOneWithAWarning() {
        Encoded effort = thinking("gemini-2.5-flash", ReasoningOptions.effort(ReasoningEffort.MEDIUM));
        Encoded both = thinking("gemini-2.5-flash", new ReasoningOptions(true, ReasoningEffort.HIGH, 2048, null));

        assertThat(effort.thinking()).isEqualTo("{\"includeThoughts\":true,\"thinkingBudget\":8192}");
        assertThat(effort.codes()).containsExactly(Warning.OPTION_COERCED);
        assertThat(both.thinking()).isEqualTo("{\"includeThoughts\":true,\"thinkingBudget\":2048}");
        assertThat(both.codes()).containsExactly(Warning.OPTION_IGNORED);
    }

    @Test
    void gemini25BudgetsAreClampedToTheModelsRangeAndProCannotTurnThinkingOff() {
        Encoded big = thinking("gemini-2.5-flash", ReasoningOptions.budget(100_000));
        Encoded proOff = thinking("gemini-2.5-pro", ReasoningOptions.effort(ReasoningEffort.NONE));
        Encoded flashOff = thinking("gemini-2.5-flash", ReasoningOptions.effort(ReasoningEffort.NONE));
        Encoded liteSmall = thinking("gemini-2.5-flash-lite", ReasoningOptions.budget(100));

        assertThat(big.thinking()).isEqualTo("{\"includeThoughts\":true,\"thinkingBudget\":24576}");
        assertThat(big.codes()).containsExactly(Warning.OPTION_COERCED);
        assertThat(proOff.thinking()).isEqualTo("{\"thinkingBudget\":128}");
        assertThat(proOff.codes()).containsExactly(Warning.OPTION_COERCED);
        assertThat(flashOff.thinking()).isEqualTo("{\"thinkingBudget\":0}");
        assertThat(flashOff.warnings()).isEmpty();
        assertThat(liteSmall.thinking()).isEqualTo("{\"includeThoughts\":true,\"thinkingBudget\":512}");
        assertThat(liteSmall.codes()).containsExactly(Warning.OPTION_COERCED);
    }

    @Test
    void includeReasoningIsIncludeThoughtsAndIgnoredWithAWarningWhenThinkingIsOff() {
        Encoded hidden = thinking("gemini-3-pro-preview", new ReasoningOptions(true, ReasoningEffort.HIGH, null, false));
        Encoded offButShown = thinking("gemini-2.5-flash", new ReasoningOptions(false, null, null, true));

        assertThat(hidden.thinking()).isEqualTo("{\"includeThoughts\":false,\"thinkingLevel\":\"high\"}");
        assertThat(hidden.warnings()).isEmpty();
        assertThat(offButShown.thinking()).isEqualTo("{\"thinkingBudget\":0}");
        assertThat(offButShown.codes()).containsExactly(Warning.OPTION_IGNORED);
    }

    @Test
    void otherModelsGetTheOptionsAsAskedAndLevelsGeminiLacksAreCoerced() {
        Encoded alias = thinking("gemini-flash-latest", ReasoningOptions.effort(ReasoningEffort.XHIGH));

        assertThat(alias.thinking()).isEqualTo("{\"includeThoughts\":true,\"thinkingLevel\":\"high\"}");
        assertThat(alias.codes()).containsExactly(Warning.OPTION_COERCED);
        assertThat(thinking("models/gemini-flash-latest", ReasoningOptions.effort(ReasoningEffort.LOW)).warnings()).isEmpty();
    }

    @Test
    void promptCacheBreakpointsAndKeysAreIgnoredWithWarningsAndWriteNothing() {
        ChatRequest request = ChatRequest.builder("gemini-2.5-flash").system("Long manual.").user("Q")
                .caching(PromptCaching.conversation().withKey("tenant-7")).build();

        Encoded encoded = encode(request);

        assertThat(encoded.codes()).containsExactly(Warning.OPTION_IGNORED, Warning.OPTION_IGNORED);
        assertThat(encoded.warnings().get(0).message()).contains("implicitly").contains("cachedContents");
        assertThat(encoded.warnings().get(1).message()).contains("key").doesNotContain("tenant-7");
        assertThat(encoded.body().toString()).doesNotContain("cache").doesNotContain("tenant-7");
        assertThat(encode(ChatRequest.builder("gemini-2.5-flash").user("Q").build()).warnings()).isEmpty();
    }

    @Test
    void anExtraThatReplacesTheWrittenGenerationConfigSaysWhatItDropped() {
        ChatRequest request = ChatRequest.builder("gemini-3-pro-preview").user("Q")
                .output(OutputSchema.of("r", "{\"type\":\"object\"}"))
                .extra("generationConfig", Map.of("candidateCount", 1)).build();

        Encoded encoded = encode(request);

        assertThat(encoded.body().get("generationConfig").toString()).isEqualTo("{\"candidateCount\":1}");
        assertThat(encoded.codes()).containsExactly(Warning.OPTION_IGNORED);
        assertThat(encoded.warnings().get(0).message()).contains("generationConfig extra");
    }

    @Test
    void seedAndStopSequencesAreGeminiFieldsSoTheyGoWithoutAWarning() {
        Encoded encoded = encode(ChatRequest.builder("gemini-3-pro-preview").user("Q")
                .sampling(new SamplingOptions(null, null, null, List.of("END"), 7L)).build());

        assertThat(encoded.body().get("generationConfig").toString()).isEqualTo("{\"stopSequences\":[\"END\"],\"seed\":7}");
        assertThat(encoded.warnings()).isEmpty();
    }
}
