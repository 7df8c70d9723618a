package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.spi.RequestWarnings;
import dev.ruminate.providers.spi.UnsupportedInput;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Golden request bodies of Gemini structured output: the native {@code responseJsonSchema} (with
 * thinking on), the forced function call of the TOOL strategy, and the negotiation on models before
 * Gemini 3 that refuse a JSON response type together with function calling; the codec reports the
 * method its encoder wrote.
 */
class GeminiStructuredOutputTest {

    static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"},"
            + "\"celsius\":{\"type\":\"number\"}},\"required\":[\"city\",\"celsius\"]}";
    static final OutputSchema OUTPUT = OutputSchema.of("weather_report", SCHEMA);
    private static final GeminiCodec CODEC = GeminiCodec.of("gemini", false);

    static String body(ChatRequest request) {
        return new String(CODEC.encode(request, true, new RequestWarnings()), StandardCharsets.UTF_8);
    }

    private static ChatRequest.Builder weather(String model) {
        return ChatRequest.builder(model).user("Weather in Paris?");
    }

    @Test
    void nativeSchemaIsResponseJsonSchemaWithTheJsonMediaTypeAlongsideThinking() {
        ChatRequest request = weather("gemini-3-flash-preview").output(OUTPUT)
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).build();

        assertThat(body(request)).isEqualTo("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"Weather in Paris?\"}]}],"
                + "\"generationConfig\":{\"responseMimeType\":\"application/json\",\"responseJsonSchema\":" + SCHEMA + ","
                + "\"thinkingConfig\":{\"includeThoughts\":true,\"thinkingLevel\":\"high\"}}}");
        assertThat(CODEC.structuredOutputMethod(request)).isEqualTo(StructuredOutputMethod.NATIVE);
    }

    @Test
    void theSchemasDescriptionBecomesItsRootDescriptionUnlessItHasOne() {
        OutputSchema described = new OutputSchema("weather_report", SCHEMA, "Today's weather.", true, OutputSchema.Strategy.AUTO);
        OutputSchema own = new OutputSchema("r", "{\"description\":\"Mine.\",\"type\":\"object\"}", "Theirs.", true,
                OutputSchema.Strategy.NATIVE);

        assertThat(body(weather("gemini-2.5-flash").output(described).build())).contains("\"responseJsonSchema\":"
                + SCHEMA.substring(0, SCHEMA.length() - 1) + ",\"description\":\"Today's weather.\"}");
        assertThat(body(weather("gemini-2.5-flash").output(own).build()))
                .contains("\"responseJsonSchema\":{\"description\":\"Mine.\",\"type\":\"object\"}");
    }

    @Test
    void theToolStrategyForcesACallOfTheOutputFunctionEvenWithThinkingOn() {
        ChatRequest request = weather("gemini-3-pro-preview").output(OUTPUT.withStrategy(OutputSchema.Strategy.TOOL))
                .reasoning(ReasoningOptions.effort(ReasoningEffort.LOW)).build();

        assertThat(body(request)).isEqualTo("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"Weather in Paris?\"}]}],"
                + "\"tools\":[{\"functionDeclarations\":[{\"name\":\"weather_report\",\"description\":\"Give the final answer "
                + "by calling this tool: its arguments are the answer.\",\"parametersJsonSchema\":" + SCHEMA + "}]}],"
                + "\"toolConfig\":{\"functionCallingConfig\":{\"mode\":\"ANY\",\"allowedFunctionNames\":[\"weather_report\"]}},"
                + "\"generationConfig\":{\"thinkingConfig\":{\"includeThoughts\":true,\"thinkingLevel\":\"low\"}}}");
        assertThat(CODEC.structuredOutputMethod(request)).isEqualTo(StructuredOutputMethod.TOOL_FORCED);
    }

    @Test
    void beforeGemini3ToolsAndAJsonResponseTypeDoNotMixSoTheOutputBecomesAForcedCall() {
        ToolDefinition lookup = new ToolDefinition("lookup", "Looks up.", "{\"type\":\"object\"}");
        ChatRequest old = weather("gemini-2.5-pro").tool(lookup).output(OUTPUT).build();
        ChatRequest gemini3 = weather("gemini-3-pro-preview").tool(lookup).output(OUTPUT).build();

        assertThat(CODEC.structuredOutputMethod(old)).isEqualTo(StructuredOutputMethod.TOOL_FORCED);
        assertThat(body(old)).doesNotContain("responseJsonSchema").doesNotContain("responseMimeType")
                .contains("{\"name\":\"lookup\"").contains("{\"name\":\"weather_report\"")
                .contains("\"allowedFunctionNames\":[\"weather_report\"]");
        assertThat(CODEC.structuredOutputMethod(gemini3)).isEqualTo(StructuredOutputMethod.NATIVE);
        assertThat(body(gemini3)).contains("\"responseJsonSchema\":").doesNotContain("toolConfig");
        // the NATIVE strategy cannot be kept where only the tool would do
        assertThatThrownBy(() -> CODEC.structuredOutputMethod(old.toBuilder()
                .output(OUTPUT.withStrategy(OutputSchema.Strategy.NATIVE)).build()))
                .isInstanceOf(UnsupportedInput.class)
                .satisfies(e -> assertThat(((UnsupportedInput) e).reason()).isEqualTo(UnsupportedInputException.Reason.KIND));
    }

    @Test
    void noOutputSchemaNoMethodAndNoJsonFields() {
        ChatRequest plain = weather("gemini-3-pro-preview").build();

        assertThat(CODEC.structuredOutputMethod(plain)).isNull();
        assertThat(body(plain)).isEqualTo("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"Weather in Paris?\"}]}]}");
    }
}
