package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.internal.StructuredOutputs;
import dev.ruminate.providers.spi.UnsupportedInput;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Structured output on the Responses API: the native {@code text.format} golden bodies, the output
 * tool (forced, or offered with an instruction where the server refuses a forced choice), and the
 * codec reporting the method its encoder wrote.
 */
class ResponsesStructuredOutputTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},"
            + "\"required\":[\"city\"],\"additionalProperties\":false}";
    private static final OutputSchema OUTPUT = OutputSchema.of("answer", SCHEMA);

    private static String encode(ResponsesProfile profile, ChatRequest request) {
        return new String(ResponsesCodec.encodeRequest(profile, request, false), StandardCharsets.UTF_8);
    }

    private static ChatRequest.Builder base() {
        return ChatRequest.builder("gpt-5.1").system("Be brief.").user("Capital of France?");
    }

    @Test
    void theNativeSchemaGoesInTextFormat() {
        ChatRequest request = base().output(new OutputSchema("answer", SCHEMA, "The city asked for", false,
                OutputSchema.Strategy.AUTO)).build();

        assertThat(encode(ResponsesProfiles.OPENAI, request)).isEqualTo("{\"model\":\"gpt-5.1\","
                + "\"instructions\":\"Be brief.\",\"input\":[{\"role\":\"user\",\"content\":\"Capital of France?\"}],"
                + "\"text\":{\"format\":{\"type\":\"json_schema\",\"name\":\"answer\",\"schema\":" + SCHEMA + ","
                + "\"strict\":false,\"description\":\"The city asked for\"}},"
                + "\"include\":[\"reasoning.encrypted_content\"],\"store\":false}");
        assertThat(ResponsesCodec.of(ResponsesProfiles.OPENAI).structuredOutputMethod(request))
                .isEqualTo(StructuredOutputMethod.NATIVE);
    }

    @Test
    void theFormatJoinsATextObjectGivenAsAnExtra() {
        ChatRequest request = base().output(OUTPUT).extra("text", Map.of("verbosity", "low")).build();

        JsonNode body = MAPPER.readTree(encode(ResponsesProfiles.AZURE, request));
        assertThat(body.get("text").get("verbosity").asString()).isEqualTo("low");
        assertThat(body.get("text").get("format").get("name").asString()).isEqualTo("answer");
        assertThat(body.get("text").get("format").get("strict").asBoolean()).isTrue();
        assertThat(body.get("text").get("format").get("schema")).isEqualTo(MAPPER.readTree(SCHEMA));
        assertThat(body.propertyNames()).containsOnlyOnce("text");
    }

    @Test
    void anExtraTextWithItsOwnFormatReplacesTheNativeOne() {
        ChatRequest request = base().output(OUTPUT).extra("text", Map.of("format", Map.of("type", "text"))).build();

        assertThat(MAPPER.readTree(encode(ResponsesProfiles.OPENAI, request)).get("text"))
                .isEqualTo(MAPPER.readTree("{\"format\":{\"type\":\"text\"}}"));
    }

    @Test
    void theToolStrategyForcesTheOutputTool() {
        ChatRequest request = base()
                .tool(new ToolDefinition("lookup", "Looks up", "{\"type\":\"object\",\"properties\":{}}"))
                .output(OUTPUT.withStrategy(OutputSchema.Strategy.TOOL)).build();

        String tool = "{\"type\":\"function\",\"name\":\"answer\",\"description\":\""
                + StructuredOutputs.tool(OUTPUT).description() + "\",\"parameters\":" + SCHEMA + "}";
        assertThat(encode(ResponsesProfiles.OPENAI, request)).isEqualTo("{\"model\":\"gpt-5.1\","
                + "\"instructions\":\"Be brief.\",\"input\":[{\"role\":\"user\",\"content\":\"Capital of France?\"}],"
                + "\"tools\":[{\"type\":\"function\",\"name\":\"lookup\",\"description\":\"Looks up\","
                + "\"parameters\":{\"type\":\"object\",\"properties\":{}}}," + tool + "],"
                + "\"tool_choice\":{\"type\":\"function\",\"name\":\"answer\"},"
                + "\"include\":[\"reasoning.encrypted_content\"],\"store\":false}");
        assertThat(ResponsesCodec.of(ResponsesProfiles.OPENAI).structuredOutputMethod(request))
                .isEqualTo(StructuredOutputMethod.TOOL_FORCED);
    }

    @Test
    void aServerWithoutNativeSchemaOrForcedChoiceGetsTheToolWithAutoAndAnInstruction() {
        ChatRequest request = ChatRequest.builder("deepseek-v4").system("Be brief.").user("Capital?")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).output(OUTPUT).build();

        JsonNode body = MAPPER.readTree(encode(ResponsesProfiles.DEEPSEEK, request));
        assertThat(ResponsesCodec.of(ResponsesProfiles.DEEPSEEK).structuredOutputMethod(request))
                .isEqualTo(StructuredOutputMethod.TOOL_AUTO);
        assertThat(body.get("instructions").asString()).isEqualTo("Be brief.\n\n"
                + StructuredOutputs.instruction(OUTPUT, StructuredOutputMethod.TOOL_AUTO));
        assertThat(body.get("tools").get(0).get("name").asString()).isEqualTo("answer");
        assertThat(body.get("tool_choice").asString()).isEqualTo("auto");
        assertThat(body.has("text")).isFalse();
    }

    @Test
    void theInstructionStandsAloneWithoutSystemText() {
        ChatRequest request = ChatRequest.builder("m").user("Capital?").output(OUTPUT).build();

        assertThat(MAPPER.readTree(encode(ResponsesProfiles.DEEPSEEK, request)).get("instructions").asString())
                .isEqualTo(StructuredOutputs.instruction(OUTPUT, StructuredOutputMethod.TOOL_AUTO));
    }

    @Test
    void theNativeStrategyIsRefusedWhereTheServerHasNoNativeForm() {
        ChatRequest request = base().output(OUTPUT.withStrategy(OutputSchema.Strategy.NATIVE)).build();

        assertThatThrownBy(() -> encode(ResponsesProfiles.DEEPSEEK, request)).isInstanceOf(UnsupportedInput.class)
                .satisfies(e -> assertThat(((UnsupportedInput) e).reason()).isEqualTo(UnsupportedInputException.Reason.KIND));
        assertThatThrownBy(() -> ResponsesCodec.of(ResponsesProfiles.DEEPSEEK).structuredOutputMethod(request))
                .isInstanceOf(UnsupportedInput.class);
        assertThat(ResponsesCodec.of(ResponsesProfiles.OPENAI).structuredOutputMethod(request))
                .isEqualTo(StructuredOutputMethod.NATIVE);
    }

    @Test
    void eachKnownProfileReportsTheMethodItsEncoderWrites() {
        ChatRequest request = base().output(OUTPUT).build();
        for (String name : ResponsesProfiles.names()) {
            ResponsesProfile profile = ResponsesProfiles.byName(name);
            JsonNode body = MAPPER.readTree(encode(profile, request));
            StructuredOutputMethod method = ResponsesCodec.of(profile).structuredOutputMethod(request);
            assertThat(body.has("text")).as(name).isEqualTo(method == StructuredOutputMethod.NATIVE);
            assertThat(body.has("tool_choice")).as(name).isEqualTo(method != StructuredOutputMethod.NATIVE);
        }
        assertThat(ResponsesCodec.of(ResponsesProfiles.OPENAI).structuredOutputMethod(base().build())).isNull();
    }
}
