package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SendBack;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAI Responses later-turn requests added to {@code shared/sendback} on 2026-11-25, rebuilt
 * from the decoded earlier turns through the history policy and the codec ({@link SendBack#encode},
 * the provider skeleton's path) and compared with what the API accepted (HTTP 200): every reasoning
 * and compaction item with its id and {@code encrypted_content} byte for byte, in the place it had
 * in the output. Harmless differences are removed from the expected side, each with its reason.
 * The opening requests (exchange 1) are built by the same builders as the later turns and compared
 * whole with the accepted first requests: {@code store}, {@code include} and {@code reasoning}.
 */
class ResponsesLaterTurnGoldensTest {

    private static final String PROVIDER = ResponsesProfiles.OPENAI.name();

    private static AssistantMessage reduced(Recorded.Outcome outcome) {
        return Responses.reduce(outcome.folded().events).message();
    }

    private static Recorded.Outcome body(String path) {
        return Responses.body(path);
    }

    private static Recorded.Outcome stream(String path) {
        return Responses.stream(path);
    }

    private static JsonNode encode(ResponsesProfile profile, ChatRequest request, boolean stream) {
        return SendBack.tree(SendBack.encode(ResponsesCodec.of(profile), profile.name(), request, stream));
    }

    private static ToolDefinition tool(JsonNode accepted, int i) {
        JsonNode t = accepted.get("tools").get(i);
        String description = t.path("description").isString() ? t.get("description").stringValue() : "";
        return new ToolDefinition(t.get("name").stringValue(), description, t.get("parameters").toString());
    }

    private static AssistantMessage said(String text) {
        return new AssistantMessage(List.of(TextPart.of(text)), PROVIDER, "gpt-4.1", FinishReason.STOP, "completed",
                Usage.UNKNOWN);
    }

    /** pydantic-ai's gpt-5.5 conversation before the first answer: default reasoning options, one tool. */
    private static ChatRequest.Builder phaseOpening(JsonNode accepted) {
        return ChatRequest.builder("gpt-5.5")
                .system(accepted.get("instructions").stringValue())
                .user("What is the capital of PotatoLand?")
                .tool(tool(accepted, 0))
                .extra("tool_choice", "auto");
    }

    @Test
    void gpt55OpeningRequestAsksForEncryptedReasoningAsAccepted() {
        ObjectNode accepted = (ObjectNode) SendBack.accepted(
                "openai-responses/pydantic-gpt55-phase-encrypted-reasoning-function-call-stream.turn1.request.json");

        ObjectNode ours = (ObjectNode) encode(ResponsesProfiles.OPENAI, phaseOpening(accepted).build(), true);

        // pydantic-ai keeps the server's default store; this stateless profile says store:false (R3)
        assertThat(ours.remove("store").booleanValue()).isFalse();
        // pydantic-ai's tool says "strict": true, a caller's choice a neutral ToolDefinition does not
        // carry, and "description": null, which is no description, as this encoder's absent one
        ObjectNode tool = (ObjectNode) accepted.get("tools").get(0);
        assertThat(tool.remove("strict").booleanValue()).isTrue();
        assertThat(tool.remove("description").isNull()).isTrue();
        assertThat(ours).isEqualTo(accepted);
        assertThat(ours.get("include").toString()).isEqualTo("[\"reasoning.encrypted_content\"]");
    }

    @Test
    void gpt55StreamedReasoningGoesBackWithTheEncryptedContentOfItsDoneEvent() {
        String recording = "openai-responses/pydantic-gpt55-phase-encrypted-reasoning-function-call-stream.turn1.sse";
        JsonNode accepted = SendBack.accepted(
                "openai-responses/pydantic-gpt55-phase-encrypted-reasoning-function-call-stream.turn2.request.json");
        AssistantMessage turn1 = reduced(stream(recording));
        ChatRequest request = phaseOpening(accepted).message(turn1)
                .message(Message.toolResult("call_LabG58Uhrq9kZvR52BYKjToD", "Potato City"))
                .build();

        JsonNode ours = encode(ResponsesProfiles.OPENAI, request, true);

        JsonNode input = ours.get("input");
        ArrayNode expected = (ArrayNode) accepted.get("input").deepCopy();
        // the commentary message goes back in the short form, without its msg_ id, status and
        // "phase": the API accepts it so (phase is a hint to the model, not state it checks; see
        // docs/send-back-rules.md, "Not applied yet")
        ObjectNode message = (ObjectNode) expected.get(2);
        assertThat(message.get("phase").stringValue()).isEqualTo("commentary");
        expected.set(2, SendBack.tree("{\"role\":\"assistant\",\"content\":"
                + message.get("content").get(0).get("text") + "}"));
        assertThat(pydanticNormalized(input)).isEqualTo(expected);
        Responses.assertEncryptedFromDone(recording, input.get(1).get("id").stringValue(),
                input.get(1).get("encrypted_content").stringValue());
        assertThat(ours.get("include")).isEqualTo(accepted.get("include"));
        assertThat(ours.get("instructions")).isEqualTo(accepted.get("instructions"));
        assertThat(ours.get("stream").booleanValue()).isTrue();
        // pydantic-ai keeps the server's default store; this stateless profile says store:false, which
        // is what makes encrypted_content the reasoning's only copy
        assertThat(ours.get("store").booleanValue()).isFalse();
    }

    /** simonw/llm's {@code store: false} conversation before the first answer: high effort, no summaries, two tools. */
    private static ChatRequest.Builder storeFalseOpening(JsonNode accepted) {
        return ChatRequest.builder("gpt-5.5")
                .user(accepted.get("input").get(0).get("content").stringValue())
                .tool(tool(accepted, 0)).tool(tool(accepted, 1))
                // high effort without summaries: {"effort":"high"}, as simonw/llm asked
                .reasoning(new ReasoningOptions(null, ReasoningEffort.HIGH, null, false));
    }

    @Test
    void storeFalseOpeningRequestAsksForHighEffortAndEncryptedReasoningAsAccepted() {
        ObjectNode accepted = (ObjectNode) SendBack.accepted(
                "openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn1.request.json");

        ObjectNode ours = (ObjectNode) encode(ResponsesProfiles.OPENAI, storeFalseOpening(accepted).build(), false);

        // "stream": false is the default, left out
        assertThat(accepted.remove("stream").booleanValue()).isFalse();
        assertThat(ours).isEqualTo(accepted);
        assertThat(ours.get("store").booleanValue()).isFalse();
        assertThat(ours.get("reasoning").toString()).isEqualTo("{\"effort\":\"high\"}");
    }

    @Test
    void storeFalseConversationSendsTheSameReasoningItemInTurnsTwoAndThree() {
        JsonNode turn2Accepted = SendBack.accepted("openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn2.request.json");
        JsonNode turn3Accepted = SendBack.accepted("openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn3.request.json");
        AssistantMessage turn1 = reduced(body("openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn1.json"));
        AssistantMessage turn2 = reduced(body("openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn2.json"));
        ChatRequest.Builder conversation = storeFalseOpening(turn2Accepted)
                .message(turn1)
                .message(Message.toolResult("call_uy7tfNVokIN7NjFF6k7OtLyl", "123124"));

        JsonNode second = encode(ResponsesProfiles.OPENAI, conversation.build(), false);
        conversation.message(turn2).message(Message.toolResult("call_jwY8kllWAsnoSXtjXZQ5KR6i", "true"));
        JsonNode third = encode(ResponsesProfiles.OPENAI, conversation.build(), false);

        assertStatelessTurn(second, turn2Accepted);
        assertStatelessTurn(third, turn3Accepted);
        assertThat(third.get("input").get(1)).isEqualTo(second.get("input").get(1));
    }

    /**
     * Compares a turn of the {@code store: false} conversation: the same input, except that simonw/llm
     * sends function calls without their {@code fc_} item ids, which this encoder sends back as they
     * came (accepted too: {@code sendback/pydantic-gpt5-reasoning-tool-calls}).
     */
    private static void assertStatelessTurn(JsonNode ours, JsonNode accepted) {
        ArrayNode input = (ArrayNode) ours.get("input").deepCopy();
        ArrayNode expected = (ArrayNode) accepted.get("input").deepCopy();
        for (JsonNode item : input) {
            if ("function_call".equals(item.path("type").asString())) {
                assertThat(item.get("id").stringValue()).startsWith("fc_");
                ((ObjectNode) item).remove("id");
            }
        }
        // simonw/llm re-serializes the arguments ({"country": "Pundora"}); this encoder sends the
        // model's own string ({"country":"Pundora"}): the same JSON, compared as such
        parseArguments(input);
        parseArguments(expected);
        assertThat(input).isEqualTo(expected);
        assertThat(ours.get("store")).isEqualTo(accepted.get("store"));
        assertThat(ours.get("include")).isEqualTo(accepted.get("include"));
        assertThat(ours.get("reasoning")).isEqualTo(accepted.get("reasoning"));
        assertThat(ours.get("tools")).isEqualTo(accepted.get("tools"));
        assertThat(ours.has("stream")).isFalse();
        assertThat(accepted.get("stream").booleanValue()).isFalse();
    }

    /** The stateful compaction conversation: gpt-4.1 with the server's store, so not the stateless profile. */
    private static final ResponsesProfile STATEFUL = ResponsesProfiles.OPENAI.toBuilder().statelessReasoning(false).build();

    @Test
    void inStreamCompactionGoesBackInInputWhereItAppearedInOutput() {
        String recording = "openai-responses/pydantic-gpt41-context-compaction-stream.turn3.sse";
        JsonNode turn3Accepted = SendBack.accepted("openai-responses/pydantic-gpt41-context-compaction-stream.turn3.request.json");
        JsonNode turn4Accepted = SendBack.accepted("openai-responses/pydantic-gpt41-context-compaction-stream.turn4.request.json");
        JsonNode earlier = turn3Accepted.get("input");
        AssistantMessage turn3 = reduced(stream(recording));
        assertThat(turn3.parts()).last().isInstanceOfSatisfying(ServerToolPart.class,
                s -> assertThat(s.type()).isEqualTo("compaction"));
        // turns 1 and 2 were plain stories (not recorded here): their text is the accepted request's
        ChatRequest.Builder conversation = ChatRequest.builder("gpt-4.1")
                .user(earlier.get(0).get("content").stringValue())
                .message(said(earlier.get(1).get("content").stringValue()))
                .user(earlier.get(2).get("content").stringValue())
                .message(said(earlier.get(3).get("content").stringValue()))
                .user(earlier.get(4).get("content").stringValue())
                .extra("context_management", SendBack.plain(turn3Accepted.get("context_management")));

        assertThat(encode(STATEFUL, conversation.build(), true)).isEqualTo(turn3Accepted);
        conversation.message(turn3).user("What is 2+2?");
        String written = SendBack.encode(ResponsesCodec.of(STATEFUL), STATEFUL.name(), conversation.build(), true);

        assertThat(pydanticNormalized(SendBack.tree(written))).isEqualTo(turn4Accepted);
        ServerToolPart compaction = (ServerToolPart) turn3.parts().get(turn3.parts().size() - 1);
        assertThat(written).contains(compaction.json());
        Responses.assertBlockFromDone(recording, Responses.stream(recording).folded().parts.get(1), "compaction",
                "cmp_067b756b377f97050069e16fa9b8408190ab05934212c434a0");
    }

    @Test
    void aCompactionItemFromTheCompactEndpointGoesBackFirst() {
        JsonNode turn4Accepted = SendBack.accepted("openai-responses/pydantic-compact-endpoint.turn4.request.json");
        AssistantMessage compacted = reduced(body("openai-responses/pydantic-compact-endpoint.turn3.json"));
        // /v1/responses/compact answers with the new window: the user's messages back (input_text)
        // and the compaction item. pydantic-ai continued with the compaction item alone, as here.
        List<Part> items = compacted.parts().stream().filter(ServerToolPart.class::isInstance).toList();
        assertThat(items).hasSize(1);
        AssistantMessage window = new AssistantMessage(items, compacted.provider(), compacted.model(),
                compacted.finishReason(), compacted.rawFinishReason(), compacted.usage());
        ChatRequest request = ChatRequest.builder("gpt-4o-mini")
                .system("You are a helpful math assistant. Give short answers.")
                .message(window)
                .user("And 5+5?")
                .build();

        String written = SendBack.encode(ResponsesCodec.of(STATEFUL), STATEFUL.name(), request, false);

        ObjectNode expected = (ObjectNode) turn4Accepted.deepCopy();
        expected.remove("stream"); // "stream": false is the default, left out
        assertThat(SendBack.tree(written)).isEqualTo(expected);
        assertThat(written).contains(((ServerToolPart) items.get(0)).json());
    }

    @Test
    void reasoningPartsOfTheRecordingsCarryTheirIdsAndBlobs() {
        AssistantMessage turn1 = reduced(body("openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn1.json"));
        assertThat(turn1.parts().get(0)).isInstanceOfSatisfying(ReasoningPart.class, r -> {
            assertThat(r.seals().itemId()).isEqualTo("rs_0f4809b27460351d0169fab21897dc8196960e8680fb72a88d");
            assertThat(r.seals().encrypted()).startsWith("gAAAAABp-rIa");
        });
    }

    private static void parseArguments(ArrayNode input) {
        for (JsonNode item : input) {
            if (item.has("arguments")) {
                ((ObjectNode) item).set("arguments", SendBack.tree(item.get("arguments").stringValue()));
            }
        }
    }

    /**
     * Our body as pydantic-ai's cassettes store text: its serializer replaced typographic quotes and
     * dashes when it recorded request and response alike ({@code shared/sendback/RULES-OBSERVED.md}),
     * so the accepted request holds {@code I'll} where the stream (and so our request) holds
     * {@code I’ll}. Opaque values (base64url) hold none of these characters.
     */
    private static JsonNode pydanticNormalized(JsonNode ours) {
        String text = ours.toString().replace('\u2019', '\'').replace('\u2018', '\'')
                .replace("\u201c", "\\\"").replace("\u201d", "\\\"").replace("\u2014", "--");
        return SendBack.tree(text);
    }
}
