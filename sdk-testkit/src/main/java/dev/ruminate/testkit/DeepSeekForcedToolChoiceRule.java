package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * DeepSeek thinking mode refuses a {@code tool_choice} that forces tool use: a named function
 * ({@code {"type":"function","function":{"name":…}}}) or {@code "required"} (PROTOCOLS.md §19
 * "DeepSeek V4": "forced tool_choice is rejected in thinking mode"; "Thinking may not be enabled
 * when tool_choice forces tool use": Anthropic, Bedrock, DeepSeek thinking mode, DashScope).
 * {@code "auto"} and {@code "none"} pass.
 *
 * <p>Thinking mode as {@link DeepSeekReasoningContentRule} decides it. The error text is an
 * assumption (no recording of this 400 was found); the status and the OpenAI error shape are those
 * of DeepSeek's other request errors. Stateless and thread-safe.
 *
 * @since 0.3
 */
public final class DeepSeekForcedToolChoiceRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "deepseek.no-forced-tool-choice-in-thinking-mode";

    /** Creates the rule. */
    public DeepSeekForcedToolChoiceRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        if (!DeepSeekReasoningContentRule.thinkingMode(body)) {
            return null;
        }
        JsonNode choice = body.path("tool_choice");
        boolean forced = (choice.isString() && choice.asString().equals("required"))
                || (choice.isObject() && Nodes.text(choice, "type").equals("function"));
        if (forced) {
            return new Violation(NAME, 400, "deepseek thinking mode does not support a tool_choice that forces a tool "
                    + "call; use \"auto\" or \"none\"", "tool_choice");
        }
        return null;
    }
}
