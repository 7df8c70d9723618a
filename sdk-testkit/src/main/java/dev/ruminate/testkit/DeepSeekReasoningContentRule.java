package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * DeepSeek thinking mode (V3.1 and later): every assistant message that made tool calls carries
 * its {@code reasoning_content} (PROTOCOLS.md §5 "Send-back", thinking mode: "if the model
 * performed a tool call, the intermediate assistant's reasoning_content must … be passed back to
 * the API in all subsequent requests … the API will return a 400 error"; §19 "DeepSeek V4";
 * RULES-OBSERVED.md "DeepSeek": every earlier assistant tool-call message carried it, even across
 * the user turn, and a synthesized {@code ""} was accepted, so an empty string passes).
 *
 * <p>Thinking mode is {@code "thinking":{"type":"enabled"}}, the {@code deepseek-reasoner} model
 * (DeepSeek's thinking-mode model name) or a {@code deepseek-v4} model without
 * {@code "thinking":{"type":"disabled"}} (§19: V4 thinks by default). Stateless and thread-safe.
 *
 * @since 0.2
 */
public final class DeepSeekReasoningContentRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "deepseek.reasoning-content-on-tool-call-turns";

    /** Creates the rule. */
    public DeepSeekReasoningContentRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        if (!thinkingMode(body)) {
            return null;
        }
        JsonNode messages = body.path("messages");
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            boolean toolCalls = message.path("tool_calls").isArray() && !message.path("tool_calls").isEmpty();
            JsonNode reasoning = message.get("reasoning_content");
            if (Nodes.text(message, "role").equals("assistant") && toolCalls && (reasoning == null || !reasoning.isString())) {
                // §5 errors: "400 The reasoning_content in the thinking mode must be passed back to the API."
                return Violation.badRequest(NAME, "The reasoning_content in the thinking mode must be passed back to the API.");
            }
        }
        return null;
    }

    /** Whether a DeepSeek request is in thinking mode, as the class documents; shared with the tool-choice rule. */
    static boolean thinkingMode(JsonNode body) {
        String thinking = Nodes.text(body.path("thinking"), "type");
        String model = Nodes.text(body, "model");
        return thinking.equals("enabled")
                || model.equals("deepseek-reasoner")
                || (model.startsWith("deepseek-v4") && !thinking.equals("disabled"));
    }
}
