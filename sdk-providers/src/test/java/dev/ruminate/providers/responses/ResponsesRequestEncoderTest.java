package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.testing.Recorded;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Request bodies: exact JSON for hand-built conversations, and later-turn requests built from the
 * recorded first turn compared with the requests the real APIs accepted (in {@code fixtures/sendback}).
 */
class ResponsesRequestEncoderTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String PLAN_SCHEMA =
            "{\"additionalProperties\":false,\"properties\":{\"plan\":{\"type\":\"string\"}},\"required\":[\"plan\"],\"type\":\"object\"}";

    private static String encode(ResponsesProfile profile, ChatRequest request, boolean stream) {
        return new String(ResponsesCodec.encodeRequest(profile, request, stream), StandardCharsets.UTF_8);
    }

    private static JsonNode tree(String json) {
        return MAPPER.readTree(json);
    }

    private static AssistantMessage reduced(Recorded.Outcome outcome) {
        return Responses.reduce(outcome.folded().events).message();
    }

    private static Seals id(String itemId) {
        return Seals.NONE.with(Seal.Kind.ITEM_ID, itemId);
    }

    private static AssistantMessage assistant(String provider, dev.ruminate.core.message.Part... parts) {
        return new AssistantMessage(List.of(parts), provider, "m", FinishReason.STOP, "completed", Usage.UNKNOWN);
    }

    /** o4-mini refuses temperature and top_p, and Responses has no stop or seed: all left out (warned, see ResponsesWarningsTest). */
    @Test
    void aFirstTurnWithEveryFieldIsExact() {
        ChatRequest request = ChatRequest.builder("o4-mini")
                .system("Be brief.").system("Use metric units.")
                .user("Weather in Paris?")
                .tool(new ToolDefinition("weather", "Current weather", "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}"))
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH))
                .sampling(new SamplingOptions(0.5, 0.9, 800, List.of("STOP"), 7L))
                .extra("parallel_tool_calls", false)
                .build();

        assertThat(encode(ResponsesProfiles.OPENAI, request, true)).isEqualTo("{\"model\":\"o4-mini\","
                + "\"instructions\":\"Be brief.\\n\\nUse metric units.\","
                + "\"input\":[{\"role\":\"user\",\"content\":\"Weather in Paris?\"}],"
                + "\"tools\":[{\"type\":\"function\",\"name\":\"weather\",\"description\":\"Current weather\","
                + "\"parameters\":{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}}],"
                + "\"reasoning\":{\"effort\":\"high\",\"summary\":\"auto\"},"
                + "\"include\":[\"reasoning.encrypted_content\"],\"store\":false,\"stream\":true,"
                + "\"max_output_tokens\":800,\"parallel_tool_calls\":false}");
    }

    @Test
    void reasoningFollowsTheProfileStyle() {
        ChatRequest max = ChatRequest.builder("m").user("Hi").reasoning(ReasoningOptions.effort(ReasoningEffort.MAX)).build();
        assertThat(encode(ResponsesProfiles.XAI, max, false))
                .isEqualTo("{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":\"Hi\"}],\"reasoning\":{\"effort\":\"xhigh\"},"
                        + "\"include\":[\"reasoning.encrypted_content\"],\"store\":false}");
        assertThat(encode(ResponsesProfiles.DEEPSEEK, max, true))
                .isEqualTo("{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":\"Hi\"}],\"stream\":true}");

        ChatRequest off = ChatRequest.builder("m").user("Hi").reasoning(new ReasoningOptions(false, null, null, null)).build();
        assertThat(tree(encode(ResponsesProfiles.OPENAI, off, true)).get("reasoning")).isEqualTo(tree("{\"effort\":\"none\"}"));
        ChatRequest quiet = ChatRequest.builder("m").user("Hi")
                .reasoning(new ReasoningOptions(true, ReasoningEffort.LOW, null, false)).build();
        assertThat(tree(encode(ResponsesProfiles.OPENAI, quiet, true)).get("reasoning")).isEqualTo(tree("{\"effort\":\"low\"}"));
        ChatRequest plain = ChatRequest.builder("m").user("Hi").build();
        assertThat(tree(encode(ResponsesProfiles.OPENAI, plain, true)).has("reasoning")).isFalse();
        ChatRequest replaced = ChatRequest.builder("m").user("Hi").reasoning(ReasoningOptions.effort(ReasoningEffort.LOW))
                .extra("reasoning", Map.of("effort", "low", "summary", "detailed")).extra("store", true).build();
        JsonNode body = tree(encode(ResponsesProfiles.OPENAI, replaced, true));
        assertThat(body.get("reasoning")).isEqualTo(tree("{\"effort\":\"low\",\"summary\":\"detailed\"}"));
        assertThat(body.get("store").booleanValue()).isTrue();
    }

    @Test
    void ownReasoningIsRegroupedIntoItemsBeforeTheItemThatFollowedThem() {
        Seals first = id("rs_1").with(Seal.Kind.ENCRYPTED, "ENC1");
        AssistantMessage earlier = assistant("openai-responses",
                new ReasoningPart("Plan A", true, "summary_text", first),
                new ReasoningPart("Plan B", true, "summary_text", id("rs_1")),
                new ToolCallPart("call_1", "f", "{}", true, id("fc_1")),
                new ReasoningPart("", false, null, id("rs_2").with(Seal.Kind.ENCRYPTED, "ENC2")),
                new ServerToolPart("web_search_call", "ws_1", null, "{\"id\":\"ws_1\",\"type\":\"web_search_call\",\"status\":\"completed\"}", Seals.NONE),
                new ReasoningPart("raw", false, "reasoning_text", id("rs_3")),
                new TextPart("Done", Seals.NONE), new TextPart(" now.", Seals.NONE));
        ChatRequest request = ChatRequest.builder("m").user("Go").message(earlier)
                .message(Message.toolResult("call_1", "42")).user("Thanks").build();

        assertThat(encode(ResponsesProfiles.OPENAI.toBuilder().statelessReasoning(false).build(), request, false))
                .isEqualTo("{\"model\":\"m\",\"input\":["
                        + "{\"role\":\"user\",\"content\":\"Go\"},"
                        + "{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[{\"type\":\"summary_text\",\"text\":\"Plan A\"},"
                        + "{\"type\":\"summary_text\",\"text\":\"Plan B\"}],\"encrypted_content\":\"ENC1\"},"
                        + "{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"call_1\",\"name\":\"f\",\"arguments\":\"{}\"},"
                        + "{\"type\":\"reasoning\",\"id\":\"rs_2\",\"summary\":[],\"encrypted_content\":\"ENC2\"},"
                        + "{\"id\":\"ws_1\",\"type\":\"web_search_call\",\"status\":\"completed\"},"
                        + "{\"type\":\"reasoning\",\"id\":\"rs_3\",\"summary\":[],\"content\":[{\"type\":\"reasoning_text\",\"text\":\"raw\"}]},"
                        + "{\"role\":\"assistant\",\"content\":\"Done now.\"},"
                        + "{\"type\":\"function_call_output\",\"call_id\":\"call_1\",\"output\":\"42\"},"
                        + "{\"role\":\"user\",\"content\":\"Thanks\"}]}");
    }

    @Test
    void reasoningThatIsNotThisServersOwnIsDropped() {
        AssistantMessage anthropic = assistant("anthropic",
                new ReasoningPart("thought", false, "thinking", Seals.NONE.with(Seal.Kind.SIGNATURE, "sig")),
                new ReasoningPart("other", true, "summary_text", id("rs_x")),
                new ServerToolPart("web_search_tool_result", "x", null, "{}", Seals.NONE),
                new ToolCallPart("toolu_1", "f", "{}", true, id("fc_foreign")),
                new TextPart("Answer", Seals.NONE));
        AssistantMessage ownWithoutId = assistant("openai-responses", new ReasoningPart("lost", true, "summary_text", Seals.NONE),
                new TextPart("Again", Seals.NONE));
        ChatRequest request = ChatRequest.builder("m").user("Q").message(anthropic).message(ownWithoutId).build();

        JsonNode input = tree(encode(ResponsesProfiles.OPENAI, request, true)).get("input");

        assertThat(input).isEqualTo(tree("[{\"role\":\"user\",\"content\":\"Q\"},"
                + "{\"type\":\"function_call\",\"call_id\":\"toolu_1\",\"name\":\"f\",\"arguments\":\"{}\"},"
                + "{\"role\":\"assistant\",\"content\":\"Answer\"},{\"role\":\"assistant\",\"content\":\"Again\"}]"));
    }

    @Test
    void aStatelessServerGetsNoReasoningItemItCannotResolve() {
        // a reasoning item known only by id (the web-search recording, made with store on) cannot be
        // found by a server that stores nothing: it is left out, and so are the ids that depend on it
        AssistantMessage stateful = assistant("openai-responses",
                new ReasoningPart("", false, null, id("rs_1")),
                new ServerToolPart("web_search_call", "ws_1", null, "{\"id\":\"ws_1\",\"type\":\"web_search_call\"}", Seals.NONE),
                new ToolCallPart("call_1", "f", "{}", true, id("fc_1")),
                new TextPart("Found it", Seals.NONE));
        ChatRequest request = ChatRequest.builder("m").user("Search").message(stateful).build();

        assertThat(tree(encode(ResponsesProfiles.OPENAI, request, true)).get("input")).isEqualTo(tree(
                "[{\"role\":\"user\",\"content\":\"Search\"},"
                        + "{\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"f\",\"arguments\":\"{}\"},"
                        + "{\"role\":\"assistant\",\"content\":\"Found it\"}]"));
        // a stateful profile sends the id reference and everything after it as it came
        JsonNode stored = tree(encode(ResponsesProfiles.OPENAI.toBuilder().statelessReasoning(false).build(), request, true))
                .get("input");
        assertThat(stored.get(1)).isEqualTo(tree("{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[]}"));
        assertThat(stored.get(2).get("id").stringValue()).isEqualTo("ws_1");
        assertThat(stored.get(3).get("id").stringValue()).isEqualTo("fc_1");
    }

    @Test
    void openAiToolLoopTurnTwoMatchesTheAcceptedRequest() {
        JsonNode accepted = tree(Recorded.text("sendback/pydantic-gpt5-reasoning-tool-calls.turn2.request.json"));
        AssistantMessage turn1 = reduced(Responses.body("openai-responses/pydantic-gpt5-reasoning-tool-calls.turn1.json"));
        ChatRequest request = ChatRequest.builder("gpt-5")
                .system(accepted.get("instructions").stringValue())
                .user(accepted.get("input").get(0).get("content").stringValue())
                .message(turn1)
                .message(Message.toolResult("call_gL7JE6GDeGGsFubqO2XGytyO", "plan updated"))
                .tool(new ToolDefinition("update_plan", "", PLAN_SCHEMA))
                .reasoning(ReasoningOptions.effort(ReasoningEffort.LOW))
                .extra("reasoning", Map.of("effort", "low", "summary", "detailed"))
                .extra("tool_choice", "auto")
                .build();

        ObjectNode ours = (ObjectNode) tree(encode(ResponsesProfiles.OPENAI, request, false));

        // the reasoning item (id, five summaries, the 9572-character blob) and the call, byte for byte
        assertThat(ours.get("input")).isEqualTo(accepted.get("input"));
        assertThat(ours.get("instructions")).isEqualTo(accepted.get("instructions"));
        assertThat(ours.get("include")).isEqualTo(accepted.get("include"));
        assertThat(ours.get("reasoning")).isEqualTo(accepted.get("reasoning"));
        assertThat(ours.get("tool_choice")).isEqualTo(accepted.get("tool_choice"));
        // pydantic-ai also sends "strict": true and "description": null, and keeps the server-side default store
        ObjectNode acceptedTool = (ObjectNode) accepted.get("tools").get(0).deepCopy();
        acceptedTool.remove(List.of("strict", "description"));
        assertThat(ours.get("tools").get(0)).isEqualTo(acceptedTool);
        assertThat(ours.get("store").booleanValue()).isFalse();
        assertThat(accepted.has("store")).isFalse();
    }

    @Test
    void deepSeekToolTurnTwoMatchesTheAcceptedRequest() {
        JsonNode accepted = tree(Recorded.text("sendback/pydantic-deepseek-responses-api-function-tool-stream.turn2.request.json"));
        AssistantMessage turn1 = reduced(Responses.stream("deepseek/pydantic-deepseek-responses-api-function-tool-stream.turn1.sse"));
        ChatRequest request = ChatRequest.builder("deepseek-v4-flash").user("What is the temperature in Tokyo?")
                .message(turn1).message(Message.toolResult("call_00_xjY8Z2BvSlzgEmmw0DtH0464", "21.0"))
                .tool(new ToolDefinition("get_temperature", "Get the current temperature in a city.",
                        "{\"additionalProperties\":false,\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"],\"type\":\"object\"}"))
                .build();

        JsonNode ours = tree(encode(ResponsesProfiles.DEEPSEEK, request, true));

        // differences: pydantic-ai writes "encrypted_content": null where there is none, and drops the
        // call's item id (a UUID on DeepSeek), which this encoder sends back as it came
        ArrayNode expected = (ArrayNode) accepted.get("input").deepCopy();
        ((ObjectNode) expected.get(1)).remove("encrypted_content");
        ((ObjectNode) expected.get(2)).put("id", "62bf2bb7-56af-4e3a-883b-83d4aad54da1");
        assertThat(ours.get("input")).isEqualTo(expected);
        assertThat(ours.get("stream").booleanValue()).isTrue();
        assertThat(ours.has("include")).isFalse();
        assertThat(ours.has("reasoning")).isFalse();
    }

    @Test
    void deepSeekReplayTurnTwoMatchesTheAcceptedRequest() {
        JsonNode accepted = tree(Recorded.text("sendback/pydantic-deepseek-responses-api-reasoning-replay.turn2.request.json"));
        // the client's synthetic first turn: two items with the same text as summary and as content
        AssistantMessage synthetic = assistant(null,
                new ReasoningPart("inspect inputs", true, "summary_text", id("rs-a")),
                new ReasoningPart("inspect inputs", false, "reasoning_text", id("rs-a")),
                new ReasoningPart("inspect views", true, "summary_text", id("rs-b")),
                new ReasoningPart("inspect views", false, "reasoning_text", id("rs-b")),
                new ToolCallPart("call-a", "read", "{\"path\":\"a\"}", true, Seals.NONE),
                new ToolCallPart("call-b", "view", "{\"path\":\"b\"}", true, Seals.NONE));
        AssistantMessage turn1 = reduced(Responses.body("deepseek/pydantic-deepseek-responses-api-reasoning-replay.turn1.json"));
        ChatRequest request = ChatRequest.builder("deepseek-v4-flash").message(synthetic)
                .message(Message.toolResult("call-a", "contents")).message(Message.toolResult("call-b", "rendered"))
                .user("Reply exactly: done").message(turn1).user("Reply exactly: again").build();

        JsonNode ours = tree(encode(ResponsesProfiles.DEEPSEEK, request, false));

        // difference: DeepSeek's own encrypted_content ("<response id>-0") goes back; pydantic-ai sent null
        ArrayNode expected = (ArrayNode) accepted.get("input").deepCopy();
        for (int i : new int[] {0, 1}) {
            ((ObjectNode) expected.get(i)).remove("encrypted_content");
        }
        ((ObjectNode) expected.get(7)).put("encrypted_content", "806896f9-a0e7-497f-9645-51900b22342d-0");
        assertThat(ours.get("input")).isEqualTo(expected);
        assertThat(ours.has("stream")).isFalse();
    }

    @Test
    void invalidRequestsFailWithTheirReason() {
        ChatRequest badSchema = ChatRequest.builder("m").user("x").tool(new ToolDefinition("t", "", "{oops")).build();
        assertThatThrownBy(() -> ResponsesCodec.encodeRequest(ResponsesProfiles.OPENAI, badSchema, true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tool t");
        ChatRequest noId = ChatRequest.builder("m").user("x")
                .message(assistant(null, new ToolCallPart(null, "f", "{}", true, Seals.NONE))).build();
        assertThatThrownBy(() -> ResponsesCodec.encodeRequest(ResponsesProfiles.OPENAI, noId, true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("call_id");
    }

    @Test
    void withPreviousResponseIdOnlyWhatFollowsTheLastAssistantTurnIsSentAndStateStaysOnTheServer() {
        AssistantMessage turn = new AssistantMessage(List.of(
                new ReasoningPart("Need the weather.", true, "summary_text",
                        Seals.NONE
                                .with(Seal.Kind.ITEM_ID, "rs_1")
                                .with(Seal.Kind.ENCRYPTED, "gAAAA-state")),
                new ToolCallPart("call_1", "weather", "{}", true, Seals.NONE)),
                "openai-responses", "gpt-5", FinishReason.TOOL_CALLS, null,
                Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("gpt-5").user("Weather?").message(turn)
                .message(new ToolResultMessage("call_1", "weather", "sunny", false))
                .extra("previous_response_id", "resp_123")
                .build();

        JsonNode body = tree(encode(ResponsesProfiles.OPENAI, request, true));

        assertThat(body.get("previous_response_id").asString()).isEqualTo("resp_123");
        assertThat(body.get("input").toString())
                .isEqualTo("[{\"type\":\"function_call_output\",\"call_id\":\"call_1\",\"output\":\"sunny\"}]");
        assertThat(body.has("store")).isFalse();
        assertThat(body.has("include")).isFalse();
        assertThat(body.toString()).doesNotContain("gAAAA-state");
    }
}
