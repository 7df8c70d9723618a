package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.StructuredOutputs;
import dev.ruminate.providers.spi.UnsupportedInput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Golden request bodies for structured output: each method in its Chat Completions form, per
 * representative profile, and the codec's reported method always the one the encoder wrote.
 */
class ChatCompletionsStructuredOutputTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},"
            + "\"required\":[\"name\"],\"additionalProperties\":false}";
    private static final OutputSchema CITY = new OutputSchema("city", SCHEMA, "The city asked for", true, OutputSchema.Strategy.AUTO);
    private static final ToolDefinition WEATHER = new ToolDefinition("weather", "Current weather", "{\"type\":\"object\"}");
    private static final String TOOL_JSON = "{\"type\":\"function\",\"function\":{\"name\":\"city\",\"description\":"
            + JsonWriting.quoted(StructuredOutputs.tool(CITY).description()) + ",\"parameters\":" + SCHEMA + "}}";

    private static String encode(CompatProfile profile, ChatRequest request) {
        return new String(ChatCompletionsCodec.encodeRequest(profile, request, false), StandardCharsets.UTF_8);
    }

    private static ChatRequest.Builder ask(String model, OutputSchema output) {
        return ChatRequest.builder(model).system("Be brief.").user("Capital of France?").output(output);
    }

    private static String instruction(StructuredOutputMethod method) {
        return "{\"role\":\"system\",\"content\":" + JsonWriting.quoted(StructuredOutputs.instruction(CITY, method)) + "}";
    }

    private static final String MESSAGES_HEAD = "{\"role\":\"system\",\"content\":\"Be brief.\"},";
    private static final String USER = "{\"role\":\"user\",\"content\":\"Capital of France?\"}";
    private static final String NATIVE = "\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"city\","
            + "\"description\":\"The city asked for\",\"schema\":" + SCHEMA + ",\"strict\":true}}";

    static Stream<Arguments> nativeProfiles() {
        return Stream.of(Arguments.of(Profiles.OPENAI, "gpt-4.1"), Arguments.of(Profiles.OPENROUTER, "openai/gpt-4.1"),
                Arguments.of(Profiles.MISTRAL, "mistral-small-latest"), Arguments.of(Profiles.GROQ, "openai/gpt-oss-120b"),
                Arguments.of(Profiles.GEMINI_OPENAI, "gemini-2.5-flash"), Arguments.of(Profiles.PERPLEXITY, "sonar"),
                Arguments.of(Profiles.AZURE, "gpt-4.1"), Arguments.of(Profiles.XAI, "grok-4"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nativeProfiles")
    void profilesWithJsonSchemaCarryTheSchemaNatively(CompatProfile profile, String model) {
        ChatRequest request = ask(model, CITY).build();

        assertThat(encode(profile, request)).isEqualTo("{\"model\":\"" + model + "\",\"messages\":[" + MESSAGES_HEAD + USER + "],"
                + NATIVE + "}");
        assertThat(ChatCompletionsCodec.of(profile).structuredOutputMethod(request)).isEqualTo(StructuredOutputMethod.NATIVE);
    }

    @Test
    void aSchemaWithoutDescriptionAndNotStrictLeavesTheDescriptionOut() {
        OutputSchema loose = new OutputSchema("city", SCHEMA, null, false, OutputSchema.Strategy.NATIVE);

        assertThat(encode(Profiles.OPENAI, ask("gpt-4.1", loose).build())).endsWith("\"response_format\":{\"type\":\"json_schema\","
                + "\"json_schema\":{\"name\":\"city\",\"schema\":" + SCHEMA + ",\"strict\":false}}}");
    }

    @Test
    void theToolStrategyOnOpenAiForcesTheOutputToolAfterTheUsersTools() {
        ChatRequest request = ask("gpt-4.1", CITY.withStrategy(OutputSchema.Strategy.TOOL)).tool(WEATHER).build();

        assertThat(encode(Profiles.OPENAI, request)).isEqualTo("{\"model\":\"gpt-4.1\",\"messages\":[" + MESSAGES_HEAD + USER + "],"
                + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"weather\",\"description\":\"Current weather\","
                + "\"parameters\":{\"type\":\"object\"}}}," + TOOL_JSON + "],"
                + "\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"city\"}}}");
        assertThat(ChatCompletionsCodec.of(Profiles.OPENAI).structuredOutputMethod(request))
                .isEqualTo(StructuredOutputMethod.TOOL_FORCED);
    }

    /** DeepSeek thinks by default (V4) and refuses a forced tool then: AUTO takes JSON mode, with the instruction. */
    @Test
    void deepSeekWithThinkingUsesJsonModeWithTheInstructionAfterTheSystemText() {
        ChatRequest request = ask("deepseek-v4-flash", CITY).build();

        assertThat(encode(Profiles.DEEPSEEK, request)).isEqualTo("{\"model\":\"deepseek-v4-flash\",\"messages\":[" + MESSAGES_HEAD
                + instruction(StructuredOutputMethod.JSON_MODE) + "," + USER + "],\"response_format\":{\"type\":\"json_object\"}}");
        assertThat(ChatCompletionsCodec.of(Profiles.DEEPSEEK).structuredOutputMethod(request))
                .isEqualTo(StructuredOutputMethod.JSON_MODE);
        // DeepSeek's JSON mode wants the word json in the prompt: the instruction has it
        assertThat(StructuredOutputs.instruction(CITY, StructuredOutputMethod.JSON_MODE)).containsIgnoringCase("json");
    }

    @Test
    void deepSeekToolStrategyWithThinkingOffersTheToolWithAutoAndTheInstruction() {
        ChatRequest request = ChatRequest.builder("deepseek-v4-pro").user("Capital of France?")
                .output(CITY.withStrategy(OutputSchema.Strategy.TOOL)).build();

        // no system text: the instruction is the first message
        assertThat(encode(Profiles.DEEPSEEK, request)).isEqualTo("{\"model\":\"deepseek-v4-pro\",\"messages\":["
                + instruction(StructuredOutputMethod.TOOL_AUTO) + "," + USER + "],\"tools\":[" + TOOL_JSON + "],\"tool_choice\":\"auto\"}");
        assertThat(ChatCompletionsCodec.of(Profiles.DEEPSEEK).structuredOutputMethod(request))
                .isEqualTo(StructuredOutputMethod.TOOL_AUTO);
    }

    @Test
    void deepSeekWithThinkingOffForcesTheTool() {
        ChatRequest off = ask("deepseek-v4-flash", CITY).reasoning(new ReasoningOptions(false, null, null, null)).build();
        ChatRequest chat = ask("deepseek-chat", CITY).build();

        assertThat(encode(Profiles.DEEPSEEK, off)).contains("\"tools\":[" + TOOL_JSON + "],"
                + "\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"city\"}},\"thinking\":{\"type\":\"disabled\"}");
        assertThat(encode(Profiles.DEEPSEEK, chat)).isEqualTo("{\"model\":\"deepseek-chat\",\"messages\":[" + MESSAGES_HEAD + USER
                + "],\"tools\":[" + TOOL_JSON + "],\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"city\"}}}");
        // an extra that switches thinking off counts too
        ChatRequest extraOff = ask("deepseek-v4-flash", CITY).extra("thinking", Map.of("type", "disabled")).build();
        assertThat(ChatCompletionsCodec.of(Profiles.DEEPSEEK).structuredOutputMethod(extraOff))
                .isEqualTo(StructuredOutputMethod.TOOL_FORCED);
    }

    @Test
    void theNativeStrategyOnAJsonObjectOnlyProfileIsRefusedBeforeEncoding() {
        ChatRequest request = ask("deepseek-v4-flash", CITY.withStrategy(OutputSchema.Strategy.NATIVE)).build();

        assertThatThrownBy(() -> encode(Profiles.DEEPSEEK, request)).isInstanceOfSatisfying(UnsupportedInput.class,
                e -> assertThat(e.reason()).isEqualTo(UnsupportedInputException.Reason.KIND));
        assertThatThrownBy(() -> ChatCompletionsCodec.of(Profiles.DEEPSEEK).structuredOutputMethod(request))
                .isInstanceOf(UnsupportedInput.class);
        // Perplexity has json_schema but no tools
        assertThatThrownBy(() -> encode(Profiles.PERPLEXITY, ask("sonar", CITY.withStrategy(OutputSchema.Strategy.TOOL)).build()))
                .isInstanceOf(UnsupportedInput.class).hasMessageContaining("takes no tools");
    }

    @Test
    void glmTakesOnlyAutoToolChoiceSoAutoIsJsonModeAndMiniMaxOffersTheToolUnforced() {
        assertThat(encode(Profiles.GLM, ask("glm-4.7", CITY).build())).isEqualTo("{\"model\":\"glm-4.7\",\"messages\":[" + MESSAGES_HEAD
                + instruction(StructuredOutputMethod.JSON_MODE) + "," + USER + "],\"response_format\":{\"type\":\"json_object\"}}");
        assertThat(ChatCompletionsCodec.of(Profiles.MINIMAX).structuredOutputMethod(ask("MiniMax-M2", CITY).build()))
                .isEqualTo(StructuredOutputMethod.TOOL_AUTO);
        CompatProfile plain = Profiles.OPENAI_COMPATIBLE.toBuilder().tools(false, CompatProfile.ForcedToolChoice.NEVER).build();
        assertThat(encode(plain, ask("m", CITY).build())).isEqualTo("{\"model\":\"m\",\"messages\":[" + MESSAGES_HEAD
                + instruction(StructuredOutputMethod.INSTRUCTION) + "," + USER + "]}");
    }

    @Test
    void extrasWinOverWhatTheEncoderWrites() {
        ChatRequest request = ask("gpt-4.1", CITY).extra("response_format", Map.of("type", "text")).build();

        String body = encode(Profiles.OPENAI, request);

        assertThat(body).endsWith("\"response_format\":{\"type\":\"text\"}}");
        assertThat(body).doesNotContain("json_schema");
    }

    /**
     * DeepSeek names a refused message by its wire index; the instruction is one wire message more,
     * so the index is mapped back past it.
     */
    @Test
    void aDeepSeekRejectionIndexSkipsTheInstructionMessage() {
        ChatRequest request = ChatRequest.builder("deepseek-v4-flash").system("s").user("q")
                .message(new dev.ruminate.core.message.AssistantMessage(List.of(
                        new dev.ruminate.core.message.ToolCallPart("c1", "f", "{}", true, dev.ruminate.core.message.Seals.NONE)),
                        "deepseek", null, dev.ruminate.core.message.FinishReason.TOOL_CALLS, null,
                        dev.ruminate.core.message.Usage.UNKNOWN))
                .message(dev.ruminate.core.message.Message.toolResult("c1", "r")).output(CITY).build();
        String wire = encode(Profiles.DEEPSEEK, request);
        assertThat(MAPPER.readTree(wire).get("messages").get(3).get("role").asString()).isEqualTo("assistant");

        dev.ruminate.core.error.ProviderHttpException refused = new dev.ruminate.core.error.ProviderHttpException("deepseek", 400,
                new dev.ruminate.core.error.ProviderError("invalid_request_error", null,
                        "Missing `reasoning_content` field in the assistant message at message index 3", null),
                null, null, "{}");

        dev.ruminate.core.error.OpaqueStateRejectedException typed = ChatCompletionsCodec.of(Profiles.DEEPSEEK)
                .classifyRejection("deepseek", request, refused);

        assertThat(typed).isNotNull();
        assertThat(typed.turn()).isEqualTo(2);
    }

    static Stream<Arguments> everyProfileStrategyAndThinking() {
        List<Arguments> all = new ArrayList<>();
        for (String name : Profiles.names()) {
            for (OutputSchema.Strategy strategy : OutputSchema.Strategy.values()) {
                for (ReasoningOptions reasoning : List.of(ReasoningOptions.DEFAULT, new ReasoningOptions(false, null, null, null),
                        new ReasoningOptions(true, null, null, null))) {
                    all.add(Arguments.of(name, strategy, reasoning));
                }
            }
        }
        return all.stream();
    }

    /** The method the codec reports is always the one whose wire form the encoder wrote. */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("everyProfileStrategyAndThinking")
    void theReportedMethodIsTheWrittenOne(String name, OutputSchema.Strategy strategy, ReasoningOptions reasoning) {
        CompatProfile profile = Profiles.byName(name);
        ChatRequest request = ask("some-model", CITY.withStrategy(strategy)).reasoning(reasoning).build();
        StructuredOutputMethod reported;
        try {
            reported = ChatCompletionsCodec.of(profile).structuredOutputMethod(request);
        } catch (UnsupportedInput refused) {
            assertThatThrownBy(() -> encode(profile, request)).isInstanceOf(UnsupportedInput.class);
            return;
        }
        JsonNode body = MAPPER.readTree(encode(profile, request));
        String format = body.path("response_format").path("type").asString("");
        JsonNode choice = body.path("tool_choice");
        boolean instructed = body.get("messages").get(1).path("content").asString("").contains("JSON Schema")
                || body.get("messages").get(1).path("content").asString("").contains("call the tool city");
        assertThat(format).isEqualTo(switch (reported) {
            case NATIVE -> "json_schema";
            case JSON_MODE -> "json_object";
            default -> "";
        });
        assertThat(choice.isObject()).isEqualTo(reported == StructuredOutputMethod.TOOL_FORCED);
        assertThat(choice.isString() && choice.asString().equals("auto")).isEqualTo(reported == StructuredOutputMethod.TOOL_AUTO);
        assertThat(instructed).isEqualTo(StructuredOutputs.instruction(CITY, reported) != null);
        if (strategy == OutputSchema.Strategy.NATIVE) {
            assertThat(reported).isEqualTo(StructuredOutputMethod.NATIVE);
        }
    }
}
