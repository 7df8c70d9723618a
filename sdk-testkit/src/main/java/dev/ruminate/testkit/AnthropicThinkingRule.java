package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Anthropic Messages: with thinking on, the last assistant turn of the current tool-use cycle
 * brings back its {@code thinking} and {@code redacted_thinking} blocks whole and before its
 * {@code tool_use} (PROTOCOLS.md §3 "Send-back": "you must pass thinking and redacted_thinking
 * blocks back … complete unmodified block"; "Thinking blocks go first"; RULES-OBSERVED.md
 * "Anthropic Messages": full block list in response order, signature byte-identical).
 *
 * <p>What the emulator can check of "unmodified" is that every thinking block still has a
 * non-empty {@code signature} and every redacted block its {@code data}: it cannot verify a
 * signature. Earlier cycles are not checked (§3: "Only the current tool-use cycle must be
 * preserved"). A model that does not interleave may answer a tool result without thinking; such
 * a later tool step is refused here although the API may accept it: switch the rule off for it.
 * Stateless and thread-safe.
 *
 * @since 0.2
 */
public final class AnthropicThinkingRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "anthropic.thinking-before-tool-use";

    /** Creates the rule. */
    public AnthropicThinkingRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        if (!Nodes.thinkingOn(body.path("thinking"))) {
            return null;
        }
        JsonNode messages = body.path("messages");
        int turn = Nodes.lastToolUseTurnOfCurrentCycle(messages, block -> Nodes.text(block, "type").equals("tool_use"),
                block -> Nodes.text(block, "type").equals("tool_result"));
        if (turn < 0) {
            return null;
        }
        JsonNode content = messages.get(turn).path("content");
        boolean thinkingFirst = false;
        boolean toolUseSeen = false;
        for (int i = 0; i < content.size(); i++) {
            JsonNode block = content.get(i);
            String type = Nodes.text(block, "type");
            if (type.equals("thinking") && !Nodes.hasText(block, "signature")) {
                // §3 errors: "messages.N.content.M.thinking.signature: Field required"
                return Violation.badRequest(NAME, "messages." + turn + ".content." + i + ".thinking.signature: Field required");
            }
            if (type.equals("redacted_thinking") && !Nodes.hasText(block, "data")) {
                return Violation.badRequest(NAME, "messages." + turn + ".content." + i + ".redacted_thinking.data: Field required");
            }
            boolean thinking = type.equals("thinking") || type.equals("redacted_thinking");
            thinkingFirst |= thinking && !toolUseSeen;
            toolUseSeen |= type.equals("tool_use");
        }
        if (!thinkingFirst) {
            // §3 errors: "Expected `thinking` or `redacted_thinking`, but found `tool_use`"
            String found = content.size() > 0 ? Nodes.text(content.get(0), "type") : "nothing";
            return Violation.badRequest(NAME, Nodes.thinkingFirstError(turn, found));
        }
        return null;
    }
}
