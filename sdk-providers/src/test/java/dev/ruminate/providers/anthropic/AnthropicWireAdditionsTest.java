package dev.ruminate.providers.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.testing.SendBack;
import dev.ruminate.providers.testing.SseSplitter;
import dev.ruminate.testkit.AnthropicScript;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;

/**
 * The Anthropic wire additions of 2026 (PROTOCOLS.md §19, docs/wire-additions-2026.md): omitted
 * thinking, the effort ladder, thinking tokens, the new stop reasons, context-management edits and
 * server-side fallback blocks. Recordings where {@code fixtures/anthropic} has one, otherwise scripts
 * built from the documented shape.
 */
class AnthropicWireAdditionsTest {

    private static final AnthropicCodec CODEC = AnthropicCodec.of(AnthropicCodec.DEFAULT_MAX_TOKENS);
    private static final String SIG_A = "EqQBCkYIBxgCKkB/sig+modelA==";
    private static final String SIG_B = "ErUBCkYIBxgCKkA/sig+modelB==";

    private static AssistantMessage reduce(Flux<ChatEvent> events) {
        return AnthropicRecordings.reduce(events).message();
    }

    private static AssistantMessage streamed(String sse) {
        return reduce(Flux.fromIterable(SseSplitter.split(sse)).transform(AnthropicCodec.streamDecoder()));
    }

    private static AssistantMessage whole(String json) {
        return reduce(AnthropicCodec.decodeMessage(json.getBytes(StandardCharsets.UTF_8)));
    }

    /** The assistant turn as the next request sends it back: {@code messages[1].content}. */
    private static JsonNode sentBack(String model, AssistantMessage turn) {
        ChatRequest request = ChatRequest.builder(model).user("First").message(turn).user("Second").build();
        return SendBack.tree(SendBack.encode(CODEC, AnthropicCodec.PROVIDER, request, false)).get("messages").get(1)
                .get("content");
    }

    @Test
    void aStreamedOmittedThinkingBlockGoesBackAsThinkingWithEmptyTextNeverAsRedacted() {
        AssistantMessage turn = streamed(AnthropicScript.create().model("claude-sonnet-5").omittedThinking(SIG_A)
                .text("4").toSse());

        JsonNode blocks = sentBack("claude-sonnet-5", turn);

        assertThat(blocks.get(0)).isEqualTo(SendBack.tree(
                "{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"" + SIG_A + "\"}"));
        assertThat(blocks.toString()).doesNotContain("redacted_thinking");
        assertThat(blocks.get(1).get("text").stringValue()).isEqualTo("4");
    }

    /** Adaptive thinking's {@code output_config.effort} for each effort: xhigh only where the model takes it. */
    @ParameterizedTest
    @CsvSource({
            "claude-sonnet-4-6, MINIMAL, low", "claude-sonnet-4-6, LOW, low", "claude-sonnet-4-6, MEDIUM, medium",
            "claude-sonnet-4-6, HIGH, high", "claude-sonnet-4-6, XHIGH, high", "claude-sonnet-4-6, MAX, max",
            "claude-opus-4-6, XHIGH, high", "claude-opus-4-7, XHIGH, xhigh", "claude-opus-4-7-20260301, XHIGH, xhigh",
            "claude-sonnet-5, XHIGH, xhigh", "claude-opus-5, MAX, max", "claude-haiku-4-5-20251001, XHIGH, high"})
    void effortLadderLowToMaxWithXhighGatedByModel(String model, ReasoningEffort effort, String wire) {
        ChatRequest request = ChatRequest.builder(model).user("Hi").reasoning(ReasoningOptions.effort(effort)).build();

        JsonNode body = SendBack.tree(SendBack.encode(CODEC, AnthropicCodec.PROVIDER, request, false));

        assertThat(body.get("thinking").toString()).isEqualTo("{\"type\":\"adaptive\"}");
        assertThat(body.get("output_config").toString()).isEqualTo("{\"effort\":\"" + wire + "\"}");
    }

    @Test
    void thinkingTokensOfTheRecordedBodiesAreTheUsagesReasoningTokens() {
        Map<String, Long> thinkingTokens = Map.of(
                "anthropic/rubyllm-sonnet5-adaptive-display-summarized-thinking.json", 170L,
                "anthropic/pydantic-sonnet5-bedrock-invoke-omitted-thinking.json", 194L,
                "anthropic/pydantic-sonnet5-advisor-redacted-result-omitted-thinking.json", 71L,
                "anthropic/rubyllm-haiku45-thinking-multiturn.turn1.json", 23L);
        thinkingTokens.forEach((path, expected) -> assertThat(reduce(AnthropicRecordings.decode(path)).usage()
                .reasoningTokens()).as(path).isEqualTo(expected));
    }

    @Test
    void thinkingTokensInAStreamsMessageDeltaAreTheUsagesReasoningTokens() {
        String sse = """
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-5","content":[],"stop_reason":null,"usage":{"input_tokens":12,"output_tokens":1}}}

                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"4"}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":0}

                event: message_delta
                data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":90,"output_tokens_details":{"thinking_tokens":77}}}

                event: message_stop
                data: {"type":"message_stop"}

                """;

        AssistantMessage m = streamed(sse);

        assertThat(m.usage().reasoningTokens()).isEqualTo(77L);
        assertThat(m.usage().outputTokens()).isEqualTo(90L);
        assertThat(m.usage().inputTokens()).isEqualTo(12L);
    }

    @Test
    void aRecordedPauseTurnIsPausedAndKeepsItsRawReason() {
        AssistantMessage m = reduce(AnthropicRecordings.decode("anthropic/pydantic-pause-turn-web-search-thinking.turn1.json"));

        assertThat(m.finishReason()).isEqualTo(FinishReason.PAUSED);
        assertThat(m.rawFinishReason()).isEqualTo("pause_turn");
    }

    @ParameterizedTest
    @CsvSource({"pause_turn,PAUSED", "refusal,CONTENT_FILTER", "model_context_window_exceeded,LENGTH"})
    void newStopReasonsOfAWholeBodyAreMapped(String raw, FinishReason expected) {
        AssistantMessage m = whole(AnthropicScript.create().text("x").stopReason(raw).toMessageJson());

        assertThat(m.finishReason()).isEqualTo(expected);
        assertThat(m.rawFinishReason()).isEqualTo(raw);
    }

    /**
     * Context-management edits are the caller's: a {@code context_management} extra goes out
     * verbatim (the encoder writes none of its own), on every turn it is given.
     */
    @Test
    void contextManagementEditsGoOutAsTheCallersExtraVerbatim() {
        String edits = "{\"edits\":[{\"type\":\"clear_thinking_20251015\",\"keep\":{\"type\":\"thinking_turns\",\"value\":1}},"
                + "{\"type\":\"clear_tool_uses_20250919\",\"trigger\":{\"type\":\"input_tokens\",\"value\":30000}},"
                + "{\"type\":\"compact_20260112\"}]}";
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-6").user("Hi")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).extra("context_management", SendBack.plain(SendBack.tree(edits))).build();

        JsonNode body = SendBack.tree(SendBack.encode(CODEC, AnthropicCodec.PROVIDER, request, false));

        assertThat(body.get("context_management").toString()).isEqualTo(edits);
        assertThat(body.get("output_config").toString()).isEqualTo("{\"effort\":\"high\"}");
    }

    /**
     * A server-side fallback (UNVERIFIED shape: PROTOCOLS.md §19): one message with thinking signed
     * by two models and a block of a type this decoder does not know at the boundary. The unknown
     * block is kept verbatim as a server-tool block, both signatures stay on their blocks, and the
     * turn goes back as exactly the blocks it came as, in place.
     */
    private static final String FALLBACK_BLOCK =
            "{\"type\":\"fallback\",\"from_model\":\"claude-opus-5\",\"to_model\":\"claude-sonnet-5\",\"reason\":\"overloaded\"}";

    private static final String FALLBACK_CONTENT = "[{\"type\":\"thinking\",\"thinking\":\"First model.\",\"signature\":\"" + SIG_A
            + "\"}," + FALLBACK_BLOCK + ",{\"type\":\"thinking\",\"thinking\":\"Second model.\",\"signature\":\"" + SIG_B
            + "\"},{\"type\":\"text\",\"text\":\"Done.\"}]";

    private static void assertFallbackTurn(AssistantMessage turn) {
        List<Part> parts = turn.parts();
        assertThat(parts).hasSize(4);
        assertThat(parts.get(0)).isInstanceOfSatisfying(ReasoningPart.class, r -> {
            assertThat(r.text()).isEqualTo("First model.");
            assertThat(r.seals().signature()).isEqualTo(SIG_A);
        });
        assertThat(parts.get(1)).isInstanceOfSatisfying(ServerToolPart.class, s -> {
            assertThat(s.type()).isEqualTo("fallback");
            assertThat(s.json()).isEqualTo(FALLBACK_BLOCK);
        });
        assertThat(parts.get(2)).isInstanceOfSatisfying(ReasoningPart.class,
                r -> assertThat(r.seals().signature()).isEqualTo(SIG_B));
        assertThat(parts.get(3)).isEqualTo(TextPart.of("Done."));

        JsonNode blocks = sentBack("claude-sonnet-5", turn);
        assertThat(blocks).isEqualTo(SendBack.tree(FALLBACK_CONTENT));
    }

    @Test
    void aWholeBodyWithAFallbackBoundaryKeepsEveryBlockAndSignatureInPlace() {
        String body = "{\"id\":\"msg_fb\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-5\",\"content\":"
                + FALLBACK_CONTENT + ",\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":10,\"output_tokens\":20,"
                + "\"iterations\":[{\"type\":\"message\"},{\"type\":\"fallback_message\"}]}}";

        assertFallbackTurn(whole(body));
    }

    @Test
    void aStreamWithAFallbackBoundaryKeepsEveryBlockAndSignatureInPlace() {
        String sse = """
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_fb","type":"message","role":"assistant","model":"claude-sonnet-5","content":[],"usage":{"input_tokens":10,"output_tokens":1}}}

                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"First model."}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"SIG_A"}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":0}

                event: content_block_start
                data: {"type":"content_block_start","index":1,"content_block":FALLBACK}

                event: content_block_stop
                data: {"type":"content_block_stop","index":1}

                event: content_block_start
                data: {"type":"content_block_start","index":2,"content_block":{"type":"thinking","thinking":"","signature":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":2,"delta":{"type":"thinking_delta","thinking":"Second model."}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":2,"delta":{"type":"signature_delta","signature":"SIG_B"}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":2}

                event: content_block_start
                data: {"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"Done."}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":3}

                event: message_delta
                data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":20}}

                event: message_stop
                data: {"type":"message_stop"}

                """.replace("SIG_A", SIG_A).replace("SIG_B", SIG_B).replace("FALLBACK", FALLBACK_BLOCK);

        assertFallbackTurn(streamed(sse));
    }
}
