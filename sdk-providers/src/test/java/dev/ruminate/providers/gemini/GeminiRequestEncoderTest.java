package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.ForeignReasoning;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
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
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Golden tests of the Gemini request encoder, and rebuilds of the later-turn requests Gemini
 * accepted ({@code fixtures/sendback/gemini/}) from the decoded earlier turns.
 */
class GeminiRequestEncoderTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static JsonNode encode(ChatRequest request) {
        return encode(request, HistoryPolicy.DEFAULT, false);
    }

    private static JsonNode encode(ChatRequest request, HistoryPolicy policy, boolean skip) {
        return JSON.readTree(new String(GeminiCodec.encodeRequest("gemini", request, policy, skip), StandardCharsets.UTF_8));
    }

    private static JsonNode accepted(String file) {
        return JSON.readTree(Recorded.bytes("sendback/gemini/" + file));
    }

    /** Compares signatures as Google does: as bytes (the accepted requests used URL-safe base64). */
    private static byte[] signatureBytes(String signature) {
        return signature.indexOf('-') >= 0 || signature.indexOf('_') >= 0
                ? Base64.getUrlDecoder().decode(signature) : Base64.getDecoder().decode(signature);
    }

    @Test
    void aToolLoopSendsTheCallBackWithItsSignatureOnTheCallAsAccepted() {
        AssistantMessage turn1 = GeminiFixturesTest.reduce(GeminiFixturesTest.stream(
                "gemini/pydantic-gemini-tool-call-thought-signature.turn1.sse", "gemini")).message();
        JsonNode accepted = accepted("pydantic-gemini-tool-call-thought-signature.turn2.request.json");
        ChatRequest request = ChatRequest.builder("gemini-3-pro-preview")
                .user("What is the capital of the user country? Call the tool")
                .message(turn1)
                .message(new ToolResultMessage("get_country", "get_country", "Mexico", false))
                .build();

        JsonNode contents = encode(request).get("contents");

        JsonNode acceptedContents = accepted.get("contents");
        assertThat(contents).hasSize(acceptedContents.size());
        for (int i = 0; i < contents.size(); i++) {
            assertThat(contents.get(i).get("role")).isEqualTo(acceptedContents.get(i).get("role"));
        }
        JsonNode call = contents.get(1).get("parts").get(0);
        JsonNode acceptedCall = acceptedContents.get(1).get("parts").get(0);
        assertThat(call.get("functionCall").get("name")).isEqualTo(acceptedCall.get("functionCall").get("name"));
        assertThat(call.get("functionCall").get("args")).isEqualTo(acceptedCall.get("functionCall").get("args"));
        assertThat(signatureBytes(call.get("thoughtSignature").asString()))
                .isEqualTo(signatureBytes(acceptedCall.get("thoughtSignature").asString()));
        assertThat(call.get("thoughtSignature").asString()).isEqualTo(turn1.toolCalls().get(0).seals().signature());
        JsonNode response = contents.get(2).get("parts").get(0).get("functionResponse");
        assertThat(response.get("name").asString()).isEqualTo("get_country");
        assertThat(response.get("response").toString()).isEqualTo("{\"result\":\"Mexico\"}");
    }

    @Test
    void theSignatureStaysOnTheAnswerTextAndUnsignedThoughtSummariesStayHome() {
        AssistantMessage turn1 = GeminiFixturesTest.reduce(GeminiCodec.decodeResponse("gemini",
                Recorded.bytes("gemini/pydantic-gemini-thought-summaries-multiturn.turn1.json")).collectList().block()).message();
        JsonNode accepted = accepted("pydantic-gemini-thought-summaries-multiturn.turn2.request.json");
        JsonNode acceptedModel = accepted.get("contents").get(1).get("parts");
        ChatRequest request = ChatRequest.builder("gemini-3-pro-preview")
                .user("How do I cross the street?")
                .message(turn1)
                .user(accepted.get("contents").get(2).get("parts").get(0).get("text").asString())
                .build();

        JsonNode model = encode(request).get("contents").get(1).get("parts");

        // the accepted request also carried the thought summary back; Google ignores it, so it is not sent
        assertThat(model).hasSize(1);
        JsonNode answer = model.get(0);
        JsonNode acceptedAnswer = acceptedModel.get(acceptedModel.size() - 1);
        assertThat(answer.get("text")).isEqualTo(acceptedAnswer.get("text"));
        assertThat(signatureBytes(answer.get("thoughtSignature").asString()))
                .isEqualTo(signatureBytes(acceptedAnswer.get("thoughtSignature").asString()));
        assertThat(answer.has("thought")).isFalse();
    }

    @Test
    void anotherProvidersReasoningIsDroppedOrSentAsTaggedTextNeverAsThoughts() {
        AssistantMessage openai = new AssistantMessage(List.of(
                new ReasoningPart("**Providing street crossing guidance**", true, "summary_text",
                        Seals.NONE.with(Seal.Kind.ENCRYPTED, "gAAAA-opaque").with(Seal.Kind.ITEM_ID, "rs_1")),
                new TextPart("Look both ways.", Seals.NONE)), "openai-responses", "gpt-5", FinishReason.STOP, null,
                Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("gemini-2.5-pro").user("How do I cross?").message(openai).user("And a river?").build();

        JsonNode dropped = encode(request).get("contents").get(1).get("parts");
        JsonNode tagged = encode(request, HistoryPolicy.DEFAULT.withForeignReasoning(ForeignReasoning.AS_TAGGED_TEXT), false)
                .get("contents").get(1).get("parts");

        assertThat(dropped.toString()).isEqualTo("[{\"text\":\"Look both ways.\"}]");
        assertThat(tagged.toString()).isEqualTo("[{\"text\":\"<think>\\n**Providing street crossing guidance**\\n</think>\\n\\n\"},"
                + "{\"text\":\"Look both ways.\"}]");
        assertThat(tagged.toString()).doesNotContain("gAAAA-opaque").doesNotContain("\"thought\"");
    }

    @Test
    void anotherProvidersCallsInTheCurrentLoopCanCarryGooglesPlaceholder() {
        AssistantMessage claude = new AssistantMessage(List.of(
                new ToolCallPart("toolu_1", "get_weather", "{\"city\":\"Paris\"}", true, Seals.NONE.with(Seal.Kind.SIGNATURE, "anthropic-sig"))),
                "anthropic", "claude", FinishReason.TOOL_CALLS, "tool_use", Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("gemini-3-pro-preview").user("Weather?").message(claude)
                .message(new ToolResultMessage("toolu_1", "get_weather", "{\"temp\":14}", false)).build();

        JsonNode plain = encode(request).get("contents").get(1).get("parts").get(0);
        JsonNode skipped = encode(request, HistoryPolicy.DEFAULT, true).get("contents").get(1).get("parts").get(0);

        assertThat(plain.toString()).isEqualTo("{\"functionCall\":{\"id\":\"toolu_1\",\"name\":\"get_weather\",\"args\":{\"city\":\"Paris\"}}}");
        assertThat(skipped.get("thoughtSignature").asString()).isEqualTo("skip_thought_signature_validator");
        JsonNode response = encode(request).get("contents").get(2).get("parts").get(0).get("functionResponse");
        assertThat(response.toString()).isEqualTo("{\"id\":\"toolu_1\",\"name\":\"get_weather\",\"response\":{\"temp\":14}}");
    }

    @Test
    void anOwnFirstCallInTheCurrentLoopThatLostItsSignatureCarriesThePlaceholderWhenAskedAndLaterParallelCallsDoNot() {
        // the first call's signature was removed (by a boundary, integrity check or recovery); the second
        // is a parallel call, unsigned as Gemini 3 issues it
        AssistantMessage own = new AssistantMessage(List.of(
                new TextPart("Checking both.", Seals.NONE),
                new ToolCallPart("c1", "get_weather", "{\"city\":\"Paris\"}", true, Seals.NONE),
                new ToolCallPart("c2", "get_weather", "{\"city\":\"Rome\"}", true, Seals.NONE)),
                "gemini", "gemini-3-pro-preview", FinishReason.TOOL_CALLS, "STOP", Usage.UNKNOWN);
        ChatRequest inLoop = ChatRequest.builder("gemini-3-pro-preview").user("Weather?").message(own)
                .message(new ToolResultMessage("c1", "get_weather", "{\"temp\":14}", false))
                .message(new ToolResultMessage("c2", "get_weather", "{\"temp\":20}", false)).build();
        ChatRequest earlier = inLoop.toBuilder().user("Thanks. And tomorrow?").build();

        JsonNode skipped = encode(inLoop, HistoryPolicy.DEFAULT, true).get("contents").get(1).get("parts");
        JsonNode plain = encode(inLoop).get("contents").get(1).get("parts");
        JsonNode before = encode(earlier, HistoryPolicy.DEFAULT, true).get("contents").get(1).get("parts");

        assertThat(skipped.get(0).has("thoughtSignature")).isFalse();
        assertThat(skipped.get(1).get("thoughtSignature").asString()).isEqualTo("skip_thought_signature_validator");
        assertThat(skipped.get(2).has("thoughtSignature")).isFalse();
        assertThat(plain.toString()).doesNotContain("thoughtSignature");
        assertThat(before.toString()).doesNotContain("thoughtSignature");
    }

    @Test
    void anOwnFirstCallThatKeptItsSignatureNeverGetsThePlaceholder() {
        AssistantMessage own = new AssistantMessage(List.of(
                new ToolCallPart("c1", "get_weather", "{}", true, Seals.NONE.with(Seal.Kind.SIGNATURE, "c2lnbmVk"))),
                "gemini", "gemini-3-pro-preview", FinishReason.TOOL_CALLS, "STOP", Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("gemini-3-pro-preview").user("Weather?").message(own)
                .message(new ToolResultMessage("c1", "get_weather", "{\"temp\":14}", false)).build();

        assertThat(encode(request, HistoryPolicy.DEFAULT, true).get("contents").get(1).get("parts").get(0)
                .get("thoughtSignature").asString()).isEqualTo("c2lnbmVk");
    }

    @Test
    void writesSystemToolsSamplingAndThinkingConfig() {
        ChatRequest request = ChatRequest.builder("gemini-2.5-flash")
                .system("Be brief.")
                .user("Hi")
                .tool(new ToolDefinition("get_weather", "Forecast.", "{\"type\":\"object\"}"))
                .sampling(new SamplingOptions(0.5, 0.9, 1000, List.of("END"), 7L))
                .reasoning(ReasoningOptions.budget(2048))
                .build();

        JsonNode body = encode(request);

        assertThat(body.get("systemInstruction").toString()).isEqualTo("{\"parts\":[{\"text\":\"Be brief.\"}]}");
        assertThat(body.get("tools").toString()).isEqualTo("[{\"functionDeclarations\":[{\"name\":\"get_weather\","
                + "\"description\":\"Forecast.\",\"parametersJsonSchema\":{\"type\":\"object\"}}]}]");
        assertThat(body.get("generationConfig").toString()).isEqualTo("{\"temperature\":0.5,\"topP\":0.9,\"maxOutputTokens\":1000,"
                + "\"stopSequences\":[\"END\"],\"seed\":7,\"thinkingConfig\":{\"includeThoughts\":true,\"thinkingBudget\":2048}}");
        assertThat(encode(ChatRequest.builder("gemini-3-pro-preview").user("x")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.LOW)).build()).get("generationConfig").toString())
                .isEqualTo("{\"thinkingConfig\":{\"includeThoughts\":true,\"thinkingLevel\":\"low\"}}");
        assertThat(encode(ChatRequest.builder("gemini-2.5-flash").user("x")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.NONE)).build()).get("generationConfig").toString())
                .isEqualTo("{\"thinkingConfig\":{\"thinkingBudget\":0}}");
        assertThat(encode(ChatRequest.builder("m").user("x").build()).has("generationConfig")).isFalse();
    }

    @Test
    void consecutiveUserSideMessagesShareOneContent() {
        AssistantMessage calls = new AssistantMessage(List.of(
                new ToolCallPart(null, "a", "{}", true, Seals.NONE.with(Seal.Kind.SIGNATURE, "s1")),
                new ToolCallPart(null, "b", "", true, Seals.NONE)), "gemini", "m", FinishReason.TOOL_CALLS, "STOP", Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("m").user("go").message(calls)
                .message(Message.toolResult("a", "1")).message(Message.toolResult("b", "not json"))
                .user("now answer").build();

        JsonNode contents = encode(request).get("contents");

        assertThat(contents).hasSize(3);
        assertThat(contents.get(1).toString()).isEqualTo("{\"role\":\"model\",\"parts\":["
                + "{\"functionCall\":{\"name\":\"a\",\"args\":{}},\"thoughtSignature\":\"s1\"},"
                + "{\"functionCall\":{\"name\":\"b\",\"args\":{}}}]}");
        assertThat(contents.get(2).toString()).isEqualTo("{\"role\":\"user\",\"parts\":["
                + "{\"functionResponse\":{\"name\":\"a\",\"response\":{\"result\":\"1\"}}},"
                + "{\"functionResponse\":{\"name\":\"b\",\"response\":{\"result\":\"not json\"}}},"
                + "{\"text\":\"now answer\"}]}");
    }
}
