package dev.ruminate.gateway.state;

import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Sealed states built from recorded responses (see fixtures/PROVENANCE.md): real opaque values, as backends send them. */
final class RecordedSeals {

    static final Instant ISSUED = Instant.parse("2026-11-25T12:00:00Z");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RecordedSeals() {
    }

    /** Anthropic: thinking text with its signature, then text and a tool call, as one turn. */
    static SealedState anthropicSigned() {
        JsonNode content = fixture("anthropic/pydantic-thinking-tool-use.turn1.json").get("content");
        JsonNode thinking = content.get(0);
        JsonNode toolUse = content.get(2);
        return new SealedState("claude", "anthropic", "claude-sonnet-4-20250514", ISSUED, List.of(
                new ReasoningPart(thinking.get("thinking").asString(), false, null,
                        new Seals(thinking.get("signature").asString(), null, null, null, null)),
                TextPart.of(content.get(1).get("text").asString()),
                new ToolCallPart(toolUse.get("id").asString(), toolUse.get("name").asString(),
                        toolUse.get("input").toString(), true, Seals.NONE)));
    }

    /** Anthropic: a redacted thinking block (no text, the opaque data only). */
    static SealedState anthropicRedacted() {
        JsonNode block = fixture("anthropic/pydantic-redacted-thinking-multiturn.turn1.json").get("content").get(0);
        return new SealedState("claude", "anthropic", "claude-sonnet-4-5-20250929", ISSUED, List.of(
                new ReasoningPart("", false, null, new Seals(null, block.get("data").asString(), null, null, null))));
    }

    /** OpenAI Responses: a reasoning item's summary, encrypted_content and item id. */
    static SealedState responsesEncrypted() {
        JsonNode item = fixture("openai-responses/pydantic-o3-mini-responses-encrypted-reasoning.json")
                .get("output").get(0);
        return new SealedState("o3-mini", "openai-responses", "o3-mini-2025-01-31", ISSUED, List.of(
                new ReasoningPart(item.get("summary").get(0).get("text").asString(), true, null,
                        new Seals(null, null, item.get("encrypted_content").asString(), item.get("id").asString(),
                                "openai-responses-v1"))));
    }

    /** Gemini: thought text, then a function call carrying the thoughtSignature. */
    static SealedState geminiSignedCall() {
        JsonNode parts = fixture("gemini/rubyllm-gemini31-pro-thought-signed-call.turn1.json")
                .get("candidates").get(0).get("content").get("parts");
        JsonNode call = parts.get(1);
        return new SealedState("gemini", "gemini", null, ISSUED, List.<Part>of(
                new ReasoningPart(parts.get(0).get("text").asString(), true, null, Seals.NONE),
                new ToolCallPart(call.get("functionCall").get("id").asString(),
                        call.get("functionCall").get("name").asString(), call.get("functionCall").get("args").toString(),
                        true, new Seals(call.get("thoughtSignature").asString(), null, null, null, null))));
    }

    static List<SealedState> all() {
        return List.of(anthropicSigned(), anthropicRedacted(), responsesEncrypted(), geminiSignedCall());
    }

    private static JsonNode fixture(String path) {
        try (InputStream in = RecordedSeals.class.getResourceAsStream("/fixtures/" + path)) {
            if (in == null) {
                throw new IllegalStateException("missing fixture " + path);
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
