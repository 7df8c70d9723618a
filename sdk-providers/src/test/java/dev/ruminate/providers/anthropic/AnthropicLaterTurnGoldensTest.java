package dev.ruminate.providers.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SendBack;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Anthropic later-turn requests added to {@code shared/sendback} on 2026-11-25, rebuilt from the
 * decoded first turn through the history policy and the codec ({@link SendBack#encode}, the
 * provider skeleton's path) and compared with what the API accepted (HTTP 200).
 *
 * <p>Every accepted request repeats the first turn's content blocks exactly, so each test compares
 * the whole body as a JSON tree (key order aside: pydantic-ai's bodies were stored with sorted keys),
 * and the server-tool blocks also as the exact bytes they came in. The one field left out of the
 * comparison is {@code "stream": false}, which this encoder does not write (false is the API's
 * default).
 *
 * <p>Each conversation's opening request (exchange 1: nothing to send back yet, but the reasoning
 * request and the caller's fields the later turn repeats) is built by the same builder as the later
 * turn and compared whole with the accepted first request.
 */
class AnthropicLaterTurnGoldensTest {

    private static final AnthropicCodec CODEC = AnthropicCodec.of(AnthropicCodec.DEFAULT_MAX_TOKENS);

    private static AssistantMessage decoded(String recording) {
        return AnthropicRecordings.reduce(AnthropicRecordings.decode(recording)).message();
    }

    private static ObjectNode encode(ChatRequest request) {
        return (ObjectNode) SendBack.tree(SendBack.encode(CODEC, AnthropicCodec.PROVIDER, request, false));
    }

    /** The accepted turn-2 request without {@code "stream": false}, which this encoder leaves out. */
    private static ObjectNode accepted(String stem) {
        return accepted(stem, 2);
    }

    /** The accepted request of an exchange without {@code "stream": false}, which this encoder leaves out. */
    private static ObjectNode accepted(String stem, int exchange) {
        ObjectNode body = (ObjectNode) SendBack.accepted("anthropic/" + stem + ".turn" + exchange + ".request.json");
        assertThat(body.get("stream").booleanValue()).isFalse();
        body.remove("stream");
        return body;
    }

    private static SamplingOptions maxTokens(int n) {
        return new SamplingOptions(null, null, n, List.of(), null);
    }

    /**
     * Server-tool and compaction blocks go back as the bytes they came in (the accepted bodies were
     * re-serialized with sorted keys, so the tree comparison covers their values, this their bytes).
     */
    private static void assertBlocksVerbatim(String written, AssistantMessage turn1) {
        for (Part part : turn1.parts()) {
            if (part instanceof ServerToolPart s) {
                assertThat(written).contains(s.json());
            }
        }
    }

    /** ruby_llm's conversation before the first answer: a thinking budget of 1024 tokens. */
    private static ChatRequest.Builder haiku45Opening() {
        return ChatRequest.builder("claude-haiku-4-5-20251001")
                .user("What is 5 + 3?")
                .reasoning(ReasoningOptions.budget(1024))
                .sampling(maxTokens(64000));
    }

    @Test
    void haiku45OpeningRequestAsksForTheThinkingBudgetAsAccepted() {
        String written = SendBack.encode(CODEC, AnthropicCodec.PROVIDER, haiku45Opening().build(), false);

        assertThat(SendBack.tree(written)).isEqualTo(accepted("rubyllm-haiku45-thinking-multiturn", 1));
        // the same request repeats this thinking field in turn 2 (A8): one builder makes both here
        assertThat(SendBack.tree(written).get("thinking").toString())
                .isEqualTo("{\"type\":\"enabled\",\"budget_tokens\":1024}");
    }

    @Test
    void haiku45ThinkingGoesBackWithItsSignatureInWireKeyOrder() {
        String stem = "rubyllm-haiku45-thinking-multiturn";
        AssistantMessage turn1 = decoded("anthropic/" + stem + ".turn1.json");
        ChatRequest request = haiku45Opening().message(turn1).user("Now multiply that by 2").build();

        String written = SendBack.encode(CODEC, AnthropicCodec.PROVIDER, request, false);

        assertThat(SendBack.tree(written)).isEqualTo(accepted(stem));
        // ruby_llm's body is the wire text: the thinking block is the same bytes, key order included
        String acceptedWire = Recorded.text("sendback/anthropic/" + stem + ".turn2.request.json").replaceAll("\\s*\n\\s*", "")
                .replace("\": ", "\":");
        String thinking = SendBack.tree(written).get("messages").get(1).get("content").get(0).toString();
        assertThat(thinking).startsWith("{\"type\":\"thinking\",\"thinking\":\"This is a simple arithmetic question.");
        assertThat(acceptedWire).contains(thinking);
    }

    /**
     * pydantic-ai's advisor conversation before the first answer: no thinking field at all (Claude
     * Sonnet 5 thinks by default, with its display omitted), the advisor tool as the caller's extra.
     */
    private static ChatRequest.Builder advisorOpening(JsonNode accepted) {
        return ChatRequest.builder("claude-sonnet-5")
                .user("What's 2+2? Consult your advisor first.")
                .sampling(maxTokens(4096))
                .extra("tools", SendBack.plain(accepted.get("tools")));
    }

    @Test
    void advisorOpeningRequestSendsNoThinkingFieldAsAccepted() {
        ObjectNode expected = accepted("pydantic-sonnet5-advisor-omitted-thinking-replay", 1);

        JsonNode ours = SendBack.tree(SendBack.encode(CODEC, AnthropicCodec.PROVIDER, advisorOpening(expected).build(), false));

        assertThat(ours).isEqualTo(expected);
        // default reasoning options ask for nothing: the omitted-thinking block of turn 1 came unasked
        assertThat(ours.has("thinking")).isFalse();
    }

    @Test
    void anOmittedThinkingBlockGoesBackWithEmptyTextAndItsSignatureBeforeTheAdvisorBlocks() {
        String stem = "pydantic-sonnet5-advisor-omitted-thinking-replay";
        AssistantMessage turn1 = decoded("anthropic/" + stem + ".turn1.json");
        assertThat(turn1.parts().get(0)).isInstanceOfSatisfying(ReasoningPart.class, r -> {
            assertThat(r.text()).isEmpty();
            assertThat(r.seals().signature()).startsWith("EooDCokBCA8YAipArdh/");
        });
        ObjectNode expected = accepted(stem);
        ChatRequest request = advisorOpening(expected).message(turn1).user("And what is that plus one?").build();

        String written = SendBack.encode(CODEC, AnthropicCodec.PROVIDER, request, false);

        assertThat(SendBack.tree(written)).isEqualTo(expected);
        assertBlocksVerbatim(written, turn1);
    }

    /** pydantic-ai's compaction conversation before the first answer (the long context is the accepted text). */
    private static ChatRequest.Builder compactionOpening(JsonNode accepted) {
        return ChatRequest.builder("claude-sonnet-4-6")
                .system("You are a helpful assistant. Be very brief.")
                .user(accepted.get("messages").get(0).get("content").get(0).get("text").stringValue())
                .sampling(maxTokens(4096))
                .extra("context_management", SendBack.plain(accepted.get("context_management")));
    }

    @Test
    void compactionOpeningRequestCarriesTheContextManagementEditAsAccepted() {
        ObjectNode expected = accepted("pydantic-compaction-multiturn", 1);

        JsonNode ours = SendBack.tree(SendBack.encode(CODEC, AnthropicCodec.PROVIDER, compactionOpening(expected).build(), false));

        assertThat(ours).isEqualTo(expected);
        // and turn 2 repeats it unchanged (the caller's extra, written the same each turn)
        assertThat(ours.get("context_management")).isEqualTo(accepted("pydantic-compaction-multiturn").get("context_management"));
    }

    @Test
    void aCompactionBlockGoesBackFirstInTheAssistantTurnAsItCame() {
        String stem = "pydantic-compaction-multiturn";
        AssistantMessage turn1 = decoded("anthropic/" + stem + ".turn1.json");
        assertThat(turn1.parts().get(0)).isInstanceOfSatisfying(ServerToolPart.class,
                s -> assertThat(s.type()).isEqualTo("compaction"));
        ObjectNode expected = accepted(stem);
        ChatRequest request = compactionOpening(expected).message(turn1).user("What did I ask you to do?").build();

        String written = SendBack.encode(CODEC, AnthropicCodec.PROVIDER, request, false);

        assertThat(SendBack.tree(written)).isEqualTo(expected);
        assertBlocksVerbatim(written, turn1);
    }

    /** pydantic-ai's web-search conversation before the paused answer: a thinking budget of 4096 tokens. */
    private static ChatRequest.Builder pauseTurnOpening(JsonNode accepted) {
        return ChatRequest.builder("claude-sonnet-4-5")
                .user(accepted.get("messages").get(0).get("content").get(0).get("text").stringValue())
                .reasoning(ReasoningOptions.budget(4096))
                .sampling(maxTokens(15000))
                .extra("tool_choice", SendBack.plain(accepted.get("tool_choice")))
                .extra("tools", SendBack.plain(accepted.get("tools")));
    }

    @Test
    void pauseTurnOpeningRequestAsksForTheThinkingBudgetAsAccepted() {
        ObjectNode expected = accepted("pydantic-pause-turn-web-search-thinking", 1);

        JsonNode ours = SendBack.tree(SendBack.encode(CODEC, AnthropicCodec.PROVIDER, pauseTurnOpening(expected).build(), false));

        assertThat(ours).isEqualTo(expected);
        assertThat(ours.get("thinking").toString()).isEqualTo("{\"type\":\"enabled\",\"budget_tokens\":4096}");
    }

    @Test
    void aPausedTurnIsContinuedByResendingItsContentVerbatimWithNoNewUserMessage() {
        String stem = "pydantic-pause-turn-web-search-thinking";
        AssistantMessage turn1 = decoded("anthropic/" + stem + ".turn1.json");
        assertThat(turn1.finishReason()).isNotEqualTo(FinishReason.STOP);
        assertThat(turn1.rawFinishReason()).isEqualTo("pause_turn");
        ObjectNode expected = accepted(stem);
        ChatRequest request = pauseTurnOpening(expected).message(turn1).build();

        String written = SendBack.encode(CODEC, AnthropicCodec.PROVIDER, request, false);

        JsonNode ours = SendBack.tree(written);
        assertThat(ours).isEqualTo(expected);
        // 27 blocks: thinking + signature, texts, 11 server_tool_use, 10 results with encrypted_content,
        // ending in the unanswered server_tool_use; the last message is the assistant's
        JsonNode messages = ours.get("messages");
        assertThat(messages).hasSize(2);
        JsonNode blocks = messages.get(1).get("content");
        assertThat(blocks).hasSize(27);
        assertThat(blocks.get(26).get("type").stringValue()).isEqualTo("server_tool_use");
        assertBlocksVerbatim(written, turn1);
    }

    /**
     * The Claude Sonnet 5 recordings added on 2026-11-25 whose later turn was not recorded (so no
     * accepted request exists): rules A1, A2 and A5 applied to them. Each turn goes back as exactly
     * the content blocks it came with: an omitted-thinking block as {@code thinking: ""} with its
     * signature (the advisor's {@code advisor_redacted_result} with its {@code encrypted_content}
     * verbatim after it), and a summarized one with its text and signature.
     */
    @Test
    void sonnet5TurnsWithoutARecordedLaterTurnGoBackAsTheBlocksTheyCameAs() {
        for (String stem : new String[] {"pydantic-sonnet5-advisor-redacted-result-omitted-thinking",
                "pydantic-sonnet5-bedrock-invoke-omitted-thinking", "rubyllm-sonnet5-adaptive-display-summarized-thinking"}) {
            String path = "anthropic/" + stem + ".json";
            AssistantMessage turn1 = decoded(path);
            ChatRequest request = ChatRequest.builder("claude-sonnet-5").user("First question").message(turn1)
                    .user("Second question").build();

            String written = SendBack.encode(CODEC, AnthropicCodec.PROVIDER, request, false);

            JsonNode blocks = SendBack.tree(written).get("messages").get(1).get("content");
            assertThat(blocks).as(stem).isEqualTo(SendBack.tree(Recorded.text(path)).get("content"));
            assertThat(blocks.get(0).get("signature").stringValue()).as(stem).isNotEmpty();
            assertBlocksVerbatim(written, turn1);
        }
    }

    @Test
    void aStreamedCompactionBlockGoesBackWithTheContentItsDeltasGave() {
        String path = "anthropic/pydantic-compaction-stream.sse";
        StringBuilder content = new StringBuilder();
        for (String line : Recorded.text(path).split("\n")) {
            if (line.contains("\"compaction_delta\"")) {
                content.append(SendBack.tree(line.substring("data:".length())).get("delta").get("content").stringValue());
            }
        }
        assertThat(content).isNotEmpty();
        AssistantMessage turn1 = decoded(path);
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-6").user("Now say hello.").message(turn1)
                .user("What did I ask you to do?").build();

        JsonNode blocks = SendBack.tree(SendBack.encode(CODEC, AnthropicCodec.PROVIDER, request, false))
                .get("messages").get(1).get("content");

        // the start event says "content": null; the summary arrives only in compaction_delta, and the
        // block goes back first with it, as the accepted non-streamed request sends its own
        ObjectNode expected = (ObjectNode) SendBack.tree("{\"type\":\"compaction\"}");
        expected.put("content", content.toString());
        assertThat(blocks.get(0)).isEqualTo(expected);
        assertThat(blocks.get(1).get("type").stringValue()).isEqualTo("text");
    }
}
