package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Bedrock Converse with Claude: with thinking on ({@code additionalModelRequestFields.thinking}),
 * the last assistant message of the current tool loop brings back its {@code reasoningContent}
 * with its signature (or its {@code redactedContent}) before its {@code toolUse} (PROTOCOLS.md
 * §15 "Send-back": "include the text and its signature unmodified … If the previous messages are
 * tampered with, the response throws an error", and "Anthropic's tool-loop rules apply
 * underneath"; RULES-OBSERVED.md "Amazon Bedrock Converse": {@code [reasoningContent, text,
 * toolUse]} in that order). The messages are those Claude gives through Bedrock. Stateless and
 * thread-safe.
 *
 * @since 0.2
 */
public final class BedrockReasoningRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "bedrock.reasoning-before-tool-use";

    private static final String PREFIX = "The model returned the following errors: ";

    /** Creates the rule. */
    public BedrockReasoningRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        if (!Nodes.thinkingOn(body.path("additionalModelRequestFields").path("thinking"))) {
            return null;
        }
        JsonNode messages = body.path("messages");
        int turn = Nodes.lastToolUseTurnOfCurrentCycle(messages, block -> block.has("toolUse"),
                block -> block.has("toolResult"));
        if (turn < 0) {
            return null;
        }
        JsonNode content = messages.get(turn).path("content");
        boolean reasoningFirst = false;
        boolean toolUseSeen = false;
        for (int i = 0; i < content.size(); i++) {
            JsonNode block = content.get(i);
            JsonNode reasoning = block.get("reasoningContent");
            if (reasoning != null) {
                boolean signed = Nodes.hasText(reasoning.path("reasoningText"), "signature");
                if (!signed && !Nodes.hasText(reasoning, "redactedContent")) {
                    return Violation.badRequest(NAME, PREFIX + "messages." + turn + ".content." + i
                            + ".thinking.signature: Field required");
                }
                reasoningFirst |= !toolUseSeen;
            }
            toolUseSeen |= block.has("toolUse");
        }
        if (!reasoningFirst) {
            String found = content.size() > 0 ? anthropicType(content.get(0)) : "nothing";
            return Violation.badRequest(NAME, PREFIX + Nodes.thinkingFirstError(turn, found));
        }
        return null;
    }

    /** The Anthropic block type that a Converse content block becomes underneath, as the error names it. */
    private static String anthropicType(JsonNode block) {
        if (block.has("toolUse")) {
            return "tool_use";
        }
        if (block.has("toolResult")) {
            return "tool_result";
        }
        return block.has("image") ? "image" : "text";
    }
}
