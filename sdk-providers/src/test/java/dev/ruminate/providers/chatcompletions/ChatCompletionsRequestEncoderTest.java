package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.think.ThinkTagOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Golden tests: request in, exact JSON out; and history round trips against requests real APIs accepted. */
class ChatCompletionsRequestEncoderTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private static String encode(CompatProfile profile, ChatRequest request, boolean stream) {
        return new String(ChatCompletionsCodec.encodeRequest(profile, request, stream), StandardCharsets.UTF_8);
    }

    private static AssistantMessage assistant(String provider, Part... parts) {
        return new AssistantMessage(List.of(parts), provider, null, FinishReason.STOP, null, Usage.UNKNOWN);
    }

    private static ReasoningPart reasoning(String text, String source) {
        return new ReasoningPart(text, false, source, Seals.NONE);
    }

    private static ToolCallPart call(String id, String name, String arguments) {
        return new ToolCallPart(id, name, arguments, true, Seals.NONE);
    }

    private static JsonNode recordedMessages(String file) {
        return MAPPER.readTree(Fixtures.bytes("sendback/" + file)).get("messages");
    }

    private static JsonNode messagesOf(CompatProfile profile, ChatRequest request) {
        return MAPPER.readTree(ChatCompletionsCodec.encodeRequest(profile, request, false)).get("messages");
    }

    @Test
    void streamingRequestWithToolsSamplingAndEffort() {
        ChatRequest request = ChatRequest.builder("gpt-5.1")
                .system("Be brief.")
                .user("Weather in Paris?")
                .tool(new ToolDefinition("weather", "Current weather",
                        "{ \"type\": \"object\",\n \"properties\": {\"city\": {\"type\": \"string\"}}, \"required\": [\"city\"] }"))
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH))
                .sampling(new SamplingOptions(0.2, 0.9, 1000, List.of("END"), 7L))
                .build();

        assertThat(encode(Profiles.OPENAI, request, true)).isEqualTo("{\"model\":\"gpt-5.1\",\"messages\":["
                + "{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":\"Weather in Paris?\"}],"
                + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"weather\",\"description\":\"Current weather\","
                + "\"parameters\":{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}}}],"
                + "\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                // gpt-5.1 reasoning refuses temperature and top_p: left out (with a warning, ChatCompletionsWarningsTest)
                + "\"max_completion_tokens\":1000,\"stop\":[\"END\"],\"seed\":7,"
                + "\"reasoning_effort\":\"high\"}");
    }

    @Test
    void nonStreamingRequestUsesTheProfilesTokenFieldAndNoStreamFlags() {
        ChatRequest request = ChatRequest.builder("deepseek-chat").user("hi")
                .sampling(new SamplingOptions(null, null, 50, List.of(), null)).build();

        assertThat(encode(Profiles.DEEPSEEK, request, false))
                .isEqualTo("{\"model\":\"deepseek-chat\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":50}");
        assertThat(encode(Profiles.GLM, request, true)).doesNotContain("stream_options").contains("\"stream\":true");
    }

    static Stream<Arguments> reasoningStyles() {
        return Stream.of(
                Arguments.of(Profiles.OPENAI, ReasoningOptions.effort(ReasoningEffort.MAX), ",\"reasoning_effort\":\"xhigh\""),
                Arguments.of(Profiles.OPENAI, new ReasoningOptions(false, null, null, null), ",\"reasoning_effort\":\"none\""),
                Arguments.of(Profiles.OPENAI, ReasoningOptions.budget(1000), ""),
                Arguments.of(Profiles.OPENAI, ReasoningOptions.DEFAULT, ""),
                Arguments.of(Profiles.OLLAMA, ReasoningOptions.effort(ReasoningEffort.LOW), ",\"reasoning_effort\":\"low\""),
                Arguments.of(Profiles.DEEPSEEK, ReasoningOptions.effort(ReasoningEffort.LOW),
                        ",\"thinking\":{\"type\":\"enabled\"},\"reasoning_effort\":\"high\""),
                Arguments.of(Profiles.DEEPSEEK, ReasoningOptions.effort(ReasoningEffort.MAX),
                        ",\"thinking\":{\"type\":\"enabled\"},\"reasoning_effort\":\"max\""),
                Arguments.of(Profiles.DEEPSEEK, ReasoningOptions.effort(ReasoningEffort.NONE), ",\"thinking\":{\"type\":\"disabled\"}"),
                Arguments.of(Profiles.DEEPSEEK, new ReasoningOptions(true, null, null, null), ",\"thinking\":{\"type\":\"enabled\"}"),
                Arguments.of(Profiles.OPENROUTER, ReasoningOptions.budget(2048), ",\"reasoning\":{\"max_tokens\":2048,\"enabled\":true}"),
                Arguments.of(Profiles.OPENROUTER, new ReasoningOptions(null, ReasoningEffort.MEDIUM, null, false),
                        ",\"reasoning\":{\"effort\":\"medium\",\"exclude\":true}"),
                Arguments.of(Profiles.OPENROUTER, ReasoningOptions.effort(ReasoningEffort.MAX),
                        ",\"reasoning\":{\"effort\":\"xhigh\",\"enabled\":true}"),
                Arguments.of(Profiles.SNOWFLAKE, ReasoningOptions.effort(ReasoningEffort.LOW),
                        ",\"reasoning\":{\"effort\":\"low\",\"enabled\":true}"),
                Arguments.of(Profiles.GROQ, ReasoningOptions.effort(ReasoningEffort.MINIMAL), ",\"reasoning_effort\":\"low\""),
                Arguments.of(Profiles.GROQ, new ReasoningOptions(null, ReasoningEffort.HIGH, null, false),
                        ",\"reasoning_effort\":\"high\",\"reasoning_format\":\"hidden\""),
                Arguments.of(Profiles.GROQ, new ReasoningOptions(null, null, null, true), ",\"reasoning_format\":\"parsed\""),
                Arguments.of(Profiles.XAI, ReasoningOptions.effort(ReasoningEffort.MEDIUM), ",\"reasoning_effort\":\"low\""),
                Arguments.of(Profiles.XAI, ReasoningOptions.effort(ReasoningEffort.HIGH), ",\"reasoning_effort\":\"high\""),
                Arguments.of(Profiles.XAI, ReasoningOptions.effort(ReasoningEffort.NONE), ""),
                Arguments.of(Profiles.GLM, ReasoningOptions.effort(ReasoningEffort.HIGH), ",\"thinking\":{\"type\":\"enabled\"}"),
                Arguments.of(Profiles.GLM, new ReasoningOptions(false, null, null, null), ",\"thinking\":{\"type\":\"disabled\"}"),
                Arguments.of(Profiles.VLLM, ReasoningOptions.effort(ReasoningEffort.NONE),
                        ",\"chat_template_kwargs\":{\"enable_thinking\":false}"),
                Arguments.of(Profiles.LLAMA_CPP, ReasoningOptions.budget(100), ",\"chat_template_kwargs\":{\"enable_thinking\":true}"),
                Arguments.of(Profiles.CHUTES, ReasoningOptions.effort(ReasoningEffort.HIGH),
                        ",\"chat_template_kwargs\":{\"enable_thinking\":true}"),
                Arguments.of(Profiles.QWEN, ReasoningOptions.budget(500), ",\"enable_thinking\":true,\"thinking_budget\":500"),
                Arguments.of(Profiles.QWEN, ReasoningOptions.effort(ReasoningEffort.NONE), ",\"enable_thinking\":false"),
                Arguments.of(Profiles.CEREBRAS, ReasoningOptions.effort(ReasoningEffort.MEDIUM), ",\"reasoning_effort\":\"medium\""),
                Arguments.of(Profiles.PERPLEXITY, ReasoningOptions.effort(ReasoningEffort.HIGH), ""),
                Arguments.of(Profiles.OPENAI_COMPATIBLE, ReasoningOptions.effort(ReasoningEffort.HIGH), ""),
                Arguments.of(Profiles.GEMINI_OPENAI, ReasoningOptions.effort(ReasoningEffort.MAX), ",\"reasoning_effort\":\"high\""),
                Arguments.of(Profiles.GEMINI_OPENAI, ReasoningOptions.effort(ReasoningEffort.MINIMAL),
                        ",\"reasoning_effort\":\"minimal\""),
                Arguments.of(Profiles.GEMINI_OPENAI, ReasoningOptions.effort(ReasoningEffort.MEDIUM), ",\"reasoning_effort\":\"medium\""),
                Arguments.of(Profiles.GEMINI_OPENAI, ReasoningOptions.effort(ReasoningEffort.NONE), ",\"reasoning_effort\":\"none\""),
                Arguments.of(Profiles.GEMINI_OPENAI, new ReasoningOptions(false, null, null, null), ",\"reasoning_effort\":\"none\""),
                Arguments.of(Profiles.GEMINI_OPENAI, ReasoningOptions.budget(1024), ""),
                Arguments.of(Profiles.VERCEL_GATEWAY, ReasoningOptions.effort(ReasoningEffort.HIGH),
                        ",\"reasoning\":{\"effort\":\"high\",\"enabled\":true}"),
                Arguments.of(Profiles.MOONSHOT, new ReasoningOptions(false, null, null, null), ",\"thinking\":{\"type\":\"disabled\"}"),
                Arguments.of(Profiles.MINIMAX, ReasoningOptions.effort(ReasoningEffort.HIGH), ""),
                Arguments.of(Profiles.AZURE, ReasoningOptions.effort(ReasoningEffort.LOW), ",\"reasoning_effort\":\"low\""));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("reasoningStyles")
    void eachProfileAsksForReasoningItsOwnWay(CompatProfile profile, ReasoningOptions options, String fields) {
        ChatRequest request = ChatRequest.builder("m").user("hi").reasoning(options).build();

        assertThat(encode(profile, request, false))
                .isEqualTo("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]" + fields + "}");
    }

    @Test
    void extrasReplaceEncoderFieldsAndComeLast() {
        Map<String, Object> thinking = new LinkedHashMap<>();
        thinking.put("type", "enabled");
        thinking.put("clear_thinking", false);
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("tags", List.of("a", 1, 2.5));
        metadata.put("none", null);
        ChatRequest request = ChatRequest.builder("glm-4.7").user("hi")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH))
                .sampling(new SamplingOptions(0.5, null, null, List.of(), null))
                .extra("thinking", thinking)
                .extra("temperature", 1)
                .extra("metadata", metadata)
                .build();

        assertThat(encode(Profiles.GLM, request, false)).isEqualTo("{\"model\":\"glm-4.7\",\"messages\":"
                + "[{\"role\":\"user\",\"content\":\"hi\"}],"
                + "\"thinking\":{\"type\":\"enabled\",\"clear_thinking\":false},\"temperature\":1,"
                + "\"metadata\":{\"tags\":[\"a\",1,2.5],\"none\":null}}");
    }

    @Test
    void invalidSchemasAndExtrasAreRejected() {
        ChatRequest badSchema = ChatRequest.builder("m").user("hi").tool(new ToolDefinition("f", "", "{\"type\":")).build();
        assertThatThrownBy(() -> encode(Profiles.OPENAI, badSchema, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tool f");

        // Extras that are not JSON-like are refused when the request is built, before any encoder sees them.
        assertThatThrownBy(() -> ChatRequest.builder("m").user("hi").extra("x", new Object()).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("extras.x");
        assertThatThrownBy(() -> ChatRequest.builder("m").user("hi").extra("x", Map.of(1, "a")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key that is not a string");
    }

    @Test
    void toolResultsAndAssistantToolCalls() {
        ChatRequest request = ChatRequest.builder("m")
                .user("go")
                .message(assistant(null, call("c1", "f", ""), call("c2", "g", "{\"a\":1}")))
                .message(Message.toolResult("c1", "{\"ok\":true}"))
                .message(AssistantMessage.ofText("done"))
                .build();

        assertThat(encode(Profiles.OPENAI, request, false)).isEqualTo("{\"model\":\"m\",\"messages\":["
                + "{\"role\":\"user\",\"content\":\"go\"},"
                + "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
                + "{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}},"
                + "{\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":\"g\",\"arguments\":\"{\\\"a\\\":1}\"}}]},"
                + "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"{\\\"ok\\\":true}\"},"
                + "{\"role\":\"assistant\",\"content\":\"done\"}]}");
    }

    @Test
    void deepSeekSendsReasoningOnlyInToolTurnsAndNeverToR1() {
        ChatRequest.Builder builder = ChatRequest.builder("deepseek-v4-flash")
                .user("q1")
                .message(assistant("deepseek", reasoning("think1", "reasoning_content"), TextPart.of("calling"),
                        call("c1", "f", "{}")))
                .message(Message.toolResult("c1", "r"))
                .message(assistant("deepseek", reasoning("think2", "reasoning_content"), TextPart.of("answer1")))
                .user("q2")
                .message(assistant("deepseek", reasoning("think3", "reasoning_content"), TextPart.of("answer2")))
                .user("q3");

        assertThat(encode(Profiles.DEEPSEEK, builder.build(), false)).isEqualTo("{\"model\":\"deepseek-v4-flash\",\"messages\":["
                + "{\"role\":\"user\",\"content\":\"q1\"},"
                + "{\"role\":\"assistant\",\"content\":\"calling\",\"reasoning_content\":\"think1\",\"tool_calls\":"
                + "[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]},"
                + "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"r\"},"
                + "{\"role\":\"assistant\",\"content\":\"answer1\",\"reasoning_content\":\"think2\"},"
                + "{\"role\":\"user\",\"content\":\"q2\"},"
                + "{\"role\":\"assistant\",\"content\":\"answer2\"},"
                + "{\"role\":\"user\",\"content\":\"q3\"}]}");

        String r1 = encode(Profiles.DEEPSEEK, builder.model("deepseek-r1").build(), false);
        assertThat(r1).doesNotContain("reasoning_content");
    }

    @Test
    void deepSeekToolLoopRoundTripMatchesTheRequestTheApiAccepted() {
        JsonNode recorded = recordedMessages("pydantic-deepseek-reasoner-tool-calls.turn2.request.json");
        AssistantMessage turn1 = Fixtures.completion(Profiles.DEEPSEEK, "deepseek/pydantic-deepseek-reasoner-tool-calls.turn1.json")
                .folded().toMessage();
        // a tool call the client made up itself (no reasoning, no provider): DeepSeek still needs the field
        AssistantMessage synthetic = assistant(null, call("auto_load_eb5fc31bb581b4e7", "search_tools", "{\"queries\":[\"DICE_ROLL\"]}"));
        ChatRequest request = ChatRequest.builder("deepseek-reasoner")
                .system(recorded.get(0).get("content").asString())
                .system(recorded.get(1).get("content").asString())
                .user(recorded.get(2).get("content").asString())
                .message(turn1)
                .message(Message.toolResult("call_00_sXqYgMESDht75NCLLZtt9804", recorded.get(4).get("content").asString()))
                .message(synthetic)
                .message(Message.toolResult("auto_load_eb5fc31bb581b4e7", recorded.get(6).get("content").asString()))
                .build();

        assertThat(messagesOf(Profiles.DEEPSEEK, request)).isEqualTo(recorded);
    }

    @Test
    void glmPreservedThinkingRoundTripMatchesTheRequestTheApiAccepted() {
        JsonNode recorded = recordedMessages("pydantic-zai-glm-preserved-thinking-multiturn.turn2.request.json");
        AssistantMessage turn1 = Fixtures.completion(Profiles.GLM,
                "openai-compatible/pydantic-zai-glm-preserved-thinking-multiturn.turn1.json").folded().toMessage();
        ChatRequest request = ChatRequest.builder("glm-4.7")
                .user(recorded.get(0).get("content").asString())
                .message(turn1)
                .user(recorded.get(2).get("content").asString())
                .build();

        assertThat(messagesOf(Profiles.GLM, request)).isEqualTo(recorded);
        // preserved thinking: the accepted request asked the server to keep the reasoning it was sent
        JsonNode body = MAPPER.readTree(ChatCompletionsCodec.encodeRequest(Profiles.GLM, request, false));
        JsonNode accepted = MAPPER.readTree(Fixtures.bytes("sendback/pydantic-zai-glm-preserved-thinking-multiturn.turn2.request.json"));
        assertThat(body.get("thinking")).isEqualTo(accepted.get("thinking"));
        ChatRequest firstTurn = ChatRequest.builder("glm-4.7").user("Hi").build();
        assertThat(MAPPER.readTree(ChatCompletionsCodec.encodeRequest(Profiles.GLM, firstTurn, false)).has("thinking")).isFalse();
    }

    @Test
    void thinkTagSendBackRoundTripMatchesTheRequestTheApiAccepted() {
        CompatProfile cerebrasTags = Profiles.CEREBRAS.toBuilder().sendBack(ReasoningSendBack.thinkTags()).build();
        JsonNode recorded = recordedMessages("pydantic-cerebras-glm-reasoning-multiturn.turn2.request.json");
        AssistantMessage turn1 = Fixtures.completion(cerebrasTags,
                "openai-compatible/pydantic-cerebras-glm-reasoning-multiturn.turn1.json").folded().toMessage();
        ChatRequest request = ChatRequest.builder("zai-glm-4.7")
                .user(recorded.get(0).get("content").asString())
                .message(turn1)
                .user(recorded.get(2).get("content").asString())
                .build();

        assertThat(messagesOf(cerebrasTags, request)).isEqualTo(recorded);
    }

    @Test
    void reasoningDetailsRoundTripMatchesTheRequestSnowflakeAccepted() {
        JsonNode recorded = recordedMessages("pydantic-snowflake-claude-thinking-multiturn.turn2.request.json");
        JsonNode detail = recorded.get(1).get("reasoning_details").get(0);
        Seals seals = Seals.NONE.with(Seal.Kind.SIGNATURE, detail.get("signature").asString())
                .with(Seal.Kind.ITEM_ID, "reasoning-text-1").with(Seal.Kind.FORMAT, "anthropic-claude-v1");
        AssistantMessage turn1 = assistant("snowflake",
                new ReasoningPart("Let me get the weather for Mexico City.", false, "reasoning_details", seals),
                TextPart.of("Sure! Let me check that for you!"),
                call("toolu_bdrk_01VmA9jmWpws4HgPqjhtGo6i", "get_weather", "{\"city\":\"Mexico City\"}"));
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-6")
                .user(recorded.get(0).get("content").asString())
                .message(turn1)
                .message(Message.toolResult("toolu_bdrk_01VmA9jmWpws4HgPqjhtGo6i", "Sunny, 25°C"))
                .build();

        assertThat(messagesOf(Profiles.SNOWFLAKE, request)).isEqualTo(recorded);
    }

    @Test
    void openRouterSendsDetailsBackExactlyAsDecoded() {
        AssistantMessage claude = Fixtures.stream(Profiles.OPENROUTER,
                "openrouter/pydantic-openrouter-claude-reasoning-details-stream.sse").folded().toMessage();
        String signature = claude.parts().get(0).seals().signature();
        ChatRequest request = ChatRequest.builder("anthropic/claude-sonnet-4.5").user("2+2?").message(claude).user("and 3+3?").build();

        assertThat(encode(Profiles.OPENROUTER, request, false)).isEqualTo("{\"model\":\"anthropic/claude-sonnet-4.5\",\"messages\":["
                + "{\"role\":\"user\",\"content\":\"2+2?\"},"
                + "{\"role\":\"assistant\",\"content\":\"2 + 2 = 4\",\"reasoning_details\":[{\"type\":\"reasoning.text\","
                + "\"text\":\"This is a simple arithmetic question. 2+2 equals 4.\",\"signature\":\"" + signature + "\","
                + "\"format\":\"anthropic-claude-v1\",\"index\":0}]},"
                + "{\"role\":\"user\",\"content\":\"and 3+3?\"}]}");
    }

    @Test
    void openRouterSummaryAndEncryptedDetails() {
        Seals seals = Seals.NONE.with(Seal.Kind.ENCRYPTED, "gAAA").with(Seal.Kind.ITEM_ID, "rs_1")
                .with(Seal.Kind.FORMAT, "openai-responses-v1");
        AssistantMessage own = assistant("openrouter", new ReasoningPart("**Plan**", true, "reasoning_details", seals),
                TextPart.of("Hi"));
        ChatRequest request = ChatRequest.builder("openai/gpt-5-mini").user("q").message(own).user("q2").build();

        assertThat(encode(Profiles.OPENROUTER, request, false)).contains("\"reasoning_details\":["
                + "{\"type\":\"reasoning.summary\",\"summary\":\"**Plan**\",\"format\":\"openai-responses-v1\",\"index\":0},"
                + "{\"type\":\"reasoning.encrypted\",\"data\":\"gAAA\",\"id\":\"rs_1\",\"format\":\"openai-responses-v1\",\"index\":0}]");
    }

    @Test
    void anotherProvidersReasoningIsNeverSent() {
        Seals signed = Seals.NONE.with(Seal.Kind.SIGNATURE, "sig-from-anthropic");
        AssistantMessage foreign = assistant("anthropic", new ReasoningPart("secret thoughts", false, "thinking", signed),
                TextPart.of("answer"));
        AssistantMessage foreignPlain = assistant("deepseek", reasoning("plain thoughts", "reasoning_content"), TextPart.of("a2"));
        ChatRequest request = ChatRequest.builder("m").user("q").message(foreign).message(foreignPlain).user("q2").build();

        for (CompatProfile profile : List.of(Profiles.OPENROUTER, Profiles.SNOWFLAKE, Profiles.VLLM, Profiles.GLM,
                Profiles.CEREBRAS.toBuilder().sendBack(ReasoningSendBack.thinkTags()).build())) {
            assertThat(encode(profile, request, false)).as(profile.name())
                    .doesNotContain("sig-from-anthropic").doesNotContain("secret thoughts").doesNotContain("plain thoughts")
                    .contains("\"content\":\"answer\"", "\"content\":\"a2\"");
        }
    }

    @Test
    void fieldModeSendsOwnReasoningInTheProfilesField() {
        ChatRequest request = ChatRequest.builder("qwen3").user("q")
                .message(assistant("vllm", reasoning("a", "reasoning"), reasoning("b", "tags"), TextPart.of("x")))
                .message(assistant(null, reasoning("hand-written", "reasoning"), TextPart.of("y")))
                .user("q2").build();

        assertThat(encode(Profiles.VLLM, request, false)).isEqualTo("{\"model\":\"qwen3\",\"messages\":["
                + "{\"role\":\"user\",\"content\":\"q\"},"
                + "{\"role\":\"assistant\",\"content\":\"x\",\"reasoning\":\"ab\"},"
                + "{\"role\":\"assistant\",\"content\":\"y\",\"reasoning\":\"hand-written\"},"
                + "{\"role\":\"user\",\"content\":\"q2\"}]}");
    }

    @Test
    void thinkTagModeUsesTheProfilesTagsAndOrder() {
        CompatProfile custom = Profiles.OPENAI_COMPATIBLE.toBuilder().name("local")
                .thinkTags(new ThinkTagOptions("<reasoning>", "</reasoning>", false))
                .sendBack(ReasoningSendBack.thinkTags()).build();
        ChatRequest request = ChatRequest.builder("m").user("q")
                .message(assistant("local", reasoning("R1", "tags"), call("c", "f", "{}")))
                .message(Message.toolResult("c", "ok"))
                .message(assistant("local", TextPart.of("pre"), reasoning("R2", "tags"), TextPart.of("post")))
                .build();

        assertThat(encode(custom, request, false)).isEqualTo("{\"model\":\"m\",\"messages\":["
                + "{\"role\":\"user\",\"content\":\"q\"},"
                + "{\"role\":\"assistant\",\"content\":\"<reasoning>\\nR1\\n</reasoning>\",\"tool_calls\":"
                + "[{\"id\":\"c\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]},"
                + "{\"role\":\"tool\",\"tool_call_id\":\"c\",\"content\":\"ok\"},"
                + "{\"role\":\"assistant\",\"content\":\"pre\\n\\n<reasoning>\\nR2\\n</reasoning>\\n\\npost\"}]}");
    }

    @Test
    void dropModeSendsNoReasoning() {
        ChatRequest request = ChatRequest.builder("openai/gpt-oss-120b").user("q")
                .message(assistant("groq", reasoning("thinking", "reasoning"), TextPart.of("x"))).user("q2").build();

        for (CompatProfile profile : List.of(Profiles.GROQ, Profiles.OPENAI, Profiles.XAI, Profiles.PERPLEXITY,
                Profiles.QWEN, Profiles.CHUTES, Profiles.OPENAI_COMPATIBLE)) {
            assertThat(encode(profile, request, false)).as(profile.name()).doesNotContain("thinking");
        }
    }
}
