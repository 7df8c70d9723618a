package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SendBack;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Gemini later-turn requests added to {@code shared/sendback} on 2026-11-25 (Gemini 3 and 3.1
 * function calls with thought signatures), rebuilt from the decoded first turn through the history
 * policy and the codec ({@link SendBack#encode}, the provider skeleton's path) and compared with what
 * the API accepted (HTTP 200): the model turn's parts in order, each signature on the part it came
 * on, compared as bytes (Google accepts standard and URL-safe base64 alike), and no signature where
 * none came (the second of two parallel calls). The opening requests (exchange 1) are built by the
 * same builders as the later turns and compared whole with the accepted first requests (the
 * {@code generationConfig} that asks for thinking, or none).
 */
class GeminiLaterTurnGoldensTest {

    private static final GeminiCodec CODEC = GeminiCodec.of("gemini", false);

    private static JsonNode encode(ChatRequest request) {
        return SendBack.tree(SendBack.encode(CODEC, "gemini", request, false));
    }

    private static AssistantMessage whole(String path) {
        return GeminiFixturesTest.reduce(GeminiCodec.decodeResponse("gemini", Recorded.bytes(path)).collectList().block())
                .message();
    }

    private static AssistantMessage jsonArrayStream(String path) {
        return GeminiFixturesTest.reduce(GeminiFixturesTest.jsonArrayStream(path, "gemini")).message();
    }

    private static byte[] signatureBytes(String signature) {
        return signature.indexOf('-') >= 0 || signature.indexOf('_') >= 0
                ? Base64.getUrlDecoder().decode(signature) : Base64.getDecoder().decode(signature);
    }

    /**
     * The accepted {@code contents} in this encoder's spelling, for a semantic comparison: the
     * snake_case keys llm-gemini sent ({@code function_call}, {@code function_response}; Google's
     * JSON parser takes both spellings) in camelCase, and its empty {@code {"text":""}} part left
     * out (Google ignores it; pydantic-ai and ruby_llm send none). Signatures are taken out of both
     * sides and compared as bytes.
     */
    private static ArrayNode canonical(JsonNode contents, List<byte[]> signatures) {
        ArrayNode out = (ArrayNode) SendBack.tree(contents.toString()
                .replace("\"function_call\":", "\"functionCall\":")
                .replace("\"function_response\":", "\"functionResponse\":"));
        for (JsonNode content : out) {
            ArrayNode parts = (ArrayNode) content.get("parts");
            for (int i = parts.size() - 1; i >= 0; i--) {
                JsonNode part = parts.get(i);
                if (part.size() == 1 && part.has("text") && part.get("text").stringValue().isEmpty()) {
                    parts.remove(i);
                }
            }
            for (JsonNode part : parts) {
                if (part.has("thoughtSignature")) {
                    signatures.add(signatureBytes(part.get("thoughtSignature").stringValue()));
                    ((ObjectNode) part).put("thoughtSignature", "<signature>");
                }
            }
        }
        return out;
    }

    private static void assertSameContents(JsonNode ours, JsonNode accepted) {
        List<byte[]> ourSignatures = new ArrayList<>();
        List<byte[]> acceptedSignatures = new ArrayList<>();
        assertThat(canonical(ours.get("contents"), ourSignatures))
                .isEqualTo(canonical(accepted.get("contents"), acceptedSignatures));
        assertThat(ourSignatures).hasSameSizeAs(acceptedSignatures).isNotEmpty();
        for (int i = 0; i < ourSignatures.size(); i++) {
            assertThat(ourSignatures.get(i)).isEqualTo(acceptedSignatures.get(i));
        }
    }

    /**
     * An accepted first request in this encoder's spelling, for the fields that are the caller's and
     * not send-back: each declaration's schema under {@code parametersJsonSchema} (which takes full
     * JSON Schema; the clients sent it as {@code parameters}, the older OpenAPI-subset field, and
     * Google takes both), and no {@code role} in {@code systemInstruction} (fantasy sent
     * {@code "user"}; Google ignores a system instruction's role).
     */
    private static ObjectNode inOurSpelling(JsonNode accepted) {
        ObjectNode out = (ObjectNode) accepted.deepCopy();
        for (JsonNode declaration : out.get("tools").get(0).get("functionDeclarations")) {
            ObjectNode d = (ObjectNode) declaration;
            d.set("parametersJsonSchema", d.remove("parameters"));
        }
        if (out.has("systemInstruction")) {
            ((ObjectNode) out.get("systemInstruction")).remove("role");
        }
        return out;
    }

    private static ToolDefinition declared(JsonNode accepted, int i) {
        JsonNode d = accepted.get("tools").get(0).get("functionDeclarations").get(i);
        return new ToolDefinition(d.get("name").stringValue(), d.path("description").asString(""),
                d.get("parameters").toString());
    }

    /** llm-gemini's conversation before the first answer: default reasoning options, one tool, its safety settings. */
    private static ChatRequest.Builder flashOpening(JsonNode accepted) {
        return ChatRequest.builder("gemini-3-flash-preview")
                .user("What is 5 times 3?")
                .tool(declared(accepted, 0))
                .extra("safetySettings", SendBack.plain(accepted.get("safetySettings")));
    }

    @Test
    void gemini3FlashOpeningRequestAsksForNoThinkingConfigAsAccepted() {
        JsonNode accepted = SendBack.accepted("gemini/llmg-gemini3-flash-signed-call-json-array-stream.turn1.request.json");

        JsonNode ours = encode(flashOpening(accepted).build());

        // default options write no generationConfig: Gemini 3 thinks (and signs its call) unasked
        assertThat(ours).isEqualTo(inOurSpelling(accepted));
        assertThat(ours.has("generationConfig")).isFalse();
    }

    @Test
    void gemini3FlashSignedCallFromAJsonArrayStreamGoesBackSignedOnTheCall() {
        JsonNode accepted = SendBack.accepted("gemini/llmg-gemini3-flash-signed-call-json-array-stream.turn2.request.json");
        AssistantMessage turn1 = jsonArrayStream("gemini/llmg-gemini3-flash-signed-call-json-array-stream.turn1.json");
        ToolCallPart call = turn1.toolCalls().get(0);
        ChatRequest request = flashOpening(accepted).message(turn1)
                .message(new ToolResultMessage(call.id() != null ? call.id() : call.name(), "multiply", "{\"output\":\"15\"}", false))
                .build();

        JsonNode ours = encode(request);

        assertSameContents(ours, accepted);
        // the signature is the recorded string itself, on the call it came with
        assertThat(ours.get("contents").get(1).get("parts").get(0).get("thoughtSignature").stringValue())
                .isEqualTo(call.seals().signature())
                .isEqualTo(accepted.get("contents").get(1).get("parts").get(1).get("thoughtSignature").stringValue());
    }

    /** fantasy's conversation before the first answer: a system prompt, two tools, 4000 output tokens. */
    private static ChatRequest.Builder parallelOpening(JsonNode accepted) {
        return ChatRequest.builder("gemini-3-pro-preview")
                .system(accepted.get("systemInstruction").get("parts").get(0).get("text").stringValue())
                .user("Add and multiply the number 2 and 3")
                .tool(declared(accepted, 0)).tool(declared(accepted, 1))
                .sampling(new SamplingOptions(null, null, 4000, List.of(), null))
                .extra("toolConfig", SendBack.plain(accepted.get("toolConfig")));
    }

    @Test
    void gemini31ParallelOpeningRequestMatchesTheAcceptedFirstRequest() {
        JsonNode accepted = SendBack.accepted("gemini/fantasy-gemini31-pro-parallel-calls-signature.turn1.request.json");

        JsonNode ours = encode(parallelOpening(accepted).build());

        // the output limit from the sampling options; the tool config is the caller's extra
        assertThat(ours).isEqualTo(inOurSpelling(accepted));
        assertThat(ours.get("generationConfig").toString()).isEqualTo("{\"maxOutputTokens\":4000}");
    }

    @Test
    void gemini31ParallelCallsKeepTheOneSignatureOnTheFirstCallAndTheirIds() {
        JsonNode accepted = SendBack.accepted("gemini/fantasy-gemini31-pro-parallel-calls-signature.turn2.request.json");
        AssistantMessage turn1 = whole("gemini/fantasy-gemini31-pro-parallel-calls-signature.turn1.json");
        assertThat(turn1.toolCalls()).extracting(ToolCallPart::id).containsExactly("wxvlv0tv", "75p2opbh");
        assertThat(turn1.toolCalls().get(1).seals().signature()).isNull();
        ChatRequest request = parallelOpening(accepted).message(turn1)
                .message(Message.toolResult("wxvlv0tv", "5"))
                .message(Message.toolResult("75p2opbh", "6"))
                .build();

        JsonNode ours = encode(request);

        assertSameContents(ours, accepted);
        JsonNode parts = ours.get("contents").get(1).get("parts");
        assertThat(parts.get(0).has("thoughtSignature")).isTrue();
        assertThat(parts.get(1).has("thoughtSignature")).as("the second parallel call came unsigned").isFalse();
        assertThat(ours.get("systemInstruction").get("parts")).isEqualTo(accepted.get("systemInstruction").get("parts"));
    }

    /** ruby_llm's conversation before the first answer: low effort, one tool. */
    private static ChatRequest.Builder thoughtOpening(JsonNode accepted) {
        return ChatRequest.builder("gemini-3.1-pro-preview")
                .user("What's the weather in Berlin? (52.5200, 13.4050)")
                .tool(declared(accepted, 0))
                .reasoning(ReasoningOptions.effort(ReasoningEffort.LOW));
    }

    @Test
    void gemini31OpeningRequestAsksForALowThinkingLevelWithThoughtsAsAccepted() {
        JsonNode accepted = SendBack.accepted("gemini/rubyllm-gemini31-pro-thought-signed-call.turn1.request.json");

        JsonNode ours = encode(thoughtOpening(accepted).build());

        // an effort on Gemini 3 is a thinkingLevel, with thought summaries asked for (G6)
        assertThat(ours).isEqualTo(inOurSpelling(accepted));
        assertThat(ours.get("generationConfig").get("thinkingConfig").toString())
                .isEqualTo("{\"includeThoughts\":true,\"thinkingLevel\":\"low\"}");
    }

    @Test
    void gemini31UnsignedThoughtStaysHomeAndTheSignedCallGoesBack() {
        JsonNode accepted = SendBack.accepted("gemini/rubyllm-gemini31-pro-thought-signed-call.turn2.request.json");
        AssistantMessage turn1 = whole("gemini/rubyllm-gemini31-pro-thought-signed-call.turn1.json");
        ToolCallPart call = turn1.toolCalls().get(0);
        JsonNode response = accepted.get("contents").get(2).get("parts").get(0).get("functionResponse").get("response");
        ChatRequest request = thoughtOpening(accepted).message(turn1)
                .message(new ToolResultMessage(call.id() != null ? call.id() : call.name(), "weather", response.toString(), false))
                .build();

        JsonNode ours = encode(request);

        // the reasoning request, from the options: Gemini 3's thinkingLevel with thought summaries
        assertThat(ours.get("generationConfig")).isEqualTo(accepted.get("generationConfig"));

        // ruby_llm dropped the functionCall id Gemini 3.1 gave; this encoder sends it back on the call
        // and its response (accepted: the fantasy request above), so the ids are compared apart
        ObjectNode expected = (ObjectNode) accepted.deepCopy();
        if (call.id() != null) {
            ((ObjectNode) expected.get("contents").get(1).get("parts").get(0).get("functionCall")).put("id", call.id());
            ((ObjectNode) expected.get("contents").get(2).get("parts").get(0).get("functionResponse")).put("id", call.id());
        }
        assertSameContents(ours, expected);
    }
}
